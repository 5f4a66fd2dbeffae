import GestureCore

/// Reads evemu text, format versions 1.0 to 1.3, as `evemu-record` and `evemu-describe` write
/// it (`src/evemu.c`: `evemu_write`, `evemu_write_event`) and as it is found in the wild:
///
/// - `# EVEMU 1.x` may be missing (legacy files, e.g. `quanta-optical.desc`): version 1.0.
/// - `A:` lines have 5 or 6 fields whatever the version line says (`wacom-dth2242-finger`
///   says 1.1 and has 5; minima may be negative, `tp-bcm5974`'s `A: 35 -4620 5140 …`).
/// - `B: 00 …` is unreliable (old writers put the event-type mask there), so it is ignored.
/// - `E:` values are decimal even when zero-padded (`%04d`: `0035` is 35, `-001` is -1) and
///   may be followed by a tab and a `# comment`.
/// - A description file and an events-only file may be separate (`nexus4-touch_dev.desc` +
///   `.events`); events may use codes the description never declared.
/// - The description comes before the events, as evemu writes it; a description line after an
///   `E:` line is an error, since a replay streams the events once the description is read.
final class EvemuParser: RecordingParser {
    static let eventSyntax = "\"E: <sec>.<usec> <type> <code> <value>\""
    static let nameSyntax = "\"N: <device name>\""
    static let idSyntax = "\"I: <bus> <vendor> <product> <version>\" (hex)"
    static let propertySyntax = "\"P: <8 hex bytes>\""
    static let maskSyntax = "\"B: <type> <8 hex bytes>\""
    static let absSyntax = "\"A: <code> <min> <max> <fuzz> <flat> [<resolution>]\""
    static let stateSyntax = "\"L: <code> <state>\" or \"S: <code> <state>\""
    static let anyLine = "a line starting with \"N:\", \"I:\", \"P:\", \"B:\", \"A:\", \"E:\" or \"#\""

    /// The most mask bytes one event type (`B:`) or the properties (`P:`) may have: 8,192
    /// bytes, 1,024 lines, one bit for each of the 65,536 codes an event can carry. evemu
    /// writes at most 12 lines (`KEY_MAX` is 0x2ff); beyond this a bit's code would not fit in
    /// an event (issue 12: the 1,025th `B: 01` line trapped converting the bit to a code).
    static let maximumMaskBytes = 8192

    /// The version in a `# EVEMU <major>.<minor>` line, or nil for any other comment.
    static func version(in line: TextLine) -> EvemuVersion? {
        var scanner = ByteScanner(line)
        guard scanner.skip("#") else { return nil }
        scanner.skipBlanks()
        guard scanner.skip("EVEMU"), scanner.skipRequiredBlanks(),
              let (major, _) = scanner.unsignedDecimal(maxDigits: 4), scanner.skip(.period),
              let (minor, _) = scanner.unsignedDecimal(maxDigits: 4)
        else { return nil }
        return EvemuVersion(Int(major), Int(minor))
    }

    private let file: String
    private(set) var declaredEvemuVersion: EvemuVersion?
    private var sawData = false
    /// An `E:` line was read: the description is complete, and a description line now is an error.
    private var sawEvent = false
    private var name: String?
    private var id: (bus: UInt16, vendor: UInt16, product: UInt16, version: UInt16) = (0, 0, 0, 0)
    private var propertyBytes: [UInt8] = []
    /// Mask bytes per event type, in file order (evemu appends 8 bytes per `B:` line).
    private var maskBytes: [[UInt8]] = Array(repeating: [], count: 32)
    private var absInfo: [UInt16: AbsInfo] = [:]
    private var absLines: [UInt16: Int] = [:]

    init(file: String) {
        self.file = file
    }

    var format: RecordingFormat { .evemu(declaredEvemuVersion ?? .legacy) }

    func declarationLine(ofAxis code: UInt16) -> Int? { absLines[code] }

