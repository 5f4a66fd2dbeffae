import GestureCore

/// Reads `evtest` text output leniently: lines it cannot read are skipped and counted, and
/// the count becomes one warning. evtest output is usually copied from a terminal or a bug
/// report, so lines get wrapped, interleaved with shell noise or cut off.
///
/// The shapes come from evtest's `evtest.c` (`print_device_info`, `print_absdata`,
/// `print_events`):
///
///     Input driver version is 1.0.1
///     Input device ID: bus 0x3 vendor 0x56a product 0x5d version 0x5
///     Input device name: "Wacom DTH2242 Finger"
///     Supported events:
///       Event type 3 (EV_ABS)
///         Event code 53 (ABS_MT_POSITION_X)
///           Value      0
///           Min        0
///           Max     4648
///           Resolution 10        (Fuzz, Flat and Resolution only when non-zero)
///     Properties:
///       Property type 1 (INPUT_PROP_DIRECT)
///     Testing ... (interrupt to exit)
///     Event: time 1394201045.123456, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 250
///     Event: time 1394201045.123456, -------------- SYN_REPORT ------------
///
/// Two quirks: `MSC_SCAN` and `MSC_RAW` values are printed in hex (`value %02x`), and
/// `EV_SYN` lines print the code's name but no value (so a value of 1 is lost; read as 0).
final class EvtestParser: RecordingParser {
    private var sawEvents = false
    private var sawHeader = false
    private var device = DeviceDescriptionParts()
    private var currentType: UInt16?
    private var currentAbsCode: UInt16?
    /// Inside "Key repeat handling:", whose `Value` lines are EV_REP's delay and period.
    private var inRepeat = false
    private var absLines: [UInt16: Int] = [:]
    /// Damaged lines skipped: how many, and the first one's number.
    private var damagedCount = 0
    private var firstDamagedLine: Int?

    init() {}

    var format: RecordingFormat { .evtest }

    func declarationLine(ofAxis code: UInt16) -> Int? { absLines[code] }

    func consume(_ line: TextLine) -> RawEvent? {
        var scanner = ByteScanner(line)
        scanner.skipBlanks()
        if scanner.isAtEnd { return nil }
        if scanner.skip("Event: time") {
            sawEvents = true
            guard let event = Self.event(&scanner) else {
                damaged(line)
                return nil
            }
            return event
        }
        if sawEvents {
            // Once events flow, every line should be an event line.
            damaged(line)
            return nil
        }
        if !consumeHeader(&scanner, line), sawHeader {
            // Before the header anything goes (evtest's device list, the prompt, shell
            // noise); inside it, an unreadable line is damage.
            damaged(line)
        }
        return nil
    }

    private func damaged(_ line: TextLine) {
        damagedCount += 1
        if firstDamagedLine == nil { firstDamagedLine = line.number }
    }

    func finish(lastLine: Int) -> [String] {
        guard let first = firstDamagedLine else { return [] }
        return ["\(damagedCount) damaged line\(damagedCount == 1 ? "" : "s") skipped (first at line \(first))"]
    }

    /// Reads one header line; false when it is not one evtest writes.
    private func consumeHeader(_ scanner: inout ByteScanner, _ line: TextLine) -> Bool {
        if scanner.skip("Input driver version is") {
            sawHeader = true
            return true
        }
        if scanner.skip("Input device ID:") {
            sawHeader = true
            var fields: [UInt16] = []
            for label: StaticString in ["bus", "vendor", "product", "version"] {
                scanner.skipBlanks()
                guard scanner.skip(label), scanner.skipRequiredBlanks(), let value = scanner.prefixedHex(max: 0xffff)
                else { return false }
                fields.append(UInt16(value))
            }
            device.id = fields
            return true
        }
        if scanner.skip("Input device name:") {
            sawHeader = true
            scanner.skipBlanks()
            guard scanner.skip(.quote) else { return false }
            var value = scanner.rest
            guard value.last == .quote else { return false }
            value = value.dropLast()
            device.name = String(decoding: value, as: UTF8.self)
            return true
        }
        guard sawHeader else { return false }
        if scanner.skip("Supported events:") || scanner.skip("Properties:") || scanner.skip("Testing ...") {
            currentType = nil
            currentAbsCode = nil
            inRepeat = false
            return true
        }
        if scanner.skip("Key repeat handling:") || scanner.skip("Repeat type") || scanner.skip("Repeat code") {
            // EV_REP's delay and period: their `Value` lines must not land in an axis.
            currentType = nil
            currentAbsCode = nil
            inRepeat = true
            return true
        }
        if scanner.skip("Event type") {
            guard scanner.skipRequiredBlanks(), let (type, _) = scanner.unsignedDecimal(maxDigits: 2), type <= 0x1f else { return false }
            currentType = UInt16(type)
            currentAbsCode = nil
            return true
        }
        if scanner.skip("Event code") {  // `Event code 47 (ABS_MT_SLOT)`
            guard let type = currentType, scanner.skipRequiredBlanks(),
                  let (code, _) = scanner.unsignedDecimal(maxDigits: 5), code <= 0xffff
            else { return false }
            device.codes[type, default: []].insert(UInt16(code))
            if type == EventType.abs {
                currentAbsCode = UInt16(code)
                device.absInfo[UInt16(code)] = AbsInfo(minimum: 0, maximum: 0)
                absLines[UInt16(code)] = line.number
            } else {
                currentAbsCode = nil
            }
            return true
        }
        if scanner.skip("Property type") {
            guard scanner.skipRequiredBlanks(), let (property, _) = scanner.unsignedDecimal(maxDigits: 3), property <= 0xff
            else { return false }
            device.properties.insert(UInt16(property))
            return true
        }
        if scanner.bytes.allSatisfy({ $0 == UInt8(ascii: "*") || $0.isBlank }) {
            return true  // the banner around "This device is grabbed by another process."
        }
        return consumeAbsValue(&scanner, line)
    }

