/// Reads JSON5 (configuration and layout files, spec.json5.org) or strict JSON (RFC 8259: the
/// socket's requests) into a ``JSONValue``, in one pass, knowing where everything is: every
/// syntax error names its line and column, and the position of every key can be recorded so
/// that schema problems point into the file too (docs/configuration.md, "Configuration": `FILE:LINE:COLUMN`).
///
/// It never recurses: containers are kept on an explicit stack whose depth is limited to
/// ``maximumDepth``, so no input can exhaust the thread's stack, here or later when values are
/// compared or freed. Every step consumes input, so the work is linear in the text's length.
///
/// The JSON5 dialect is the specification's, with two deliberate refusals that catch mistakes
/// rather than reading them as something else (docs/decisions.md): an escape of a character
/// that has no escape meaning (`\q`, usually a Windows path) and control characters or NUL
/// inside strings. Numbers beyond a `Double` (`1e309`) and lone UTF-16 surrogates (`\uD800`)
/// are errors with a position rather than infinity or a replacement character.
public struct JSONParser {
    /// Which grammar to accept.
    public enum Dialect: Sendable {
        /// JSON5: comments, single quotes, unquoted keys, trailing commas, hexadecimal,
        /// `Infinity`, `NaN`, leading or trailing decimal points, explicit `+`.
        case json5
        /// RFC 8259 JSON, for socket requests.
        case json
    }

    /// What the parser read: the value, the position of each key path, and every key that
    /// repeats an earlier key of its object.
    public struct Document: Sendable {
        public var value: JSONValue
        /// Key path relative to the root (``SchemaReader``'s syntax: `a.b[2]`, `["my key"]`;
        /// the root is `""`) → where the key (object members) or the value (array elements
        /// and the root) starts. Empty unless asked for.
        public var positions: [String: SourcePosition]
        /// Each repetition of a key in the same object (after escapes are resolved, so
        /// `"\u0069d"` repeats `id`), in document order. JSON keeps only one of the values.
        public var duplicateKeys: [JSONSyntaxError]
    }

    /// How deeply objects and arrays may nest (docs/limits.md). 128 leaves room for layouts
    /// 62 views deep with recognizers, far beyond any screen, and bounds the stack that
    /// recursive comparisons and deallocation of a ``JSONValue`` use.
    public static let maximumDepth = 128

    /// The longest number literal, in characters: a `Double` needs 17 significant digits, and
    /// longer literals only cost conversion time.
    public static let maximumNumberLength = 400

    /// Parses `text`; throws the first syntax error. Duplicate keys are not errors here: they
    /// are in ``Document/duplicateKeys``, for the caller to report all at once.
    public static func parse(_ text: String, dialect: Dialect = .json5,
                             recordingPositions: Bool = false) throws(JSONSyntaxError) -> Document {
        try parse(bytes: Array(text.utf8), dialect: dialect, recordingPositions: recordingPositions)
    }

    /// Parses UTF-8 `bytes` (a socket line, a file); invalid UTF-8 is a syntax error with its
    /// position.
    public static func parse(bytes: [UInt8], dialect: Dialect = .json5,
                             recordingPositions: Bool = false) throws(JSONSyntaxError) -> Document {
        var reader = Reader(bytes: bytes, dialect: dialect, recordingPositions: recordingPositions)
        let value = try reader.document()
        return Document(value: value, positions: reader.positions, duplicateKeys: reader.duplicates)
    }
}

// MARK: - The reader

private let quote = UInt8(ascii: "\""), apostrophe = UInt8(ascii: "'"), backslash = UInt8(ascii: "\\")
private let newline = UInt8(ascii: "\n"), carriageReturn = UInt8(ascii: "\r")
private let openBrace = UInt8(ascii: "{"), closeBrace = UInt8(ascii: "}")
private let openBracket = UInt8(ascii: "["), closeBracket = UInt8(ascii: "]")
private let comma = UInt8(ascii: ","), colon = UInt8(ascii: ":"), slash = UInt8(ascii: "/"), star = UInt8(ascii: "*")
private let minus = UInt8(ascii: "-"), plus = UInt8(ascii: "+"), dot = UInt8(ascii: ".")
private let zero = UInt8(ascii: "0"), nine = UInt8(ascii: "9")