    func finish(lastLine: Int) throws(RecordingError) -> [String] { [] }

    private func error(_ line: TextLine, expected: String) -> RecordingError {
        RecordingError(file: file, line: line.number, message: "expected \(expected), found \(line.quoted)")
    }

    func consume(_ line: TextLine) throws(RecordingError) -> RawEvent? {
        guard let first = line.bytes.first else { return nil }
        if first == UInt8(ascii: "E"), let event = Self.canonicalEvent(line.bytes) {
            sawData = true
            sawEvent = true
            return event
        }
        if first == .hash {
            // evemu's own reader only looks at the first line; accept the version line anywhere
            // before the data so a leading blank line does not lose it.
            if !sawData, declaredEvemuVersion == nil, let version = Self.version(in: line) {
                declaredEvemuVersion = version
            }
            return nil
        }
        if line.isBlank { return nil }
        guard line.bytes.count >= 2, line.bytes[line.bytes.startIndex + 1] == .colon else {
            throw error(line, expected: Self.anyLine)
        }
        sawData = true
        var scanner = ByteScanner(line)
        _ = scanner.skip(first)
        _ = scanner.skip(.colon)
        if first == UInt8(ascii: "E") {
            sawEvent = true
            return try parseEvent(&scanner, line)
        }
        if sawEvent {
            // The description is what the lines before the first event say (evemu writes it
            // first, and a replay streams the events after it).
            throw RecordingError(file: file, line: line.number,
                                 message: "expected \(Self.eventSyntax) (the device description comes before the events), "
                                     + "found \(line.quoted)")
        }
        switch first {
        case UInt8(ascii: "N"): try parseName(&scanner, line)
        case UInt8(ascii: "I"): try parseID(&scanner, line)
        case UInt8(ascii: "P"): try parseProperties(&scanner, line)
        case UInt8(ascii: "B"): try parseMask(&scanner, line)
        case UInt8(ascii: "A"): try parseAbs(&scanner, line)
        case UInt8(ascii: "L"), UInt8(ascii: "S"): try parseState(&scanner, line)
        default: throw error(line, expected: Self.anyLine)
        }
        return nil
    }

    /// The event of a line as evemu writes it — `E: <sec>.<usec> <type> <code> <value>`, one
    /// space between fields, `type` and `code` of one to four hex digits — read through a
    /// pointer in one pass: the lines of a recording are almost all of this form, and the
    /// general scanner's checks cost more than the rest of a replay's input. Anything else
    /// (tabs, more spaces, a comment, longer numbers, a malformed line) returns nil and goes
    /// through ``parseEvent(_:_:)``, which accepts every line this does with the same event.
    static func canonicalEvent(_ bytes: ArraySlice<UInt8>) -> RawEvent? {
        bytes.withUnsafeBufferPointer { line -> RawEvent? in
            guard line.count >= 12, let base = line.baseAddress, base[1] == .colon, base[2] == .space else { return nil }
            var cursor = base + 3
            let end = base + line.count
            guard let (seconds, secondDigits) = decimal(&cursor, end), secondDigits <= 12,
                  cursor < end, cursor.pointee == .period else { return nil }
            cursor += 1
            guard let (micros, microDigits) = decimal(&cursor, end), microDigits <= 6, space(&cursor, end),
                  let type = hex(&cursor, end), space(&cursor, end), let code = hex(&cursor, end), space(&cursor, end)
            else { return nil }
            let negative = cursor < end && cursor.pointee == .minus
            if negative { cursor += 1 }
            guard let (magnitude, valueDigits) = decimal(&cursor, end), valueDigits <= 10, cursor == end,
                  let value = Int32(exactly: negative ? -magnitude : magnitude) else { return nil }
            return RawEvent(time: Timestamp(microseconds: seconds * 1_000_000 + micros), type: type, code: code, value: value)
        }
    }

