/// A minimal JSON text builder over a byte buffer: no Foundation, no intermediate strings,
/// keys in the order written (SPEC 8 shows a fixed field order; tests pin whole lines).
public struct JSONWriter {
    public var bytes: [UInt8] = []
    private var needsComma = false

    public init() {}

    public mutating func beginObject() { separator(); bytes.append(UInt8(ascii: "{")); needsComma = false }
    public mutating func endObject() { bytes.append(UInt8(ascii: "}")); needsComma = true }
    public mutating func beginArray() { separator(); bytes.append(UInt8(ascii: "[")); needsComma = false }
    public mutating func endArray() { bytes.append(UInt8(ascii: "]")); needsComma = true }

    public mutating func key(_ name: StaticString) {
        // One append per key (`,"name":`): appends, not formatting, dominate encoding.
        let comma = needsComma
        name.withUTF8Buffer { name in
            withUnsafeTemporaryAllocation(of: UInt8.self, capacity: name.count + 4) { buffer in
                var count = 0
                if comma { buffer[count] = UInt8(ascii: ","); count += 1 }
                buffer[count] = UInt8(ascii: "\""); count += 1
                for byte in name { buffer[count] = byte; count += 1 }
                buffer[count] = UInt8(ascii: "\""); count += 1
                buffer[count] = UInt8(ascii: ":"); count += 1
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[..<count]))
            }
        }
        needsComma = false
    }

    public mutating func string(_ value: String) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        var utf8 = value.utf8
        // Ids and names rarely need escaping: copy them in one go when they do not.
        let plain = utf8.withContiguousStorageIfAvailable { buffer -> Bool in
            guard !buffer.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") })
            else { return false }
            bytes.append(contentsOf: buffer)
            return true
        }
        if plain != true {
            if plain == nil {
                var copy = value
                copy.makeContiguousUTF8()
                utf8 = copy.utf8
            }
            for byte in utf8 { appendEscaped(byte) }
        }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    /// A string known at compile time that needs no escaping (event types, field values).
    public mutating func string(_ value: StaticString) {
        separator()
        bytes.append(UInt8(ascii: "\""))
        value.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        needsComma = true
    }

    private mutating func appendEscaped(_ byte: UInt8) {
        switch byte {
        case UInt8(ascii: "\""): bytes.append(contentsOf: [92, 34])
        case UInt8(ascii: "\\"): bytes.append(contentsOf: [92, 92])
        case 0x0A: bytes.append(contentsOf: [92, UInt8(ascii: "n")])
        case 0x0D: bytes.append(contentsOf: [92, UInt8(ascii: "r")])
        case 0x09: bytes.append(contentsOf: [92, UInt8(ascii: "t")])
        case 0..<0x20:
            let hex: [UInt8] = Array("0123456789abcdef".utf8)
            bytes.append(contentsOf: [92, UInt8(ascii: "u"), 48, 48, hex[Int(byte >> 4)], hex[Int(byte & 15)]])
        default: bytes.append(byte)
        }
    }

    public mutating func int(_ value: Int64) {
        separator()
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { buffer in
            let count = Self.format(value.magnitude, negative: value < 0, into: buffer)
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[(24 - count)...]))
        }
        needsComma = true
    }

    public mutating func int(_ value: Int) { int(Int64(value)) }

    /// Finite numbers with at most four decimals, trailing zeros dropped but one kept
    /// (`20.0`, `504.1667`, `-0.5`): a ten-thousandth of a point, second or radian is below
    /// anything a touch panel resolves, and writing fixed-point digits by hand keeps the hot
    /// path free of string allocations. NaN and infinities, which JSON cannot carry, become
    /// `null`; magnitudes beyond 10^14 fall back to Swift's shortest round-trip form.
    public mutating func number(_ value: Double) {
        separator()
        defer { needsComma = true }
        guard value.isFinite else {
            bytes.append(contentsOf: "null".utf8)
            return
        }
        let scaled = (value * 10_000).rounded()
        guard abs(scaled) < 1e18 else {
            bytes.append(contentsOf: value.description.utf8)
            return
        }
        let units = Int64(scaled)
        let magnitude = units.magnitude
        var fraction = magnitude % 10_000
        var width = 4
        while width > 1 && fraction % 10 == 0 {
            fraction /= 10
            width -= 1
        }
        // Digits are written backwards from the end of a stack buffer, then appended at once.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 32) { buffer in
            var start = 32
            for _ in 0..<width {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(fraction % 10)
                fraction /= 10
            }
            start -= 1
            buffer[start] = UInt8(ascii: ".")
            let integer = Self.format(magnitude / 10_000, negative: units < 0,
                                      into: UnsafeMutableBufferPointer(rebasing: buffer[..<start]))
            start -= integer
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    /// Writes the decimal digits of `value` (with a minus sign if `negative`) at the end of
    /// `buffer`; returns how many bytes it wrote.
    private static func format(_ value: UInt64, negative: Bool, into buffer: UnsafeMutableBufferPointer<UInt8>) -> Int {
        var index = buffer.count
        var rest = value
        repeat {
            index -= 1
            buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        } while rest > 0
        if negative {
            index -= 1
            buffer[index] = UInt8(ascii: "-")
        }
        return buffer.count - index
    }

    public mutating func bool(_ value: Bool) {
        separator()
        bytes.append(contentsOf: (value ? "true" : "false").utf8)
        needsComma = true
    }

    public mutating func null() {
        separator()
        bytes.append(contentsOf: "null".utf8)
        needsComma = true
    }

    public mutating func newline() {
        bytes.append(0x0A)
        needsComma = false
    }

    public mutating func reset() {
        bytes.removeAll(keepingCapacity: true)
        needsComma = false
    }

    private mutating func separator() {
        if needsComma { bytes.append(UInt8(ascii: ",")) }
    }
}