private func isDigit(_ byte: UInt8?) -> Bool {
    guard let byte else { return false }
    return byte >= zero && byte <= nine
}

private func hexValue(_ byte: UInt8?) -> UInt32? {
    guard let byte else { return nil }
    switch byte {
    case zero...nine: return UInt32(byte - zero)
    case UInt8(ascii: "a")...UInt8(ascii: "f"): return UInt32(byte - UInt8(ascii: "a") + 10)
    case UInt8(ascii: "A")...UInt8(ascii: "F"): return UInt32(byte - UInt8(ascii: "A") + 10)
    default: return nil
    }
}

/// ECMAScript 5.1's IdentifierStart, which JSON5 keys follow (without the escape).
private func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
    if scalar == "$" || scalar == "_" { return true }
    if scalar.isASCII {
        return ("a"..."z").contains(scalar) || ("A"..."Z").contains(scalar)
    }
    switch scalar.properties.generalCategory {
    case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter, .letterNumber: return true
    default: return false
    }
}

/// ECMAScript 5.1's IdentifierPart.
private func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
    if isIdentifierStart(scalar) { return true }
    if scalar.isASCII { return ("0"..."9").contains(scalar) }
    if scalar == "\u{200C}" || scalar == "\u{200D}" { return true }
    switch scalar.properties.generalCategory {
    case .nonspacingMark, .spacingMark, .decimalNumber, .connectorPunctuation: return true
    default: return false
    }
}

/// A container being read, on the explicit stack.
private struct Frame {
    var isObject: Bool
    /// Byte offset of the opening bracket.
    var open: Int
    var members: [String: JSONValue] = [:]
    var elements: [JSONValue] = []
    /// The key whose value is being read.
    var key = ""
    /// Where each key of this object first appears, for duplicate reports.
    var keyPositions: [String: SourcePosition] = [:]
    /// Key path of this container (only when recording positions).
    var path: String

    var close: UInt8 { isObject ? closeBrace : closeBracket }
}

private struct Reader {
    let bytes: [UInt8]
    let dialect: JSONParser.Dialect
    let recordingPositions: Bool
    var index = 0
    var stack: [Frame] = []
    var positions: [String: SourcePosition] = [:]
    var duplicates: [JSONSyntaxError] = []
    /// Reused for strings with escapes.
    var scratch: [UInt8] = []

    // Positions: the line is counted as newlines are consumed; columns are counted from the
    // last position asked for on the same line, so asking in document order stays linear.
    var line = 1
    var lineStart = 0
    var cachedOffset = 0
    var cachedColumn = 1

    init(bytes: [UInt8], dialect: JSONParser.Dialect, recordingPositions: Bool) {
        (self.bytes, self.dialect, self.recordingPositions) = (bytes, dialect, recordingPositions)
    }