    /// `Value`, `Min`, `Max`, `Fuzz`, `Flat`, `Resolution` lines (`print_absdata`).
    private func consumeAbsValue(_ scanner: inout ByteScanner, _ line: TextLine) -> Bool {
        let fields: [(StaticString, WritableKeyPath<AbsInfo, Int32>?)] = [
            ("Value", nil), ("Min", \.minimum), ("Max", \.maximum), ("Fuzz", \.fuzz), ("Flat", \.flat),
            ("Resolution", \.resolution),
        ]
        for (label, keyPath) in fields where scanner.skip(label) {
            guard scanner.skipRequiredBlanks(), let value = scanner.int32(), scanner.isAtEndOrComment() else { return false }
            if let code = currentAbsCode, let keyPath {
                device.absInfo[code]?[keyPath: keyPath] = value
                // The range's end is what a message about the axis points at.
                if keyPath == \AbsInfo.maximum { absLines[code] = line.number }
            }
            return currentType != nil || inRepeat
        }
        return false
    }

    /// The rest of `Event: time <sec>.<usec>, …`.
    private static func event(_ scanner: inout ByteScanner) -> RawEvent? {
        guard scanner.skipRequiredBlanks(), let time = scanner.timestamp(), scanner.skip(.comma) else { return nil }
        scanner.skipBlanks()
        if scanner.skip("type") {
            guard scanner.skipRequiredBlanks(), let type = scanner.int32(), (0...0xffff).contains(type),
                  skipName(&scanner), scanner.skip(.comma), scanner.skipRequiredBlanks(),
                  scanner.skip("code"), scanner.skipRequiredBlanks(), let code = scanner.int32(), (0...0xffff).contains(code),
                  skipName(&scanner), scanner.skip(.comma), scanner.skipRequiredBlanks(),
                  scanner.skip("value"), scanner.skipRequiredBlanks()
            else { return nil }
            let value: Int32?
            // MSC_RAW (3) and MSC_SCAN (4) are printed with %02x.
            if type == Int32(EventType.msc) && (code == 3 || code == 4) {
                value = scanner.hex(max: 0xffff_ffff).map { Int32(bitPattern: UInt32($0)) }
            } else {
                value = scanner.int32()
            }
            guard let value, scanner.isAtEndOrComment() else { return nil }
            return RawEvent(time: Timestamp(microseconds: time), type: UInt16(type), code: UInt16(code), value: value)
        }
        // `-------------- SYN_REPORT ------------`, `++++++++++++++ SYN_MT_REPORT ++++++++++++`.
        scanner.skip { $0 == .minus || $0 == .plus || $0 == UInt8(ascii: ">") || $0.isBlank }
        let synName = scanner.token()
        scanner.skip { $0 == .minus || $0 == .plus || $0 == UInt8(ascii: "<") || $0.isBlank }
        guard scanner.isAtEnd else { return nil }
        let code: UInt16
        switch String(decoding: synName, as: UTF8.self) {
        case "SYN_REPORT": code = SynCode.report
        case "SYN_CONFIG": code = SynCode.config
        case "SYN_MT_REPORT": code = SynCode.mtReport
        case "SYN_DROPPED": code = SynCode.dropped
        default: return nil
        }
        return RawEvent(time: Timestamp(microseconds: time), type: EventType.syn, code: code, value: 0)
    }

    /// Skips ` (NAME)`; evtest prints `?` for names it does not know.
    private static func skipName(_ scanner: inout ByteScanner) -> Bool {
        guard scanner.skipRequiredBlanks(), scanner.skip(.openParen) else { return false }
        scanner.skip { $0 != .closeParen }
        return scanner.skip(.closeParen)
    }

    func makeDescription() -> DeviceDescription? {
        guard sawHeader, let name = device.name else { return nil }
        return device.description(name: name, droppingEmptyCodeTypes: true)
    }
}
