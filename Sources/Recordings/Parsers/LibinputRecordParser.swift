import GestureCore

/// Reads `libinput record` YAML, file format version 1, with a small line reader for the
/// subset libinput writes instead of a YAML library.
///
/// The format is libinput's `tools/libinput-record.man` (FILE FORMAT section) and what
/// `tools/libinput-record.c` prints (`print_header`, `print_bits_info`, `print_bits_types`,
/// `print_bits_absinfo`, `print_bits_props`, `handle_evdev_frame`, `print_evdev_event`):
///
///     version: 1
///     ndevices: 1
///     libinput: ...            (ignored)
///     system: ...              (ignored)
///     devices:
///     - node: /dev/input/event9
///       evdev:
///         # comments describing the device
///         name: "Synaptics TM2668-002"
///         id: [29, 1739, 0, 0]
///         codes:
///           0: [0, 1, 2, 3]    # EV_SYN
///           3: [0, 1, 53, 54]  # EV_ABS
///         absinfo:
///           0: [0, 4089, 0, 0, 42]   # min, max, fuzz, flat, resolution
///         properties: [0, 2, 4]
///       hid: [...], udev: ..., quirks: ...   (ignored)
///       events:
///       - evdev:
///         - [  0,      0,   3,  57,  1420] # EV_ABS / ABS_MT_TRACKING_ID   1420
///         - [  0,      0,   0,   0,     0] # ------------ SYN_REPORT (0) ---------- +0ms
///       - libinput: ... / - hid: ...       (other frame kinds, ignored)
///
/// libinput's `iprintf` puts `- node:` two columns left of the device's keys and `- evdev:`
/// frames in the same column as `events:` (a compact YAML sequence); the Linux kernel's
/// `Documentation/hid/hidintro.rst` shows a recording indented two columns further. Only
/// these relative positions are relied on. Unknown keys are ignored, as the man page asks.
/// Only the first device of a multi-device recording is read.
final class LibinputRecordParser: RecordingParser {
    static let eventSyntax = "\"- [<sec>, <usec>, <type>, <code>, <value>]\""

    private enum DeviceSection {
        case none, evdev, codes, absinfo, events, udev, other
    }

    /// The most udev properties kept from one recording (docs/limits.md § Routing): a device
    /// has a few dozen; the rest are ignored.
    static let maximumUdevProperties = 256
    private var recordedUdev: [String: String] = [:]
    private var sawUdev = false

    var udevProperties: [String: String]? { sawUdev ? recordedUdev : nil }

    private let file: String
    private var version: Int?
    private var declaredDevices: Int?
    private var inDevices = false
    private var deviceCount = 0
    private var firstNode: String?
    private var deviceKeyIndent = 0
    private var section = DeviceSection.none
    private var frameIsEvdev = false
    private var frameIndent = -1

    private var sawEvdev = false
    private var device = DeviceDescriptionParts()
    private var absLines: [UInt16: Int] = [:]

    init(file: String) {
        self.file = file
    }

    var format: RecordingFormat { .libinputRecord }

    func declarationLine(ofAxis code: UInt16) -> Int? { absLines[code] }

    private func error(_ line: TextLine, expected: String) -> RecordingError {
        RecordingError(file: file, line: line.number, message: "expected \(expected), found \(line.quoted)")
    }

    func consume(_ line: TextLine) throws(RecordingError) -> RawEvent? {
        var scanner = ByteScanner(line)
        scanner.skipBlanks()
        guard let first = scanner.peek, first != .hash else { return nil }
        let indent = scanner.index - line.bytes.startIndex
        let isItem = first == .minus && (scanner.rest.dropFirst().first?.isBlank ?? true)

        if indent == 0 && !isItem {
            try consumeTopLevel(&scanner, line)
            return nil
        }
        guard inDevices else { return nil }

        if isItem && (deviceCount == 0 || indent < deviceKeyIndent) {
            // `- node: …` starts the next device; its keys sit two columns right of the dash.
            deviceCount += 1
            deviceKeyIndent = indent + 2
            section = .none
            _ = scanner.skip(.minus)
            scanner.skipBlanks()
            if deviceCount == 1, scanner.skip("node:") {
                scanner.skipBlanks()
                firstNode = String(decoding: Self.withoutComment(scanner.rest), as: UTF8.self)
            }
            return nil
        }
        guard deviceCount == 1 else { return nil }

        if indent == deviceKeyIndent && !isItem {
            let key = Self.key(&scanner)
            switch key {
            case "evdev": section = .evdev; sawEvdev = true
            case "events": section = .events; frameIsEvdev = false; frameIndent = -1
            case "udev": section = .udev; sawUdev = true
            default: section = .other
            }
            return nil
        }

        switch section {
        case .none, .other:
            return nil
        case .udev:
            // `properties:` then `- KEY=VALUE` items (the udev database's lines).
            if isItem, recordedUdev.count < Self.maximumUdevProperties {
                _ = scanner.skip(.minus)
                scanner.skipBlanks()
                let text = String(decoding: Self.withoutComment(scanner.rest), as: UTF8.self)
                if let equals = text.firstIndex(of: "="), equals != text.startIndex {
                    recordedUdev[String(text[..<equals])] = String(text[text.index(after: equals)...])
                }
            }
            return nil
        case .evdev, .codes, .absinfo:
            try consumeEvdev(&scanner, line)
            return nil
        case .events:
            return try consumeEvents(&scanner, line, indent: indent, isItem: isItem)
        }
    }