    var json5: Bool { dialect == .json5 }
    /// What messages call the whole text.
    var textNoun: String { json5 ? "file" : "line" }
    var current: UInt8? { index < bytes.count ? bytes[index] : nil }
    func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }

    // MARK: Positions

    mutating func lineEnded(nextLineStart: Int) {
        line += 1
        lineStart = nextLineStart
        cachedOffset = nextLineStart
        cachedColumn = 1
    }

    /// The position of byte `offset`: fast on the current line, a scan from the start for an
    /// earlier one (only error messages ask for those, once).
    mutating func position(of offset: Int) -> SourcePosition {
        if offset >= lineStart {
            if offset < cachedOffset {
                cachedOffset = lineStart
                cachedColumn = 1
            }
            var column = cachedColumn
            var i = cachedOffset
            let end = min(offset, bytes.count)
            while i < end {
                if bytes[i] & 0xC0 != 0x80 { column += 1 }
                i += 1
            }
            cachedOffset = end
            cachedColumn = column
            return SourcePosition(line: line, column: column + max(0, offset - end))
        }
        var line = 1, start = 0, i = 0
        while i < offset {
            if bytes[i] == newline || (bytes[i] == carriageReturn && (i + 1 >= bytes.count || bytes[i + 1] != newline)) {
                line += 1
                start = i + 1
            }
            i += 1
        }
        var column = 1
        for j in start..<offset where bytes[j] & 0xC0 != 0x80 { column += 1 }
        return SourcePosition(line: line, column: column)
    }

    mutating func failure(at offset: Int, _ message: String) -> JSONSyntaxError {
        JSONSyntaxError(position: position(of: offset), message: message)
    }

    // MARK: Scalars

    /// The Unicode scalar at `offset` and its length in bytes; `nil` at the end or on a byte
    /// that does not start a valid UTF-8 sequence.
    func scalar(at offset: Int) -> (scalar: Unicode.Scalar, length: Int)? {
        guard offset < bytes.count else { return nil }
        let lead = bytes[offset]
        if lead < 0x80 { return (Unicode.Scalar(lead), 1) }
        let length: Int
        var value: UInt32
        switch lead {
        case 0xC2...0xDF: length = 2; value = UInt32(lead & 0x1F)
        case 0xE0...0xEF: length = 3; value = UInt32(lead & 0x0F)
        case 0xF0...0xF4: length = 4; value = UInt32(lead & 0x07)
        default: return nil
        }
        guard offset + length <= bytes.count else { return nil }
        for i in 1..<length {
            let byte = bytes[offset + i]
            guard byte & 0xC0 == 0x80 else { return nil }
            value = value << 6 | UInt32(byte & 0x3F)
        }
        // Overlong forms and values beyond U+10FFFF or in the surrogate range are not UTF-8.
        let minimum: UInt32 = length == 2 ? 0x80 : length == 3 ? 0x800 : 0x10000
        guard value >= minimum, let scalar = Unicode.Scalar(value) else { return nil }
        return (scalar, length)
    }

    /// The first byte offset that is not valid UTF-8, if any.
    func firstInvalidUTF8() -> Int? {
        var offset = 0
        while offset < bytes.count {
            if bytes[offset] < 0x80 {
                offset += 1
            } else if let (_, length) = scalar(at: offset) {
                offset += length
            } else {
                return offset
            }
        }
        return nil
    }

    // MARK: Document

    mutating func document() throws(JSONSyntaxError) -> JSONValue {
        if let invalid = firstInvalidUTF8() {
            // Ahead of the scan, so its position is found the slow way.
            lineStart = bytes.count
            throw failure(at: invalid, "byte 0x\(String(bytes[invalid], radix: 16, uppercase: true)) is not UTF-8 text; "
                + (json5 ? "save the file as UTF-8" : "send UTF-8 text"))
        }
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { index = 3 }
        try skipTrivia()
        if current == nil {
            throw failure(at: index, json5
                ? "the file is empty; write a JSON5 object such as { id: \"root\", frame: [0, 0, 1920, 1080] }"
                : "the line is empty; send one JSON object per line, such as {\"type\":\"status\",\"id\":1}")
        }
        if recordingPositions { positions[""] = position(of: index) }
        var expected = "a value"
        while true {
            // At the start of a value: scalars complete at once, containers are pushed.
            var value: JSONValue
            switch current {
            case openBrace?, openBracket?:
                let isObject = current == openBrace
                try push(object: isObject)
                try skipTrivia()
                if current == (isObject ? closeBrace : closeBracket) {
                    index += 1
                    value = pop()
                } else {
                    // An object's first member starts with its key, an array's with a value.
                    expected = try isObject ? key() : startElement()
                    continue
                }
            default:
                value = try scalarValue(expected: expected)
            }
            // A value is complete: add it to its container, then read what follows, closing
            // containers until another value starts.
            while true {
                guard !stack.isEmpty else {
                    try skipTrivia()
                    if current != nil {
                        throw failure(at: index, "unexpected \(token(at: index)) after the end of the top-level value; "
                            + "remove it, or check the brackets above for one closed too early")
                    }
                    return value
                }
                let valueEnd = index
                let top = stack.count - 1
                if stack[top].isObject {
                    stack[top].members[stack[top].key] = value
                } else {
                    stack[top].elements.append(value)
                }
                try skipTrivia()
                guard let next = current else { throw unclosed() }
                let isObject = stack[top].isObject
                if next == comma {
                    index += 1
                    try skipTrivia()
                    if current == stack[top].close {
                        if !json5 {
                            throw failure(at: index, "unexpected \"\(Unicode.Scalar(stack[top].close))\" after a comma; "
                                + "JSON allows no comma after the last " + (isObject ? "member" : "element") + ", remove it")
                        }
                        index += 1
                        value = pop()
                        continue
                    }
                    if isObject {
                        expected = try key()
                    } else {
                        expected = startElement()
                    }
                    break
                } else if next == stack[top].close {
                    index += 1
                    value = pop()
                } else if startsValue(at: index) {
                    if isObject {
                        throw failure(at: valueEnd, "missing \",\" between the value of \"\(stack[top].key)\" and "
                            + "\(token(at: index)); add a comma")
                    }
                    throw failure(at: valueEnd, "missing \",\" after element [\(stack[top].elements.count - 1)]; "
                        + "add a comma before the next element")
                } else if isObject {
                    throw failure(at: index, "expected \",\" or \"}\" after the value of \"\(stack[top].key)\", found "
                        + token(at: index) + (next == closeBracket ? "; close the object with \"}\"" : ""))
                } else {
                    throw failure(at: index, "expected \",\" or \"]\" after element [\(stack[top].elements.count - 1)], "
                        + "found \(token(at: index))" + (next == closeBrace ? "; close the array with \"]\"" : ""))
                }
            }
        }
    }

    /// Opens a container at the current `{` or `[`.
    mutating func push(object: Bool) throws(JSONSyntaxError) {
        if stack.count >= JSONParser.maximumDepth {
            throw failure(at: index, "objects and arrays nest more than \(JSONParser.maximumDepth) levels deep here; "
                + "that is the limit (docs/limits.md), so flatten the structure")
        }
        var path = ""
        if recordingPositions, let parent = stack.last {
            path = parent.isObject ? SchemaReader.path(parent.path, parent.key)
                : SchemaReader.path(parent.path, parent.elements.count)
        }
        stack.append(Frame(isObject: object, open: index, path: path))
        index += 1
    }

    mutating func pop() -> JSONValue {
        let frame = stack.removeLast()
        return frame.isObject ? .object(frame.members) : .array(frame.elements)
    }

    /// Before an element of the array on top: records its position, returns how messages name it.
    mutating func startElement() -> String {
        let top = stack.count - 1
        let element = stack[top].elements.count
        if recordingPositions { positions[SchemaReader.path(stack[top].path, element)] = position(of: index) }
        return "element [\(element)] or \"]\""
    }

    func startsValue(at offset: Int) -> Bool {
        let byte = bytes[offset]
        if byte == openBrace || byte == openBracket || byte == quote || byte == apostrophe || byte == minus
            || byte == plus || byte == dot || isDigit(byte) {
            return true
        }
        return scalar(at: offset).map { isIdentifierStart($0.scalar) } ?? false
    }

    func unclosedMessage(_ frame: Frame, at open: SourcePosition) -> String {
        "the \(textNoun) ends inside the \(frame.isObject ? "object" : "array") that starts at line \(open.line), "
            + "column \(open.column); add the missing \"\(Unicode.Scalar(frame.close))\""
    }

    mutating func unclosed() -> JSONSyntaxError {
        let frame = stack[stack.count - 1]
        let open = position(of: frame.open)
        return failure(at: index, unclosedMessage(frame, at: open))
    }

    // MARK: Keys

    /// Reads a key of the object on top and its colon; returns how messages name its value.
    mutating func key() throws(JSONSyntaxError) -> String {
        guard let byte = current else { throw unclosed() }
        let start = index
        let key: String
        if byte == quote || (byte == apostrophe && json5) {
            key = try string()
        } else if json5, byte == backslash || scalar(at: index).map({ isIdentifierStart($0.scalar) }) == true {
            key = try identifier()
        } else {
            var message = "expected a key or \"}\", found \(token(at: index))"
            if byte == comma { message += "; remove the extra comma" }
            if isDigit(byte) { message += "; put keys that start with a digit in quotes" }
            if byte == minus { message += "; put keys that start with \"-\" in quotes" }
            if !json5, byte == apostrophe || scalar(at: index).map({ isIdentifierStart($0.scalar) }) == true {
                message += "; JSON keys are written in double quotes"
            }
            throw failure(at: index, message)
        }
        let keyPosition = position(of: start)
        let top = stack.count - 1
        if let first = stack[top].keyPositions[key] {
            duplicates.append(JSONSyntaxError(position: keyPosition,
                message: "the key \"\(key)\" appears again in this object (first at line \(first.line), column "
                    + "\(first.column)); remove one of them, since only one value is used"))
        } else {
            stack[top].keyPositions[key] = keyPosition
        }
        if recordingPositions { positions[SchemaReader.path(stack[top].path, key)] = keyPosition }
        stack[top].key = key
        try skipTrivia()
        guard let next = current else { throw unclosed() }
        if next != colon {
            var message = "expected \":\" after the key \"\(key)\", found \(token(at: index))"
            if next == minus || next == dot { message += "; put keys that contain \(token(at: index)) in quotes" }
            throw failure(at: index, message)
        }
        index += 1
        try skipTrivia()
        return "the value of \"\(key)\""
    }

    /// An unquoted JSON5 key: identifier characters and `\uXXXX` escapes of them.
    mutating func identifier() throws(JSONSyntaxError) -> String {
        var key = String.UnicodeScalarView()
        while let byte = current {
            if byte == backslash {
                let start = index
                guard peek(1) == UInt8(ascii: "u") else {
                    throw failure(at: index, "unexpected \"\\\" in a key; put the key in quotes")
                }
                index += 2
                guard let code = hex(digits: 4), let scalar = Unicode.Scalar(code),
                      key.isEmpty ? isIdentifierStart(scalar) : isIdentifierPart(scalar) else {
                    throw failure(at: start, "\\u in an unquoted key must be followed by 4 hexadecimal digits that "
                        + "name a letter, digit, \"$\" or \"_\"; put the key in quotes")
                }
                key.append(scalar)
            } else if let (scalar, length) = scalar(at: index), key.isEmpty ? isIdentifierStart(scalar) : isIdentifierPart(scalar) {
                key.append(scalar)
                index += length
            } else {
                break
            }
        }
        return String(key)
    }

    // MARK: Values

    mutating func scalarValue(expected: String) throws(JSONSyntaxError) -> JSONValue {
        guard let byte = current else {
            throw failure(at: index, "the \(textNoun) ends where \(expected) should be; complete the value and close the brackets")
        }
        switch byte {
        case quote:
            return .string(try string())
        case apostrophe where json5:
            return .string(try string())
        case apostrophe:
            throw failure(at: index, "JSON strings are written in double quotes, not '")
        case minus, plus, dot, zero...nine:
            return .number(try number())
        case comma:
            throw failure(at: index, "expected \(expected), found \",\"; remove the extra comma or add the missing value")
        default:
            if let (scalar, _) = scalar(at: index), isIdentifierStart(scalar) {
                return try word()
            }
            throw failure(at: index, "expected \(expected), found \(token(at: index))")
        }
    }

    /// A bare word as a value: only the literals are allowed.
    mutating func word() throws(JSONSyntaxError) -> JSONValue {
        let start = index
        let word = readWord()
        switch word {
        case "true": return .bool(true)
        case "false": return .bool(false)
        case "null": return .null
        case "Infinity" where json5: return .number(JSONNumber(value: .infinity, literal: word))
        case "NaN" where json5: return .number(JSONNumber(value: .nan, literal: word))
        default:
            throw failure(at: start, "unexpected word \"\(word)\"; put text in quotes (\"\(word)\"), or write true, false or null")
        }
    }

    /// Identifier characters from the current position (at most a few hundred are kept for
    /// messages; the rest are consumed).
    mutating func readWord() -> String {
        var word = String.UnicodeScalarView()
        var kept = 0
        while let (scalar, length) = scalar(at: index), isIdentifierPart(scalar) {
            if kept < 200 {
                word.append(scalar)
                kept += 1
            }
            index += length
        }
        return String(word)
    }

    mutating func number() throws(JSONSyntaxError) -> JSONNumber {
        let start = index
        var negative = false
        if current == plus || current == minus {
            if current == plus, !json5 {
                throw failure(at: index, "JSON numbers have no \"+\" sign; remove it")
            }
            negative = current == minus
            index += 1
        }
        guard let first = current else {
            throw failure(at: start, "expected digits after \"\(Unicode.Scalar(bytes[start]))\"")
        }
        var value: Double
        var isWord = false
        if let (scalar, _) = scalar(at: index), isIdentifierStart(scalar) {
            isWord = true
            let wordStart = index
            let word = readWord()
            guard json5, word == "Infinity" || word == "NaN" else {
                throw failure(at: wordStart, "expected a number after \"\(Unicode.Scalar(bytes[start]))\", found \"\(word)\"")
            }
            value = word == "NaN" ? .nan : .infinity
        } else if first == zero, peek(1) == UInt8(ascii: "x") || peek(1) == UInt8(ascii: "X") {
            guard json5 else { throw failure(at: index, "JSON numbers are decimal; write 31, not 0x1F") }
            index += 2
            guard hexValue(current) != nil else {
                throw failure(at: index, "expected hexadecimal digits after \"0x\"")
            }
            value = 0
            while let digit = hexValue(current) {
                value = value * 16 + Double(digit)
                index += 1
            }
        } else {
            if first == zero, isDigit(peek(1)) {
                throw failure(at: index, "a number cannot start with 0 followed by digits; write 8, not 08")
            }
            var digits = 0
            let integerStart = index
            while isDigit(current) { index += 1; digits += 1 }
            if !json5, digits == 0 {
                throw failure(at: index, "expected digits " + (index > start ? "after \"-\"" : "before \".\"; write 0.5, not .5"))
            }
            if current == dot {
                index += 1
                let fractionStart = index
                while isDigit(current) { index += 1; digits += 1 }
                if !json5, index == fractionStart {
                    throw failure(at: index, "expected digits after \".\"; write 5.0 or 5, not 5.")
                }
            }
            if digits == 0 {
                throw failure(at: index, index > start && bytes[start] != dot
                    ? "expected digits after \"\(Unicode.Scalar(bytes[start]))\"" : "expected digits around \".\"")
            }
            if current == UInt8(ascii: "e") || current == UInt8(ascii: "E") {
                index += 1
                if current == plus || current == minus { index += 1 }
                guard isDigit(current) else {
                    throw failure(at: index, "expected digits after the exponent \"e\"")
                }
                while isDigit(current) { index += 1 }
            }
            let length = index - start
            guard length <= JSONParser.maximumNumberLength else {
                throw failure(at: start, "a number of \(length) characters; numbers here need at most 17 significant "
                    + "digits, so write it with fewer (the limit is \(JSONParser.maximumNumberLength) characters)")
            }
            // JSON5 allows "5." and ".5"; the standard library's reader wants digits on both sides.
            var text = String(decoding: bytes[integerStart..<index], as: UTF8.self)
            if text.hasPrefix(".") { text = "0" + text }
            if let dotIndex = text.firstIndex(of: "."), text.index(after: dotIndex) == text.endIndex
                || text[text.index(after: dotIndex)] == "e" || text[text.index(after: dotIndex)] == "E" {
                text.insert("0", at: text.index(after: dotIndex))
            }
            value = Double(text) ?? .infinity
        }
        if let (scalar, _) = scalar(at: index), isIdentifierPart(scalar) || scalar == "." {
            throw failure(at: index, "unexpected \(token(at: index)) in a number; numbers are written like 12, -0.5, 1e3"
                + (json5 ? " or 0xFF" : ""))
        }
        let literal = String(decoding: bytes[start..<index], as: UTF8.self)
        if value.isInfinite, !isWord {
            let shown = literal.count > 24 ? String(literal.prefix(20)) + "… (\(literal.count) characters)" : literal
            throw failure(at: start, "the number \(shown) is too large to be represented (the largest is about "
                + "1.8e308); write a number within the range the key allows")
        }
        if index - start > JSONParser.maximumNumberLength {
            throw failure(at: start, "a number of \(index - start) characters; write it with fewer (the limit is "
                + "\(JSONParser.maximumNumberLength) characters)")
        }
        return JSONNumber(value: negative ? -value : value, literal: literal)
    }

    /// A string in `"` or (JSON5) `'` quotes, with its escapes resolved.
    mutating func string() throws(JSONSyntaxError) -> String {
        let open = index
        let closing = bytes[index]
        index += 1
        var runStart = index
        var escaped = false
        scratch.removeAll(keepingCapacity: true)
        while let byte = current {
            switch byte {
            case closing:
                let result: String
                if escaped {
                    scratch.append(contentsOf: bytes[runStart..<index])
                    result = String(decoding: scratch, as: UTF8.self)
                } else {
                    result = String(decoding: bytes[runStart..<index], as: UTF8.self)
                }
                index += 1
                return result
            case backslash:
                scratch.append(contentsOf: bytes[runStart..<index])
                escaped = true
                try escape()
                runStart = index
            case newline, carriageReturn:
                throw failure(at: open, "unterminated string: the line ends before the closing \(Unicode.Scalar(closing)); "
                    + "close the string, or write \\n for a line break")
            default:
                if byte < 0x20 {
                    throw failure(at: index, "a control character (\(Self.name(of: Unicode.Scalar(byte)))) inside a string; "
                        + "write it as an escape such as \\t")
                }
                index += 1
            }
        }
        throw failure(at: open, "unterminated string; add the closing \(Unicode.Scalar(closing))")
    }

    /// One escape sequence at the current backslash, appended to `scratch`.
    mutating func escape() throws(JSONSyntaxError) {
        let start = index
        index += 1
        guard let byte = current else { return }
        switch byte {
        case UInt8(ascii: "b"): scratch.append(0x08); index += 1
        case UInt8(ascii: "f"): scratch.append(0x0C); index += 1
        case UInt8(ascii: "n"): scratch.append(0x0A); index += 1
        case UInt8(ascii: "r"): scratch.append(0x0D); index += 1
        case UInt8(ascii: "t"): scratch.append(0x09); index += 1
        case UInt8(ascii: "v") where json5: scratch.append(0x0B); index += 1
        case UInt8(ascii: "/"), backslash, quote: scratch.append(byte); index += 1
        case apostrophe where json5: scratch.append(byte); index += 1
        case newline where json5:
            index += 1
            lineEnded(nextLineStart: index)
        case carriageReturn where json5:
            index += peek(1) == newline ? 2 : 1
            lineEnded(nextLineStart: index)
        case 0xE2 where json5 && peek(1) == 0x80 && (peek(2) == 0xA8 || peek(2) == 0xA9):
            index += 3  // U+2028 or U+2029 as a line continuation
        case UInt8(ascii: "0") where json5:
            if isDigit(peek(1)) {
                throw failure(at: start, "\"\\0\" followed by a digit is not an escape; write \\u0000-style escapes, "
                    + "or \\\\ for a backslash")
            }
            throw failure(at: start, "\\0 (NUL) is not allowed in a string; remove it")
        case UInt8(ascii: "u"):
            try codeEscape(start: start, digits: 4)
        case UInt8(ascii: "x") where json5:
            try codeEscape(start: start, digits: 2)
        default:
            let shown = scalar(at: index).map { String(Character($0.scalar)) } ?? "?"
            throw failure(at: start, "unknown escape \"\\\(shown)\"; write \"\\\\\" for a backslash (" + (json5
                ? "JSON5 strings take \\b \\f \\n \\r \\t \\v \\0 \\/ \\\\ \\' \\\" \\uXXXX and \\xXX)"
                : "JSON strings take \\b \\f \\n \\r \\t \\/ \\\\ \\\" and \\uXXXX)"))
        }
    }

    /// `\uXXXX` (a UTF-16 pair of them for scalars beyond U+FFFF) or `\xXX`, after the
    /// backslash at `start`, appended to `scratch`.
    mutating func codeEscape(start: Int, digits: Int) throws(JSONSyntaxError) {
        let letter = bytes[index]
        func append(_ scalar: Unicode.Scalar) {
            UTF8.encode(scalar) { scratch.append($0) }
        }
        index += 1
        guard let code = hex(digits: digits) else {
            throw failure(at: start, "\\\(Unicode.Scalar(letter)) must be followed by \(digits) hexadecimal digits")
        }
        if code == 0 {
            throw failure(at: start, "\\\(Unicode.Scalar(letter))\(String(repeating: "0", count: digits)) (NUL) is not "
                + "allowed in a string; remove it")
        }
        if (0xD800...0xDBFF).contains(code) {
            // A UTF-16 pair: the second half must follow at once.
            if current == backslash, peek(1) == UInt8(ascii: "u") {
                let second = index
                index += 2
                if let low = hex(digits: 4), (0xDC00...0xDFFF).contains(low) {
                    append(Unicode.Scalar(0x10000 + (code - 0xD800) << 10 + (low - 0xDC00))!)
                    return
                }
                index = second
            }
            throw failure(at: start, "\\u\(Self.hex4(code)) is the first half of a UTF-16 surrogate pair, but no "
                + "second half (\\uDC00 to \\uDFFF) follows; write both halves, or the character itself")
        }
        if (0xDC00...0xDFFF).contains(code) {
            throw failure(at: start, "\\u\(Self.hex4(code)) is the second half of a UTF-16 surrogate pair without "
                + "its first half; write both halves, or the character itself")
        }
        append(Unicode.Scalar(code)!)
    }

    /// `digits` hexadecimal digits as a number, consumed; `nil` (nothing consumed past the
    /// first non-digit) when there are fewer.
    mutating func hex(digits: Int) -> UInt32? {
        var code: UInt32 = 0
        for _ in 0..<digits {
            guard let digit = hexValue(current) else { return nil }
            code = code << 4 | digit
            index += 1
        }
        return code
    }

    static func hex4(_ code: UInt32) -> String {
        let hex = String(code, radix: 16, uppercase: true)
        return String(repeating: "0", count: max(0, 4 - hex.count)) + hex
    }

    // MARK: Trivia

    /// Whitespace and (JSON5) comments; counts lines.
    mutating func skipTrivia() throws(JSONSyntaxError) {
        while let byte = current {
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"):
                index += 1
            case newline:
                index += 1
                lineEnded(nextLineStart: index)
            case carriageReturn:
                index += peek(1) == newline ? 2 : 1
                lineEnded(nextLineStart: index)
            case 0x0B where json5, 0x0C where json5:
                index += 1
            case slash where json5:
                if peek(1) == slash {
                    while let next = current, next != newline, next != carriageReturn { index += 1 }
                } else if peek(1) == star {
                    let start = index
                    index += 2
                    while true {
                        guard let next = current else {
                            throw failure(at: start, "unterminated comment; close it with */")
                        }
                        if next == star, peek(1) == slash {
                            index += 2
                            break
                        } else if next == newline {
                            index += 1
                            lineEnded(nextLineStart: index)
                        } else if next == carriageReturn {
                            index += peek(1) == newline ? 2 : 1
                            lineEnded(nextLineStart: index)
                        } else {
                            index += 1
                        }
                    }
                } else {
                    throw failure(at: index, "unexpected \"/\"; comments start with // or /*")
                }
            case slash:
                throw failure(at: index, "JSON has no comments; remove it")
            default:
                // JSON5 also takes Unicode spaces (Zs), the byte-order mark and the line and
                // paragraph separators as whitespace.
                guard json5, byte >= 0x80, let (scalar, length) = scalar(at: index),
                      scalar == "\u{FEFF}" || scalar == "\u{2028}" || scalar == "\u{2029}"
                        || scalar.properties.generalCategory == .spaceSeparator else { return }
                index += length
            }
        }
    }

    // MARK: Messages

    /// The token at `offset` as a message names it: a word or number in quotes, a string, a
    /// punctuation character in quotes, an invisible character by its code point.
    func token(at offset: Int) -> String {
        guard let (scalar, _) = scalar(at: offset) else { return "the end of the \(textNoun)" }
        if scalar == "\"" || scalar == "'" { return "a string" }
        if isIdentifierPart(scalar) {
            var word = String.UnicodeScalarView()
            var cursor = offset
            while word.count < 40, let (next, length) = self.scalar(at: cursor), isIdentifierPart(next) {
                word.append(next)
                cursor += length
            }
            return "\"\(String(word))\""
        }
        if scalar.value < 0x20 || scalar.value == 0x7F || scalar.properties.isWhitespace
            || scalar.properties.generalCategory == .format {
            return Self.name(of: scalar)
        }
        return "\"\(scalar)\""
    }

    /// An invisible character by code point, so the user can find it in an editor.
    static func name(of scalar: Unicode.Scalar) -> String {
        let hex = String(scalar.value, radix: 16, uppercase: true)
        let code = "U+" + String(repeating: "0", count: max(0, 4 - hex.count)) + hex
        switch scalar {
        case "\t": return "\(code), a tab"
        case "\u{A0}": return "\(code), a no-break space; replace it with a plain space"
        case "\u{FEFF}": return "\(code), a byte-order mark"
        default: return "\(code), an invisible character"
        }
    }
}