    /// The longest line ``canonicalEvent(at:memo:)`` accepts, up to and with its `\n`: `E: `,
    /// 12 + 1 + 6 digits of time, three spaces, two 4-digit codes, a sign, 10 digits, `\r\n`.
    static let longestCanonicalLine = 46

    /// ``canonicalEvent(_:)`` for a line still in the reader's buffer, followed by its line
    /// break: the event, and the offset of the `\n` that ends the line (after a `\r` for CRLF);
    /// nil for every line ``canonicalEvent(_:)`` refuses (then ``consume(_:)`` reads it as
    /// before). The replay's own loop: it skips the line splitting, the slice and the protocol
    /// call, reads evemu's fixed-width fields (`%06lu %04x %04x`) a word at a time, and takes
    /// the time from `memo` when the line starts with the same bytes as the last one (the
    /// events of a frame share their time), so a line costs a seventh of what the general
    /// path does (docs/performance.md, "Measured reasons behind the code's shape").
    ///
    /// `line` must be followed by ``LineReader/lookahead`` readable bytes, whatever they are:
    /// whole words are loaded, so bytes past the line's end may be looked at, but an event is
    /// only returned when every byte up to the `\n` is as required, and the caller checks that
    /// the `\n` is among the bytes actually read.
    @inline(__always)
    static func canonicalEvent(at line: UnsafePointer<UInt8>, memo: inout CanonicalEventMemo) -> (event: RawEvent, newline: Int)? {
        var cursor: UnsafePointer<UInt8>
        let time: Int64
        if let (remembered, length) = memo.time(of: line) {
            time = remembered
            cursor = line + length
        } else {
            guard let (parsed, length) = canonicalTime(line) else { return nil }
            memo.remember(time: parsed, of: line, length: length)
            time = parsed
            cursor = line + length
        }
        let type: UInt16, code: UInt16
        let codes = UInt64(loadHalfWord(cursor)) | UInt64(loadHalfWord(cursor + 5)) << 32
        if cursor[4] == .space, cursor[9] == .space, let (first, second) = memo.codes(codes) {
            type = first
            code = second
            cursor += 10
        } else {
            // The line and its lookahead are readable, and `hex` stops within five bytes.
            let end = line + LineReader.lookahead
            guard let first = hex(&cursor, end), cursor.pointee == .space else { return nil }
            cursor += 1
            guard let second = hex(&cursor, end), cursor.pointee == .space else { return nil }
            cursor += 1
            type = first
            code = second
        }
        let negative = cursor.pointee == .minus
        if negative { cursor += 1 }
        guard let magnitude = boundedDecimal(&cursor, maxDigits: 10),
              magnitude <= (negative ? 0x8000_0000 : 0x7FFF_FFFF) else { return nil }
        var newline = line.distance(to: cursor)
        if cursor.pointee == .carriageReturn { newline &+= 1 }
        guard line[newline] == .newline else { return nil }
        let value = Int32(truncatingIfNeeded: negative ? -magnitude : magnitude)
        return (RawEvent(time: Timestamp(microseconds: time), type: type, code: code, value: value), newline)
    }

    /// The time of a line starting `E: <sec>.<usec> ` as ``canonicalEvent(_:)`` reads it, in
    /// microseconds, and the offset of the byte after that space; nil for anything else.
    @inline(__always)
    private static func canonicalTime(_ line: UnsafePointer<UInt8>) -> (Int64, Int)? {
        guard line[0] == UInt8(ascii: "E"), line[1] == .colon, line[2] == .space else { return nil }
        var cursor = line + 3
        guard let seconds = boundedDecimal(&cursor, maxDigits: 12), cursor.pointee == .period else { return nil }
        // `.` six digits ` `, as one word: XOR with the template leaves 0 in the period and
        // space lanes and the digit (0...9) in the others, and nothing else does.
        let fraction = loadWord(cursor) ^ 0x2030_3030_3030_302E
        let micros: Int64
        if ((fraction &+ 0x7F76_7676_7676_767F) | fraction) & highBits == 0 {
            micros = Int64(eightDigitValue(fraction &<< 8))
            cursor += 8
        } else {
            cursor += 1
            guard let value = boundedDecimal(&cursor, maxDigits: 6), cursor.pointee == .space else { return nil }
            micros = value
            cursor += 1
        }
        return (seconds &* 1_000_000 &+ micros, line.distance(to: cursor))
    }

