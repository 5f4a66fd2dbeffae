/// One line of a recording file: its 1-based number and its bytes without the line break
/// (a trailing `\r` from CRLF files is dropped too).
struct TextLine {
    var number: Int
    var bytes: ArraySlice<UInt8>

    /// The line as text for error messages, shortened so one bad line cannot flood a log.
    var quoted: String {
        var text = String(decoding: bytes, as: UTF8.self)
        while let last = text.last, last == " " || last == "\t" { text.removeLast() }
        if text.count > 80 { text = String(text.prefix(77)) + "..." }
        return "\"" + text + "\""
    }

    /// True for a line with nothing but blanks.
    var isBlank: Bool { bytes.allSatisfy { $0 == .space || $0 == .tab } }

    func hasPrefix(_ prefix: StaticString) -> Bool {
        let count = prefix.utf8CodeUnitCount
        guard bytes.count >= count else { return false }
        return prefix.withUTF8Buffer { buffer in
            var index = bytes.startIndex
            for byte in buffer {
                if bytes[index] != byte { return false }
                index += 1
            }
            return true
        }
    }

    /// Splits a whole file into lines. A final line without a newline is still a line.
    static func split(_ bytes: [UInt8]) -> [TextLine] {
        var lines: [TextLine] = []
        lines.reserveCapacity(bytes.count / 32)
        var start = 0
        var number = 1
        let count = bytes.count
        var index = 0
        while index < count {
            if bytes[index] == .newline {
                var end = index
                if end > start, bytes[end - 1] == .carriageReturn { end -= 1 }
                lines.append(TextLine(number: number, bytes: bytes[start..<end]))
                number += 1
                start = index + 1
            }
            index += 1
        }
        if start < count {
            var end = count
            if bytes[end - 1] == .carriageReturn { end -= 1 }
            lines.append(TextLine(number: number, bytes: bytes[start..<end]))
        }
        return lines
    }
}

extension UInt8 {
    static let newline = UInt8(ascii: "\n")
    static let carriageReturn = UInt8(ascii: "\r")
    static let space = UInt8(ascii: " ")
    static let tab = UInt8(ascii: "\t")
    static let hash = UInt8(ascii: "#")
    static let colon = UInt8(ascii: ":")
    static let comma = UInt8(ascii: ",")
    static let period = UInt8(ascii: ".")
    static let minus = UInt8(ascii: "-")
    static let plus = UInt8(ascii: "+")
    static let quote = UInt8(ascii: "\"")
    static let openBracket = UInt8(ascii: "[")
    static let closeBracket = UInt8(ascii: "]")
    static let openParen = UInt8(ascii: "(")
    static let closeParen = UInt8(ascii: ")")

    var isBlank: Bool { self == .space || self == .tab }
    var isDigit: Bool { self >= UInt8(ascii: "0") && self <= UInt8(ascii: "9") }

    /// The value of a hex digit, or nil.
    var hexValue: UInt8? {
        switch self {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): self - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): self - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): self - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