    private func consumeTopLevel(_ scanner: inout ByteScanner, _ line: TextLine) throws(RecordingError) {
        let key = Self.key(&scanner)
        inDevices = false
        switch key {
        case "version":
            guard let value = scanner.int32(), scanner.isAtEndOrComment() else {
                throw error(line, expected: "\"version: 1\"")
            }
            guard value == 1 else {
                throw RecordingError(file: file, line: line.number,
                                     message: "expected \"version: 1\" (the only libinput record file format), found \(line.quoted)")
            }
            version = 1
        case "ndevices":
            guard let value = scanner.int32(), value >= 0, scanner.isAtEndOrComment() else {
                throw error(line, expected: "\"ndevices: <count>\"")
            }
            declaredDevices = Int(value)
        case "devices":
            guard version != nil else {
                throw RecordingError(file: file, line: line.number,
                                     message: "expected \"version: 1\" before \"devices:\", found \(line.quoted)")
            }
            inDevices = true
        default:
            break
        }
    }

    private func consumeEvdev(_ scanner: inout ByteScanner, _ line: TextLine) throws(RecordingError) {
        let start = scanner
        if let number = scanner.unsignedDecimal(maxDigits: 5), scanner.skip(.colon) {
            // `<type>: [codes]` under `codes:`, `<code>: [min, max, fuzz, flat, res]` under `absinfo:`.
            switch section {
            case .codes:
                guard number.value <= 0x1f, let list = Self.list(&scanner), list.allSatisfy({ (0...0xffff).contains($0) })
                else { throw error(line, expected: "\"<type>: [<code>, ...]\" under \"codes:\"") }
                device.codes[UInt16(number.value), default: []].formUnion(list.map { UInt16($0) })
            case .absinfo:
                guard number.value <= 0x3f, let list = Self.list(&scanner), list.count == 5 else {
                    throw error(line, expected: "\"<code>: [<min>, <max>, <fuzz>, <flat>, <resolution>]\" under \"absinfo:\"")
                }
                device.absInfo[UInt16(number.value)] = AbsInfo(minimum: list[0], maximum: list[1], fuzz: list[2],
                                                        flat: list[3], resolution: list[4])
                absLines[UInt16(number.value)] = line.number
            default:
                break
            }
            return
        }
        scanner = start
        let key = Self.key(&scanner)
        switch key {
        case "name":
            section = .evdev
            scanner.skipBlanks()
            device.name = Self.scalar(scanner.rest)
        case "id":
            section = .evdev
            guard let list = Self.list(&scanner), list.count == 4, list.allSatisfy({ (0...0xffff).contains($0) }) else {
                throw error(line, expected: "\"id: [<bus>, <vendor>, <product>, <version>]\"")
            }
            device.id = list.map { UInt16($0) }
        case "codes":
            section = .codes
        case "absinfo":
            section = .absinfo
        case "properties":
            section = .evdev
            guard let list = Self.list(&scanner), list.allSatisfy({ (0...0xff).contains($0) }) else {
                throw error(line, expected: "\"properties: [<property>, ...]\"")
            }
            device.properties = Set(list.map { UInt16($0) })
        default:
            section = .evdev
        }
    }