    /// What ``canonicalEvent(at:memo:)`` read before, so it need not read it again: each is
    /// read from a few bytes alone, so the same bytes give the same answer.
    ///
    /// - The time of the last line whose time it read: a line that starts with the same bytes,
    ///   up to and with the space after the time (at most 24: `E: `, 12 + 1 + 6 digits and a
    ///   space), has the same time.
    /// - The type and code of the last pairs of four hex digits it read, 64 of them, each in
    ///   the slot its text hashes to: a device sends a few kinds of events, over and over.
    struct CanonicalEventMemo {
        /// The time's bytes, as three little-endian words, zero past its space; the first is
        /// whole (shorter times, such as `E: 1.5 `, are not remembered).
        private var words: (UInt64, UInt64, UInt64) = (0, 0, 0)
        /// All ones over the remembered bytes of the second and third words, zero past them.
        private var masks: (UInt64, UInt64) = (0, 0)
        private var length = 0
        private var time: Int64 = 0
        /// 64 slots, each the text of a type and a code, four hex digits each (the first digit
        /// in the low byte), and their values (the type in the low half). At first, all slots
        /// say that `0000 0000` is type 0 and code 0, which is true. A tuple read through a
        /// pointer, not an `InlineArray`: the package builds with Swift 6.1.
        private var codeSlots: Eight<Eight<(text: UInt64, values: UInt64)>>
        private typealias Eight<Element> = (Element, Element, Element, Element, Element, Element, Element, Element)

        /// Remembers that `E: 0.000000 ` is time 0, which is true: a memory that matched
        /// nothing could not be told from one that matches a line of zero bytes.
        init() {
            let slot = (text: UInt64(0x3030_3030_3030_3030), values: UInt64(0))
            let eight = (slot, slot, slot, slot, slot, slot, slot, slot)
            codeSlots = (eight, eight, eight, eight, eight, eight, eight, eight)
            let time: StaticString = "E: 0.000000 \0\0\0\0\0\0\0\0\0\0\0\0"
            remember(time: 0, of: time.utf8Start, length: 12)
        }

        /// The type and code `text` spells (see ``fourHexDigitPairs(_:)``), remembered.
        @inline(__always)
        mutating func codes(_ text: UInt64) -> (UInt16, UInt16)? {
            // Fibonacci hashing: the top 6 bits of the product depend on every byte.
            let offset = Int(truncatingIfNeeded: (text &* 0x9E37_79B9_7F4A_7C15) &>> 58) &* 16
            return withUnsafeMutableBytes(of: &codeSlots) { slots -> (UInt16, UInt16)? in
                if slots.load(fromByteOffset: offset, as: UInt64.self) == text {
                    let values = slots.load(fromByteOffset: offset &+ 8, as: UInt64.self)
                    return (UInt16(truncatingIfNeeded: values), UInt16(truncatingIfNeeded: values &>> 16))
                }
                guard let (type, code) = fourHexDigitPairs(text) else { return nil }
                slots.storeBytes(of: text, toByteOffset: offset, as: UInt64.self)
                slots.storeBytes(of: UInt64(type) | UInt64(code) &<< 16, toByteOffset: offset &+ 8, as: UInt64.self)
                return (type, code)
            }
        }

        @inline(__always)
        func time(of line: UnsafePointer<UInt8>) -> (Int64, Int)? {
            let difference = (loadWord(line) ^ words.0) | (loadWord(line + 8) & masks.0 ^ words.1)
                | (loadWord(line + 16) & masks.1 ^ words.2)
            return difference == 0 ? (time, length) : nil
        }

