/// A minimal JSON text builder over a byte buffer: no Foundation, no intermediate strings,
/// keys in the order written (docs/events.md shows each event's fields in a fixed order; tests pin whole
/// lines).
///
/// It is on the replay's hot path (a 10-finger recording writes a megabyte of JSON), so every
/// primitive reserves room once and writes through a pointer: per-byte `Array.append` paid a
/// uniqueness and capacity check for every character.
public struct JSONWriter {
    /// Written bytes are `storage[0 ..< length]`; the rest is room already allocated.
    private var storage: [UInt8] = []
    private var length = 0
    private var needsComma = false

    public init() {}

    /// The text written since the last ``reset()``.
    public var bytes: [UInt8] { Array(storage[..<length]) }

    /// Bytes written since the last ``reset()``.
    public var count: Int { length }

    /// Appends the text written since the last ``reset()`` to `output`.
    public func append(to output: inout [UInt8]) {
        storage.withUnsafeBufferPointer { output.append(contentsOf: UnsafeBufferPointer(rebasing: $0[..<length])) }
    }

    public mutating func reset() {
        length = 0
        needsComma = false
    }

    /// Inserts `member` into the line that starts at `lineStart`, right after the number that
    /// follows its first `,"time":` (a daemon of several screens: the `screen` member of a line
    /// written whole through a ``Cursor``). Does nothing to a line without one. Costs a search
    /// of the line's first bytes and a move of the rest: paid only by lines that carry a member.
    public mutating func insert(_ member: UnsafeRawBufferPointer, afterTimeOfLineAt lineStart: Int) {
        let marker: StaticString = #","time":"#
        let markerLength = marker.utf8CodeUnitCount
        var at = -1
        storage.withUnsafeBufferPointer { buffer in
            let text = UnsafeBufferPointer(start: marker.utf8Start, count: markerLength)
            var index = lineStart
            while index + markerLength <= length {
                if UnsafeBufferPointer(rebasing: buffer[index..<index + markerLength]).elementsEqual(text) {
                    index += markerLength
                    while index < length, buffer[index] == UInt8(ascii: "-") || (buffer[index] >= 0x30 && buffer[index] <= 0x39) {
                        index += 1
                    }
                    at = index
                    return
                }
                if buffer[index] == 0x0A { return }
                index += 1
            }
        }
        guard at >= 0, member.count > 0 else { return }
        if storage.count < length + member.count { storage.append(contentsOf: repeatElement(0, count: length + member.count - storage.count)) }
        storage.withUnsafeMutableBufferPointer { buffer in
            let base = buffer.baseAddress!
            // copyMemory moves overlapping regions as memmove does.
            UnsafeMutableRawPointer(base + at + member.count).copyMemory(from: base + at, byteCount: length - at)
            UnsafeMutableRawPointer(base + at).copyMemory(from: member.baseAddress!, byteCount: member.count)
        }
        length += member.count
    }

    public mutating func beginObject() { punctuation(UInt8(ascii: "{"), separated: true); needsComma = false }
    public mutating func endObject() { punctuation(UInt8(ascii: "}"), separated: false); needsComma = true }
    public mutating func beginArray() { punctuation(UInt8(ascii: "["), separated: true); needsComma = false }
    public mutating func endArray() { punctuation(UInt8(ascii: "]"), separated: false); needsComma = true }

    public mutating func newline() {
        punctuation(0x0A, separated: false)
        needsComma = false
    }

    /// `"name":`, after a comma if a value came before.
    public mutating func key(_ name: StaticString) {
        quoted(name, thenColon: true)
        needsComma = false
    }

    public mutating func string(_ value: String) {
        var value = value
        value.makeContiguousUTF8()
        value.utf8.withContiguousStorageIfAvailable { text in
            // Worst case: every byte a six-byte \u00XX escape.
            write(atMost: text.count * 6 + 2) { out in Self.quote(text, at: out) }
        }
        needsComma = true
    }

    /// `value` as a JSON string, quoted and escaped, for fragments encoded once and copied
    /// many times (a layout's view ids).
    public static func quoted(_ value: String) -> [UInt8] {
        var value = value
        value.makeContiguousUTF8()
        return value.utf8.withContiguousStorageIfAvailable { text in
            [UInt8](unsafeUninitializedCapacity: text.count * 6 + 2) { buffer, count in
                count = quote(text, at: buffer.baseAddress!)
            }
        } ?? []
    }