    private func consumeEvents(_ scanner: inout ByteScanner, _ line: TextLine, indent: Int, isItem: Bool)
        throws(RecordingError) -> RawEvent? {
        guard isItem else { return nil }  // `time: …` and `hidraw0: […]` inside `- hid:` frames
        var item = scanner
        _ = item.skip(.minus)
        item.skipBlanks()
        if item.peek == .openBracket {
            guard frameIsEvdev, indent > frameIndent else { return nil }
            guard let event = Self.event(&item) else { throw error(line, expected: Self.eventSyntax) }
            return event
        }
        if frameIndent < 0 || indent <= frameIndent {
            // A new frame: `- evdev:`, or another kind (`- libinput:`, `- hid:`) to skip.
            frameIndent = indent
            frameIsEvdev = Self.key(&item) == "evdev" && item.isAtEndOrComment()
        }
        // Deeper items belong to a frame of another kind (`- {time: …, type: …}`).
        return nil
    }

    func finish(lastLine: Int) throws(RecordingError) -> [String] {
        guard version != nil else {
            throw RecordingError(file: file, line: 1, message: "expected \"version: 1\" at the top of a libinput record file")
        }
        guard deviceCount > 0 else {
            throw RecordingError(file: file, line: lastLine, message: "expected a \"devices:\" list with at least one \"- node:\" entry")
        }
        var warnings: [String] = []
        let recorded = max(deviceCount, declaredDevices ?? 0)
        if recorded > 1 {
            warnings.append("\(recorded) devices recorded; only the first (\(firstNode ?? "unnamed")) is read")
        }
        return warnings
    }

    func makeDescription() -> DeviceDescription? {
        guard sawEvdev else { return nil }
        return device.description(name: device.name ?? "", droppingEmptyCodeTypes: false)
    }

    // MARK: - Pieces of a line

    /// Reads `key:` and returns the key, leaving the scanner after the colon (empty when the
    /// line is not `key: …`).
    private static func key(_ scanner: inout ByteScanner) -> String {
        let start = scanner.index
        scanner.skip { $0 != .colon && !$0.isBlank }
        let key = scanner.bytes[start..<scanner.index]
        guard scanner.skip(.colon) else { return "" }
        scanner.skipBlanks()
        return String(decoding: key, as: UTF8.self)
    }

    /// `[a, b, c]` of decimal numbers, then the end of the line or a comment.
    private static func list(_ scanner: inout ByteScanner) -> [Int32]? {
        scanner.skipBlanks()
        guard scanner.skip(.openBracket) else { return nil }
        var values: [Int32] = []
        scanner.skipBlanks()
        if scanner.skip(.closeBracket) { return scanner.isAtEndOrComment() ? values : nil }
        while true {
            scanner.skipBlanks()
            guard let value = scanner.int32() else { return nil }
            values.append(value)
            scanner.skipBlanks()
            if scanner.skip(.closeBracket) { break }
            guard scanner.skip(.comma) else { return nil }
        }
        return scanner.isAtEndOrComment() ? values : nil
    }

    /// `[sec, usec, type, code, value]` (`print_evdev_event`: `- [%3lu, %6u, %3d, %3d, %7d]`).
    private static func event(_ scanner: inout ByteScanner) -> RawEvent? {
        guard let list = list(&scanner), list.count == 5,
              list[0] >= 0, (0..<1_000_000).contains(list[1]),
              (0...0xffff).contains(list[2]), (0...0xffff).contains(list[3])
        else { return nil }
        let time = Int64(list[0]) * 1_000_000 + Int64(list[1])
        return RawEvent(time: Timestamp(microseconds: time), type: UInt16(list[2]), code: UInt16(list[3]), value: list[4])
    }

    /// A YAML scalar as libinput writes it: `"quoted"` (the name, `print_bits_info`) or plain
    /// up to a comment (the man page's example).
    private static func scalar(_ bytes: ArraySlice<UInt8>) -> String {
        if bytes.first == .quote {
            var value: [UInt8] = []
            var index = bytes.startIndex + 1
            while index < bytes.endIndex, bytes[index] != .quote {
                if bytes[index] == UInt8(ascii: "\\"), index + 1 < bytes.endIndex { index += 1 }
                value.append(bytes[index])
                index += 1
            }
            return String(decoding: value, as: UTF8.self)
        }
        return String(decoding: withoutComment(bytes), as: UTF8.self)
    }

    /// The bytes before ` #`, without trailing blanks.
    private static func withoutComment(_ bytes: ArraySlice<UInt8>) -> ArraySlice<UInt8> {
        var end = bytes.endIndex
        var index = bytes.startIndex
        while index < bytes.endIndex {
            if bytes[index] == .hash, index == bytes.startIndex || bytes[index - 1].isBlank { end = index; break }
            index += 1
        }
        var result = bytes[bytes.startIndex..<end]
        while let last = result.last, last.isBlank { result = result.dropLast() }
        return result
    }
}
