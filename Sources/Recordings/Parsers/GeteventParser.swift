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
struct GeteventParser {
    struct Result {
        var events: [RawEvent]
        var warnings: [String]
    }

    static let eventSyntax = "\"[<sec>.<usec>] <type> <code> <value>\" (hex, from getevent -t)"

    static func parse(_ source: RecordingSource) throws(RecordingError) -> Result {
        var events: [RawEvent] = []
        events.reserveCapacity(4096)
        var firstDevice: ArraySlice<UInt8>?
        var otherDevices: [ArraySlice<UInt8>] = []
        var skipped = 0
        for line in TextLine.split(source.bytes) {
            var scanner = ByteScanner(line)
            if line.isBlank { continue }
            if line.hasPrefix("add device ") || line.hasPrefix("remove device ") || line.bytes.first?.isBlank == true
                && !scanner.startsWithTimestamp() {
                // Device announcements and their indented `name:`/`bus:` details.
                continue
            }
            scanner.skipBlanks()
            guard scanner.skip(.openBracket) else {
                throw RecordingError(file: source.name, line: line.number,
                                     message: "expected \(eventSyntax), found \(line.quoted)")
            }
            scanner.skipBlanks()
            guard let time = scanner.timestamp(), scanner.skip(.closeBracket), scanner.skipRequiredBlanks() else {
                throw RecordingError(file: source.name, line: line.number,
                                     message: "expected \(eventSyntax), found \(line.quoted)")
            }
            var device: ArraySlice<UInt8>?
            if scanner.peek == UInt8(ascii: "/") {
                let token = scanner.token()
                guard token.last == .colon, scanner.skipRequiredBlanks() else {
                    throw RecordingError(file: source.name, line: line.number,
                                         message: "expected \(eventSyntax), found \(line.quoted)")
                }
                device = token.dropLast()
            }
            guard let type = scanner.hex(max: 0xffff), scanner.skipRequiredBlanks(),
                  let code = scanner.hex(max: 0xffff), scanner.skipRequiredBlanks(),
                  let value = scanner.hex(max: 0xffff_ffff)
            else {
                throw RecordingError(file: source.name, line: line.number,
                                     message: "expected \(eventSyntax), found \(line.quoted)")
            }
            scanner.skipBlanks()
            // `-r` appends ` rate <n>` to SYN_REPORT lines.
            if scanner.skip("rate") { scanner.skipBlanks(); _ = scanner.unsignedDecimal(maxDigits: 18) }
            guard scanner.isAtEnd else {
                throw RecordingError(file: source.name, line: line.number,
                                     message: "expected \(eventSyntax), found \(line.quoted)")
            }
            if let device {
                if firstDevice == nil { firstDevice = device }
                if device != firstDevice {
                    if !otherDevices.contains(device) { otherDevices.append(device) }
                    skipped += 1
                    continue
                }
            }
            events.append(RawEvent(time: Timestamp(microseconds: time), type: UInt16(type), code: UInt16(code),
                                   value: Int32(bitPattern: UInt32(value))))
        }
        var warnings: [String] = []
        if let firstDevice, !otherDevices.isEmpty {
            let others = otherDevices.map { String(decoding: $0, as: UTF8.self) }.joined(separator: ", ")
            warnings.append("events of \(String(decoding: firstDevice, as: UTF8.self)) kept; \(skipped) events of \(others) skipped")
        }
        return Result(events: events, warnings: warnings)
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