    /// Writes `text` quoted and escaped at `out` (room for `text.count * 6 + 2` bytes); returns
    /// how many bytes it wrote.
    fileprivate static func quote(_ text: UnsafeBufferPointer<UInt8>, at out: UnsafeMutablePointer<UInt8>) -> Int {
        out[0] = UInt8(ascii: "\"")
        var count = 1
        for byte in text {
            switch byte {
            case UInt8(ascii: "\""), UInt8(ascii: "\\"):
                out[count] = UInt8(ascii: "\\"); out[count + 1] = byte; count += 2
            case 0x0A:
                out[count] = UInt8(ascii: "\\"); out[count + 1] = UInt8(ascii: "n"); count += 2
            case 0x0D:
                out[count] = UInt8(ascii: "\\"); out[count + 1] = UInt8(ascii: "r"); count += 2
            case 0x09:
                out[count] = UInt8(ascii: "\\"); out[count + 1] = UInt8(ascii: "t"); count += 2
            case 0..<0x20:
                out[count] = UInt8(ascii: "\\"); out[count + 1] = UInt8(ascii: "u")
                out[count + 2] = UInt8(ascii: "0"); out[count + 3] = UInt8(ascii: "0")
                out[count + 4] = hexDigit(byte >> 4); out[count + 5] = hexDigit(byte & 15)
                count += 6
            default:
                out[count] = byte; count += 1
            }
        }
        out[count] = UInt8(ascii: "\"")
        return count + 1
    }

    /// A string known at compile time that needs no escaping (event types, field values).
    public mutating func string(_ value: StaticString) {
        quoted(value, thenColon: false)
        needsComma = true
    }

    /// `"text"`, and `:` after it for a key, in one write (the comma is ``write(atMost:_:)``'s).
    @inline(__always)
    private mutating func quoted(_ text: StaticString, thenColon: Bool) {
        text.withUTF8Buffer { text in
            write(atMost: text.count + 4) { out in
                out[0] = UInt8(ascii: "\"")
                let count = 1 + text.count
                (out + 1).update(from: text.baseAddress!, count: text.count)
                out[count] = UInt8(ascii: "\"")
                guard thenColon else { return count + 1 }
                out[count + 1] = UInt8(ascii: ":")
                return count + 2
            }
        }
    }

    public mutating func int(_ value: Int64) {
        write(atMost: 20) { out in Self.format(value.magnitude, negative: value < 0, at: out) }
        needsComma = true
    }

    public mutating func int(_ value: Int) { int(Int64(value)) }

    /// Finite numbers with at most four decimals, trailing zeros dropped but one kept
    /// (`20.0`, `504.1667`, `-0.5`): a ten-thousandth of a point, second or radian is below
    /// anything a touch panel resolves, and writing fixed-point digits by hand keeps the hot
    /// path free of string allocations. NaN and infinities, which JSON cannot carry, become
    /// `null`; magnitudes beyond 10^14 fall back to Swift's shortest round-trip form.
    public mutating func number(_ value: Double) {
        write(atMost: Self.maximumNumberLength) { out in Self.formatNumber(value, at: out) }
        needsComma = true
    }

    /// The most bytes ``number(_:)`` writes: the fixed-point form (sign, 14 digits, a point and
    /// four decimals) or Swift's shortest round-trip form of a larger double (at most 24).
    public static let maximumNumberLength = 26

    /// Writes `value` as ``number(_:)`` does at `out`; returns how many bytes it wrote.
    @inline(__always)
    static func formatNumber(_ value: Double, at out: UnsafeMutablePointer<UInt8>) -> Int {
        guard value.isFinite else {
            out[0] = UInt8(ascii: "n"); out[1] = UInt8(ascii: "u"); out[2] = UInt8(ascii: "l"); out[3] = UInt8(ascii: "l")
            return 4
        }
        let size = abs(value * 10_000)
        guard size < 1e18 else { return formatLarge(value, at: out) }
        // Rounded half away from zero, as `rounded()` does, without its call into the C
        // library: below 2^63 a double's fraction (`size` less its truncation) is exact.
        // Through Int64 (size is below 10^18): one conversion each way, where UInt64 takes
        // more to handle values past Int64's range.
        var signed = Int64(size)
        if size - Double(signed) >= 0.5 { signed &+= 1 }
        let magnitude = UInt64(truncatingIfNeeded: signed)
        let fraction = Int(truncatingIfNeeded: magnitude % 10_000)
        let whole = magnitude / 10_000
        let negative = value < 0 && magnitude != 0
        var count: Int
        if whole < 10_000 {
            // A screen coordinate, a time in seconds, a scale: straight-line digits.
            count = formatSmall(Int(truncatingIfNeeded: whole), negative: negative, at: out)
        } else {
            count = format(whole, negative: negative, at: out)
        }
        out[count] = UInt8(ascii: ".")
        // Four decimals by pairs, then trailing zeros dropped but one kept.
        writePair(fraction / 100, at: out + count + 1)
        writePair(fraction % 100, at: out + count + 3)
        let width = fraction % 10 != 0 ? 4 : fraction % 100 != 0 ? 3 : fraction % 1_000 != 0 ? 2 : 1
        count += width + 1
        return count
    }

