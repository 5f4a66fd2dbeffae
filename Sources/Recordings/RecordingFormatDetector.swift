/// Tells the format of a recording from its first meaningful lines, never from the file
/// name: recordings get renamed (`.txt`, `.log`, `.events`, `.yml`) when they are attached
/// to bug reports.
enum RecordingFormatDetector {
    /// The format family; the evemu version is read by the evemu parser.
    enum Family {
        case evemu, libinputRecord, evtest, getevent
    }

    /// How much of the file decides: a long evemu header is well under 16 KiB.
    static let prefixLength = 16 * 1024

    /// The family of the file `name` whose first bytes are `prefix` (``prefixLength`` of
    /// them, or the whole file when `isWholeFile`).
    /// Lines with bytes no recording's text has are refused first (``EncodingCheck``), so that
    /// the answer for a UTF-16 file or one with classic Mac OS line endings says so.
    static func detect(prefix: ArraySlice<UInt8>, isWholeFile: Bool, name: String) throws(RecordingError) -> Family {
        if let problem = EncodingCheck.problem(atStartOf: prefix) {
            throw RecordingError(file: name, line: nil, message: problem)
        }
        if isWholeFile, prefix.allSatisfy({ $0.isBlank || $0 == .newline || $0 == .carriageReturn }) {
            throw RecordingError(file: name, line: nil, message: "expected a recording, found an empty file")
        }
        for line in TextLine.split(Array(prefix)).prefix(200) {
            if let problem = EncodingCheck.problem(inLine: line.bytes) {
                throw RecordingError(file: name, line: line.number, message: problem)
            }
            var scanner = ByteScanner(line)
            scanner.skipBlanks()
            guard let first = scanner.peek else { continue }
            if first == .hash {
                if line.hasPrefix("# libinput record") { return .libinputRecord }
                if EvemuParser.version(in: line) != nil { return .evemu }
                continue  // other comments: evemu's own, or a user's note
            }
            if line.bytes.count >= 2, line.bytes[line.bytes.startIndex + 1] == .colon, scanner.index == line.bytes.startIndex,
               "NIPBAELS".utf8.contains(first) {
                return .evemu
            }
            if line.hasPrefix("version:") || line.hasPrefix("ndevices:") { return .libinputRecord }
            if line.hasPrefix("Input driver version is") || line.hasPrefix("Input device ID:")
                || line.hasPrefix("Input device name:") || line.hasPrefix("Event: time")
                || line.hasPrefix("No device specified") || line.hasPrefix("Available devices:") {
                return .evtest
            }
            if first == .openBracket || line.hasPrefix("add device ") { return .getevent }
            break
        }
        throw RecordingError(file: name, line: nil,
                             message: "expected an evemu, libinput record, evtest or getevent -t recording; the format was not recognised")
    }
}
