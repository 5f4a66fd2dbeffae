/// Reads fields off one line of bytes without making strings: the parsers' only tool, so they
/// stay fast on megabyte recordings (no `String` per line, no Regex).
struct ByteScanner {
    let bytes: ArraySlice<UInt8>
    private(set) var index: Int

    init(_ bytes: ArraySlice<UInt8>) {
        self.bytes = bytes
        self.index = bytes.startIndex
    }

    init(_ line: TextLine) {
        self.init(line.bytes)
    }

    var isAtEnd: Bool { index >= bytes.endIndex }

    var peek: UInt8? { isAtEnd ? nil : bytes[index] }

    /// The bytes not read yet.
    var rest: ArraySlice<UInt8> { bytes[index...] }

    mutating func skipBlanks() {
        while index < bytes.endIndex, bytes[index].isBlank { index += 1 }
    }

    /// Skips at least one blank; false when the next byte is not a blank.
    mutating func skipRequiredBlanks() -> Bool {
        guard let byte = peek, byte.isBlank else { return false }
        skipBlanks()
        return true
    }

    /// True when only blanks, or blanks then a `#` comment, are left.
    mutating func isAtEndOrComment() -> Bool {
        skipBlanks()
        return isAtEnd || bytes[index] == .hash
    }

    mutating func skip(_ byte: UInt8) -> Bool {
        guard peek == byte else { return false }
        index += 1
        return true
    }

    mutating func skip(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.endIndex - index >= count else { return false }
        let matches = literal.withUTF8Buffer { buffer in
            var position = index
            for byte in buffer {
                if bytes[position] != byte { return false }
                position += 1
            }
            return true
        }
        if matches { index += count }
        return matches
    }

    mutating func skip(while predicate: (UInt8) -> Bool) {
        while index < bytes.endIndex, predicate(bytes[index]) { index += 1 }
    }

    /// Reads up to (not including) the next blank.
    mutating func token() -> ArraySlice<UInt8> {
        let start = index
        while index < bytes.endIndex, !bytes[index].isBlank { index += 1 }
        return bytes[start..<index]
    }

    /// An unsigned hex number (no `0x`), at most `maxValue`.
    mutating func hex(max maxValue: UInt64) -> UInt64? {
        let start = index
        var value: UInt64 = 0
        while index < bytes.endIndex, let digit = bytes[index].hexValue {
            value = value &* 16 &+ UInt64(digit)
            index += 1
            if index - start > 16 || value > maxValue { index = start; return nil }
        }
        if index == start { return nil }
        return value
    }

    /// A hex number with an optional `0x` prefix (evtest prints `0x3`, evemu's comments `0x03`).
    mutating func prefixedHex(max maxValue: UInt64) -> UInt64? {
        let start = index
        _ = skip("0x") || skip("0X")
        guard let value = hex(max: maxValue) else { index = start; return nil }
        return value
    }

    /// An unsigned decimal number with its digit count, at most `maxDigits` digits.
    mutating func unsignedDecimal(maxDigits: Int) -> (value: Int64, digits: Int)? {
        let start = index
        var value: Int64 = 0
        while index < bytes.endIndex, bytes[index].isDigit {
            if index - start == maxDigits { index = start; return nil }
            value = value * 10 + Int64(bytes[index] - UInt8(ascii: "0"))
            index += 1
        }
        if index == start { return nil }
        return (value, index - start)
    }

    /// A decimal `Int32` with an optional sign; leading zeros are decimal, not octal
    /// (evemu writes `%04d`, so `0035` is 35 and `-001` is -1).
    mutating func int32() -> Int32? {
        let start = index
        let negative = skip(.minus)
        if !negative { _ = skip(.plus) }
        // Up to 18 digits fit Int64; Int32's range check follows.
        guard let (magnitude, _) = unsignedDecimal(maxDigits: 18) else { index = start; return nil }
        let value = negative ? -magnitude : magnitude
        guard let result = Int32(exactly: value) else { index = start; return nil }
        return result
    }

    /// A `<sec>.<usec>` timestamp converted to microseconds without floating point. The
    /// microseconds are taken as written (evemu writes `%06u`), so they must be 1 to 6 digits.
    mutating func timestamp() -> Int64? {
        let start = index
        // 12 digits of seconds is 31 000 years of epoch time; Int64 microseconds hold 292 000.
        guard let (seconds, _) = unsignedDecimal(maxDigits: 12), skip(.period),
              let (micros, _) = unsignedDecimal(maxDigits: 6)
        else { index = start; return nil }
        return seconds * 1_000_000 + micros
    }
}