    /// "00" to "99", for writing digits two at a time.
    private static let digitPairs: StaticString = """
        00010203040506070809101112131415161718192021222324252627282930313233343536373839\
        40414243444546474849505152535455565758596061626364656667686970717273747576777879\
        8081828384858687888990919293949596979899
        """

    /// The two digits of `value` (0 to 99) at `out`.
    @inline(__always)
    private static func writePair(_ value: Int, at out: UnsafeMutablePointer<UInt8>) {
        let pairs = digitPairs.utf8Start
        out[0] = pairs[2 &* value]
        out[1] = pairs[2 &* value &+ 1]
    }

    @inline(never)
    private static func formatLarge(_ value: Double, at out: UnsafeMutablePointer<UInt8>) -> Int {
        var count = 0
        for byte in value.description.utf8 where count < maximumNumberLength { out[count] = byte; count += 1 }
        return count
    }

    /// A number exactly as `literal` spells it, for values echoed to their sender (a request's
    /// `id`); the caller has checked that `literal` is a JSON number.
    public mutating func numberLiteral(_ literal: String) {
        var literal = literal
        literal.makeContiguousUTF8()
        let count = literal.utf8.count
        literal.utf8.withContiguousStorageIfAvailable { text in
            write(atMost: count) { out in
                for (index, byte) in text.enumerated() { out[index] = byte }
                return count
            }
        }
        needsComma = true
    }

    public mutating func bool(_ value: Bool) {
        literal(value ? "true" : "false")
        needsComma = true
    }

    public mutating func null() {
        literal("null")
        needsComma = true
    }

    /// Room for a whole line of at most `maximum` bytes after what the writer holds, written
    /// by `body` through a ``Cursor``, braces and line break included; the writer is then at
    /// the start of a line again.
    public mutating func withLine(room maximum: Int, _ body: (inout Cursor) -> Void) {
        needsComma = false
        write(atMost: maximum) { out in
            var cursor = Cursor(out)
            body(&cursor)
            return out.distance(to: cursor.position)
        }
        needsComma = false
    }

    /// Writes into room a ``JSONWriter`` reserved (``withLine(room:_:)``): text as given, no
    /// separators of its own; the caller spells the punctuation in its literals.
    public struct Cursor {
        public private(set) var position: UnsafeMutablePointer<UInt8>

        init(_ position: UnsafeMutablePointer<UInt8>) { self.position = position }

        /// Text known at compile time, written as is (keys with their quotes and punctuation).
        @inline(__always)
        public mutating func raw(_ text: StaticString) {
            let count = text.utf8CodeUnitCount
            // A copy of a constant length, which the compiler turns into a few moves.
            UnsafeMutableRawPointer(position).copyMemory(from: text.utf8Start, byteCount: count)
            position += count
        }

        /// Bytes encoded before (``JSONWriter/quoted(_:)``).
        @inline(__always)
        public mutating func bytes(_ bytes: [UInt8]) {
            bytes.withUnsafeBufferPointer { if let base = $0.baseAddress { position.update(from: base, count: $0.count) } }
            position += bytes.count
        }

        /// `text` as a JSON string, quoted and escaped: room for `text.count * 6 + 2` bytes.
        @inline(__always)
        public mutating func string(_ text: UnsafeBufferPointer<UInt8>) {
            position += JSONWriter.quote(text, at: position)
        }