        @inline(__always)
        mutating func remember(time: Int64, of line: UnsafePointer<UInt8>, length: Int) {
            guard length >= 8 else { return }
            masks = (Self.mask(length - 8), Self.mask(length - 16))
            words = (loadWord(line), loadWord(line + 8) & masks.0, loadWord(line + 16) & masks.1)
            self.length = length
            self.time = time
        }

        /// All ones over the first `count` bytes of a word (none for 0 or less, all for 8 or more).
        @inline(__always)
        private static func mask(_ count: Int) -> UInt64 {
            count >= 8 ? ~0 : count <= 0 ? 0 : (1 &<< UInt64(count &* 8)) &- 1
        }
    }

    private static let highBits: UInt64 = 0x8080_8080_8080_8080

    @inline(__always)
    fileprivate static func loadWord(_ bytes: UnsafePointer<UInt8>) -> UInt64 {
        UInt64(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt64.self))
    }

    @inline(__always)
    private static func loadHalfWord(_ bytes: UnsafePointer<UInt8>) -> UInt32 {
        UInt32(littleEndian: UnsafeRawPointer(bytes).loadUnaligned(as: UInt32.self))
    }

    /// The number written by eight digit values (0...9), one a byte, the first in the low
    /// byte: pairs, then fours, then all eight are combined, three multiplications in all.
    @inline(__always)
    private static func eightDigitValue(_ digits: UInt64) -> UInt64 {
        let pairs = (digits &* 10 &+ (digits &>> 8)) & 0x00FF_00FF_00FF_00FF
        let fours = (pairs &* 100 &+ (pairs &>> 16)) & 0x0000_FFFF_0000_FFFF
        return (fours &* 10000 &+ (fours &>> 32)) & 0xFFFF_FFFF
    }

    /// Two codes of exactly four hex digits, one a byte (the first code in the low half, its
    /// first digit in the low byte), or nil if any byte is not a hex digit.
    @inline(__always)
    fileprivate static func fourHexDigitPairs(_ text: UInt64) -> (UInt16, UInt16)? {
        // Every lane gets its high bit set, so the subtractions borrow within no lane; a
        // lane's high bit then says whether the byte is at least the constant.
        let lanes = text | highBits
        let digit = (lanes &- 0x3030_3030_3030_3030) & ~(lanes &- 0x3A3A_3A3A_3A3A_3A3A)
        let folded = lanes | 0x2020_2020_2020_2020
        let letter = (folded &- 0x6161_6161_6161_6161) & ~(folded &- 0x6767_6767_6767_6767)
        guard (digit | letter) & ~text & highBits == highBits else { return nil }
        // A digit's value is its low 4 bits; a letter's (bit 6 set) that plus 9.
        let nibbles = (text & 0x0F0F_0F0F_0F0F_0F0F) &+ ((text &>> 6) & 0x0101_0101_0101_0101) &* 9
        let bytes = ((nibbles &<< 4) | (nibbles &>> 8)) & 0x00FF_00FF_00FF_00FF
        let codes = ((bytes &<< 8) | (bytes &>> 16)) & 0x0000_FFFF_0000_FFFF
        return (UInt16(truncatingIfNeeded: codes), UInt16(truncatingIfNeeded: codes &>> 32))
    }

    /// One to `maxDigits` decimal digits at `cursor`, moving past them; nil for none or more
    /// (having read at most one digit too many).
    @inline(__always)
    private static func boundedDecimal(_ cursor: inout UnsafePointer<UInt8>, maxDigits: Int) -> Int64? {
        var value: Int64 = 0
        var digits = 0
        while true {
            let digit = cursor.pointee &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            guard digits < maxDigits else { return nil }
            value = value &* 10 &+ Int64(digit)
            digits += 1
            cursor += 1
        }
        return digits == 0 ? nil : value
    }

    /// Decimal digits at `cursor` and how many there were (nil for none); a run of more than
    /// 18 is reported as 19 digits (its value is then meaningless, and the caller refuses it).
    @inline(__always)
    private static func decimal(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> (Int64, Int)? {
        var value: Int64 = 0
        var digits = 0
        while cursor < end {
            let digit = cursor.pointee &- UInt8(ascii: "0")
            guard digit < 10 else { break }
            if digits < 19 { value = value &* 10 &+ Int64(digit); digits += 1 }
            cursor += 1
        }
        return digits == 0 ? nil : (value, digits)
    }

    /// One to four hex digits at `cursor`, before `end`, moving past them (nil for none or more).
    @inline(__always)
    private static func hex(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> UInt16? {
        var value: UInt16 = 0
        var digits = 0
        while cursor < end, let digit = cursor.pointee.hexValue {
            guard digits < 4 else { return nil }
            value = value &* 16 &+ UInt16(digit)
            digits += 1
            cursor += 1
        }
        return digits == 0 ? nil : value
    }

    @inline(__always)
    private static func space(_ cursor: inout UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>) -> Bool {
        guard cursor < end, cursor.pointee == .space else { return false }
        cursor += 1
        return true
    }

    private func parseEvent(_ scanner: inout ByteScanner, _ line: TextLine) throws(RecordingError) -> RawEvent {
        guard scanner.skipRequiredBlanks(), let time = scanner.timestamp(),
              scanner.skipRequiredBlanks(), let type = scanner.hex(max: 0xffff),
              scanner.skipRequiredBlanks(), let code = scanner.hex(max: 0xffff),
              scanner.skipRequiredBlanks(), let value = scanner.int32(),
              scanner.isAtEndOrComment()
        else { throw error(line, expected: Self.eventSyntax) }
        return RawEvent(time: Timestamp(microseconds: time), type: UInt16(type), code: UInt16(code), value: value)
    }

    private func parseName(_ scanner: inout ByteScanner, _ line: TextLine) throws(RecordingError) {
        // evemu reads the name as the whole rest of the line (`N: %m[^\n\r]`), so a `#` in a
        // name is part of it.
        scanner.skipBlanks()
        var rest = scanner.rest
        while let last = rest.last, last.isBlank { rest = rest.dropLast() }
        guard !rest.isEmpty else { throw error(line, expected: Self.nameSyntax) }
        guard name == nil else {
            throw RecordingError(file: file, line: line.number,
                                 message: "expected one device description, found a second \"N:\" line \(line.quoted)")
        }
        name = String(decoding: rest, as: UTF8.self)
    }

    private func requireName(_ line: TextLine) throws(RecordingError) {
        // evemu requires the name first (`evemu_read`: N, I, P, B, A in that order).
        guard name != nil else {
            throw RecordingError(file: file, line: line.number,
                                 message: "expected \(Self.nameSyntax) before the rest of the device description, found \(line.quoted)")
        }
    }

    private func parseID(_ scanner: inout ByteScanner, _ line: TextLine) throws(RecordingError) {
        try requireName(line)
        var fields: [UInt16] = []
        for _ in 0..<4 {
            guard scanner.skipRequiredBlanks(), let value = scanner.hex(max: 0xffff) else {
                throw error(line, expected: Self.idSyntax)
            }
            fields.append(UInt16(value))
        }
        guard scanner.isAtEndOrComment() else { throw error(line, expected: Self.idSyntax) }
        id = (fields[0], fields[1], fields[2], fields[3])
    }

    private func eightBytes(_ scanner: inout ByteScanner) -> [UInt8]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(8)
        for _ in 0..<8 {
            guard scanner.skipRequiredBlanks(), let value = scanner.hex(max: 0xff) else { return nil }
            bytes.append(UInt8(value))
        }
        guard scanner.isAtEndOrComment() else { return nil }
        return bytes
    }

    private func parseProperties(_ scanner: inout ByteScanner, _ line: TextLine) throws(RecordingError) {
        try requireName(line)
        guard let bytes = eightBytes(&scanner) else { throw error(line, expected: Self.propertySyntax) }
        guard propertyBytes.count < Self.maximumMaskBytes else { throw tooManyMaskLines(line, kind: "\"P:\"") }
        propertyBytes += bytes
    }

    private func parseMask(_ scanner: inout ByteScanner, _ line: TextLine) throws(RecordingError) {
        try requireName(line)
        guard scanner.skipRequiredBlanks(), let type = scanner.hex(max: 0x1f),
              let bytes = eightBytes(&scanner)
        else { throw error(line, expected: Self.maskSyntax) }
        guard maskBytes[Int(type)].count < Self.maximumMaskBytes else {
            let hex = String(type, radix: 16)
            throw tooManyMaskLines(line, kind: "\"B: \(hex.count == 1 ? "0" + hex : hex)\"")
        }
        maskBytes[Int(type)] += bytes
    }

    private func tooManyMaskLines(_ line: TextLine, kind: String) -> RecordingError {
        RecordingError(file: file, line: line.number,
                       message: "expected at most \(Self.maximumMaskBytes / 8) \(kind) lines (one bit for each of the "
                           + "65536 codes an event can carry), found one more: \(line.quoted)")
    }

    private func parseAbs(_ scanner: inout ByteScanner, _ line: TextLine) throws(RecordingError) {
        try requireName(line)
        guard scanner.skipRequiredBlanks(), let code = scanner.hex(max: 0x3f) else {
            throw error(line, expected: Self.absSyntax)
        }
        var fields: [Int32] = []
        while true {
            let separated = scanner.skipRequiredBlanks()
            if scanner.isAtEnd || scanner.peek == .hash { break }
            guard separated, fields.count < 5, let value = scanner.int32() else {
                throw error(line, expected: Self.absSyntax)
            }
            fields.append(value)
        }
        // 5 fields before evemu 1.2 (no resolution), 6 after; real files do not always match
        // their version line, so the field count decides.
        guard fields.count >= 4 else { throw error(line, expected: Self.absSyntax) }
        absInfo[UInt16(code)] = AbsInfo(minimum: fields[0], maximum: fields[1], fuzz: fields[2], flat: fields[3],
                                        resolution: fields.count == 5 ? fields[4] : 0)
        absLines[UInt16(code)] = line.number
    }

    private func parseState(_ scanner: inout ByteScanner, _ line: TextLine) throws(RecordingError) {
        // LED and switch states (evemu 2.x): checked, but not needed to replay touches.
        try requireName(line)
        guard scanner.skipRequiredBlanks(), scanner.hex(max: 0xffff) != nil,
              scanner.skipRequiredBlanks(), scanner.int32() != nil, scanner.isAtEndOrComment()
        else { throw error(line, expected: Self.stateSyntax) }
    }

    func makeDescription() -> DeviceDescription? {
        guard let name else { return nil }
        var properties: Set<UInt16> = []
        for (byteIndex, byte) in propertyBytes.enumerated() where byte != 0 {
            for bit in 0..<8 where byte & (1 << bit) != 0 {
                properties.insert(UInt16(byteIndex * 8 + bit))
            }
        }
        var codes: [UInt16: Set<UInt16>] = [:]
        // Type 0 is skipped: see the type comment.
        for type in 1..<maskBytes.count {
            var set: Set<UInt16> = []
            for (byteIndex, byte) in maskBytes[type].enumerated() where byte != 0 {
                for bit in 0..<8 where byte & (1 << bit) != 0 {
                    set.insert(UInt16(byteIndex * 8 + bit))
                }
            }
            if !set.isEmpty { codes[UInt16(type)] = set }
        }
        return DeviceDescription(name: name, bus: id.bus, vendor: id.vendor, product: id.product, version: id.version,
                                 codes: codes, absInfo: absInfo, properties: properties)
    }
}
