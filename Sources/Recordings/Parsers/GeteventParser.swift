import GestureCore

/// Reads Android `getevent -t` output (`toolbox/getevent.c` in AOSP's `system/core`):
///
///     [   75285.145353] 0003 0035 000002a5
///     [   75285.145353] /dev/input/event11: 0003 0035 000002a5    (when no device is named)
///
/// Timestamps are `[%8ld.%06ld]`; type, code and value are `%04x %04x %08x`, so the value is
/// the 32-bit two's complement in hex (`ffffffff` is -1, see
/// `android-getevent-t.swipes.txt`). There is no device description. The `add device` /
/// `  name:` lines getevent prints when it scans every device are accepted; when several
/// devices appear, only the first one's events are kept. Any other line is an error.
final class GeteventParser: RecordingParser {
    static let eventSyntax = "\"[<sec>.<usec>] <type> <code> <value>\" (hex, from getevent -t)"
    /// Devices other than the first that the closing warning names; more are only counted, so
    /// a capture of many devices costs neither memory nor a search per line (issue 12).
    static let namedOtherDevices = 8

    private let file: String
    private var firstDevice: [UInt8]?
    private var otherDevices: [[UInt8]] = []
    private var moreDevices = false
    private var skipped = 0

    init(file: String) {
        self.file = file
    }

    var format: RecordingFormat { .getevent }

    func makeDescription() -> DeviceDescription? { nil }

    func declarationLine(ofAxis code: UInt16) -> Int? { nil }

    func consume(_ line: TextLine) throws(RecordingError) -> RawEvent? {
        var scanner = ByteScanner(line)
        if line.isBlank { return nil }
        if line.hasPrefix("add device ") || line.hasPrefix("remove device ") || line.bytes.first?.isBlank == true
            && !scanner.startsWithTimestamp() {
            // Device announcements and their indented `name:`/`bus:` details.
            return nil
        }
        scanner.skipBlanks()
        guard scanner.skip(.openBracket) else { throw malformed(line) }
        scanner.skipBlanks()
        guard let time = scanner.timestamp(), scanner.skip(.closeBracket), scanner.skipRequiredBlanks() else {
            throw malformed(line)
        }
        var device: ArraySlice<UInt8>?
        if scanner.peek == UInt8(ascii: "/") {
            let token = scanner.token()
            guard token.last == .colon, scanner.skipRequiredBlanks() else { throw malformed(line) }
            device = token.dropLast()
        }
        guard let type = scanner.hex(max: 0xffff), scanner.skipRequiredBlanks(),
              let code = scanner.hex(max: 0xffff), scanner.skipRequiredBlanks(),
              let value = scanner.hex(max: 0xffff_ffff)
        else { throw malformed(line) }
        scanner.skipBlanks()
        // `-r` appends ` rate <n>` to SYN_REPORT lines.
        if scanner.skip("rate") { scanner.skipBlanks(); _ = scanner.unsignedDecimal(maxDigits: 18) }
        guard scanner.isAtEnd else { throw malformed(line) }
        if let device {
            guard let firstDevice else {
                firstDevice = Array(device)
                return event(time, type, code, value)
            }
            if !device.elementsEqual(firstDevice) {
                skipped += 1
                if !otherDevices.contains(where: { device.elementsEqual($0) }) {
                    if otherDevices.count < Self.namedOtherDevices { otherDevices.append(Array(device)) } else { moreDevices = true }
                }
                return nil
            }
        }
        return event(time, type, code, value)
    }

    private func event(_ time: Int64, _ type: UInt64, _ code: UInt64, _ value: UInt64) -> RawEvent {
        RawEvent(time: Timestamp(microseconds: time), type: UInt16(type), code: UInt16(code),
                 value: Int32(bitPattern: UInt32(value)))
    }

    private func malformed(_ line: TextLine) -> RecordingError {
        RecordingError(file: file, line: line.number, message: "expected \(Self.eventSyntax), found \(line.quoted)")
    }

    func finish(lastLine: Int) -> [String] {
        guard let firstDevice, !otherDevices.isEmpty else { return [] }
        var others = otherDevices.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ", ")
        if moreDevices { others += " and other devices" }
        return ["events of \(String(decoding: firstDevice, as: UTF8.self)) kept; \(skipped) events of \(others) skipped"]
    }
}

extension ByteScanner {
    /// True when the line, after blanks, starts with `[` (a `getevent -t` timestamp).
    fileprivate func startsWithTimestamp() -> Bool {
        var copy = self
        copy.skipBlanks()
        return copy.peek == .openBracket
    }
}