        /// `text` quoted, as it is: for the raw values of the stream's enums (kinds, states,
        /// directions), plain ASCII words that need no escaping; room for its length and 2.
        @inline(__always)
        public mutating func plainString(_ text: String) {
            position.pointee = UInt8(ascii: "\"")
            position += 1
            for byte in text.utf8 {
                position.pointee = byte
                position += 1
            }
            position.pointee = UInt8(ascii: "\"")
            position += 1
        }

        /// `count` bytes encoded before, from `source`. A view's quoted id is a few bytes to a
        /// few dozen: up to 16 are copied as two overlapping words (or half-words), inline,
        /// instead of a call to `memcpy`, four a delivery (docs/performance.md, "Measured
        /// reasons behind the code's shape").
        @inline(__always)
        public mutating func bytes(_ source: UnsafePointer<UInt8>, count: Int) {
            let from = UnsafeRawPointer(source)
            let to = UnsafeMutableRawPointer(position)
            if count >= 8 && count <= 16 {
                let head = from.loadUnaligned(as: UInt64.self)
                let tail = from.loadUnaligned(fromByteOffset: count &- 8, as: UInt64.self)
                to.storeBytes(of: head, as: UInt64.self)
                to.storeBytes(of: tail, toByteOffset: count &- 8, as: UInt64.self)
            } else if count >= 4 && count < 8 {
                let head = from.loadUnaligned(as: UInt32.self)
                let tail = from.loadUnaligned(fromByteOffset: count &- 4, as: UInt32.self)
                to.storeBytes(of: head, as: UInt32.self)
                to.storeBytes(of: tail, toByteOffset: count &- 4, as: UInt32.self)
            } else {
                position.update(from: source, count: count)
            }
            position += count
        }

        /// Three words stored as they are, the cursor advanced by `count` (at most 24) of
        /// their bytes (``DecimalText/write(to:)``).
        @inline(__always)
        mutating func words(_ words: (UInt64, UInt64, UInt64), advancingBy count: Int) {
            let to = UnsafeMutableRawPointer(position)
            to.storeBytes(of: words.0, as: UInt64.self)
            to.storeBytes(of: words.1, toByteOffset: 8, as: UInt64.self)
            to.storeBytes(of: words.2, toByteOffset: 16, as: UInt64.self)
            position += count
        }

        @inline(__always)
        public mutating func int(_ value: Int64) {
            position += JSONWriter.format(value.magnitude, negative: value < 0, at: position)
        }

        @inline(__always)
        public mutating func int(_ value: Int) { int(Int64(value)) }

        /// As ``JSONWriter/number(_:)``: at most ``JSONWriter/maximumNumberLength`` bytes.
        @inline(__always)
        public mutating func number(_ value: Double) {
            position += JSONWriter.formatNumber(value, at: position)
        }
    }

    // MARK: - Writing

    /// Reserves room for `maximum` bytes (plus a separating comma when one is due), lets `body`
    /// write at most that many through a pointer, and keeps what it says it wrote.
    @inline(__always)
    private mutating func write(atMost maximum: Int, _ body: (UnsafeMutablePointer<UInt8>) -> Int) {
        let needed = length + maximum + 1
        if _slowPath(needed > storage.count) { grow(to: needed) }
        let comma = needsComma
        let start = length
        let written = storage.withUnsafeMutableBufferPointer { buffer -> Int in
            var out = buffer.baseAddress! + start
            if comma {
                out.pointee = UInt8(ascii: ",")
                out += 1
            }
            return (comma ? 1 : 0) + body(out)
        }
        length += written
    }

    @inline(never)
    private mutating func grow(to needed: Int) {
        storage.append(contentsOf: repeatElement(0, count: max(needed, storage.count * 2, 256) - storage.count))
    }

    private mutating func punctuation(_ byte: UInt8, separated: Bool) {
        if !separated { needsComma = false }
        write(atMost: 1) { out in
            out.pointee = byte
            return 1
        }
    }

    private mutating func literal(_ text: StaticString) {
        text.withUTF8Buffer { text in
            write(atMost: text.count) { out in
                out.update(from: text.baseAddress!, count: text.count)
                return text.count
            }
        }
    }

    /// Writes the decimal digits of `value` (after a minus sign if `negative`) at `out`;
    /// returns how many bytes it wrote (at most 20).
    @inline(__always)
    static func format(_ value: UInt64, negative: Bool, at out: UnsafeMutablePointer<UInt8>) -> Int {
        let digits = digitCount(value)
        let sign = negative ? 1 : 0
        if negative { out.pointee = UInt8(ascii: "-") }
        // Backwards from the last digit, two at a time.
        var rest = value
        var index = sign + digits
        while index - sign >= 2 {
            index -= 2
            writePair(Int(truncatingIfNeeded: rest % 100), at: out + index)
            rest /= 100
        }
        if index > sign { out[sign] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: rest) }
        return sign + digits
    }

    /// `value` (0 to 9,999) after a minus sign if `negative`, as ``format(_:negative:at:)``
    /// writes it, without its loops.
    @inline(__always)
    private static func formatSmall(_ value: Int, negative: Bool, at out: UnsafeMutablePointer<UInt8>) -> Int {
        let sign = negative ? 1 : 0
        if negative { out.pointee = UInt8(ascii: "-") }
        let digits = out + sign
        if value < 100 {
            if value < 10 {
                digits[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: value)
                return sign + 1
            }
            writePair(value, at: digits)
            return sign + 2
        }
        let high = value / 100
        if high < 10 {
            digits[0] = UInt8(ascii: "0") &+ UInt8(truncatingIfNeeded: high)
            writePair(value - high * 100, at: digits + 1)
            return sign + 3
        }
        writePair(high, at: digits)
        writePair(value - high * 100, at: digits + 2)
        return sign + 4
    }

    /// How many decimal digits `value` has (1 to 20): the small values of coordinates, times
    /// and counts are answered by a comparison or two.
    @inline(__always)
    private static func digitCount(_ value: UInt64) -> Int {
        if value < 100 { return value < 10 ? 1 : 2 }
        if value < 10_000 { return value < 1_000 ? 3 : 4 }
        var digits = 5
        var scale: UInt64 = 100_000
        while digits < 20 && value >= scale {
            digits += 1
            if digits < 20 { scale &*= 10 }
        }
        return digits
    }

    private static func hexDigit(_ value: UInt8) -> UInt8 {
        value < 10 ? UInt8(ascii: "0") + value : UInt8(ascii: "a") + value - 10
    }
}

/// An integer's decimal text, kept to be copied into lines: the encoder's next `seq`, counted
/// up by a carry through its digits (formatting it afresh was a division per digit pair for
/// every line), and the last `time`, which every line of a frame shares.
struct DecimalText {
    private(set) var value: Int64
    /// The text, in the first `count` bytes: at most 20 (a sign and 19 digits).
    private var storage: (UInt64, UInt64, UInt64) = (0, 0, 0)
    private var count = 0

    init(_ value: Int64) {
        self.value = value
        set(value)
    }

    mutating func set(_ value: Int64) {
        self.value = value
        count = withUnsafeMutableBytes(of: &storage) { raw in
            JSONWriter.format(value.magnitude, negative: value < 0,
                              at: raw.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: UInt8.self))
        }
    }

    /// `value + 1`. A non-negative value's text is carried in place: trailing nines become
    /// zeros and the digit before them goes up, or a leading one is added.
    mutating func increment() {
        guard value >= 0, value < Int64.max else {
            // A negative value is formatted afresh; Int64.max (9.2e18 lines, never reached)
            // stays where it is rather than trap.
            set(value == Int64.max ? value : value + 1)
            return
        }
        value += 1
        let count = count
        let grew = withUnsafeMutableBytes(of: &storage) { raw -> Bool in
            var index = count - 1
            while index >= 0 && raw[index] == UInt8(ascii: "9") {
                raw[index] = UInt8(ascii: "0")
                index -= 1
            }
            if index >= 0 {
                raw[index] += 1
                return false
            }
            // All nines: one followed by as many zeros and one more.
            raw[0] = UInt8(ascii: "1")
            raw[count] = UInt8(ascii: "0")
            return true
        }
        if grew { self.count += 1 }
    }

    /// Writes the text at the cursor: all 24 bytes of the storage as three word stores (a
    /// copy of `count` bytes became a `memmove` call per line), the cursor advancing by the
    /// text's length, so the bytes past it are written over by what follows. The caller's room
    /// must hold 24 bytes here: a line's room counts 20 for an integer, and every line goes
    /// on for more than 4 bytes after its `seq` and `time`.
    @inline(__always)
    func write(to out: inout JSONWriter.Cursor) {
        out.words(storage, advancingBy: count)
    }
}
