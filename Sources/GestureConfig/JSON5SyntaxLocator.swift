/// Finds the line and column of the first syntax error in JSON5 text, with a short description
/// of what is wrong. The toolchain's JSON5 decoder only says "not valid JSON", so this runs
/// after it has failed, to tell the user where to look (SPEC 12).
///
/// It follows the grammar as the decoder accepts it, which is slightly stricter than the JSON5
/// specification: escapes are `\b \f \n \r \t \/ \\ \' \"`, `\uXXXX`, `\xXX` and a line
/// continuation (no `\v`, no `\0`), whitespace is ASCII only, and keys are identifiers or strings.
public enum JSON5SyntaxLocator {
    /// Where a syntax error is (1-based; columns count Unicode scalars, so a tab is one column)
    /// and a sentence that says what is wrong and what to change.
    public struct Finding: Hashable, Sendable, CustomStringConvertible {
        public var line: Int
        public var column: Int
        public var message: String

        public init(line: Int, column: Int, message: String) {
            self.line = line
            self.column = column
            self.message = message
        }

        public var description: String { "\(line):\(column): \(message)" }
    }

    /// The first syntax error in `text`, or `nil` if the text is well-formed JSON5.
    public static func firstError(in text: String) -> Finding? {
        var scanner = Scanner(Array(text.unicodeScalars))
        do {
            try scanner.document()
            return nil
        } catch {
            let (line, column) = scanner.position(of: error.index)
            return Finding(line: line, column: column, message: error.message)
        }
    }

    /// Keys that appear more than once in the same object, which the decoder accepts silently
    /// keeping only one value: each repetition, in document order. Stops at a syntax error.
    public static func duplicateKeys(in text: String) -> [Finding] {
        var scanner = Scanner(Array(text.unicodeScalars))
        try? scanner.document()
        return scanner.duplicates.map { duplicate in
            let (line, column) = scanner.position(of: duplicate.index)
            let (firstLine, firstColumn) = scanner.position(of: duplicate.first)
            return Finding(line: line, column: column,
                           message: "the key \"\(duplicate.key)\" appears again in this object (first at line \(firstLine), "
                               + "column \(firstColumn)); remove one of them, since only one value is used")
        }
    }

    /// A syntax error at a scalar index.
    private struct Failure: Error {
        var index: Int
        var message: String
    }

    /// A recursive-descent reader over the text's Unicode scalars that stops at the first
    /// error; it builds nothing, since the decoder already produced (or will produce) the values.
    private struct Scanner {
        let text: [Unicode.Scalar]
        var index = 0
        /// Repeated keys: where, which, and where the first one is.
        var duplicates: [(index: Int, key: String, first: Int)] = []

        init(_ text: [Unicode.Scalar]) { self.text = text }

        var atEnd: Bool { index >= text.count }
        var current: Unicode.Scalar? { index < text.count ? text[index] : nil }
        func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < text.count ? text[index + offset] : nil }

        mutating func document() throws(Failure) {
            if current == "\u{FEFF}" { index += 1 }
            try skipTrivia()
            if atEnd {
                throw Failure(index: index, message: "the file is empty; write a JSON5 object such as { id: \"root\", frame: [0, 0, 1920, 1080] }")
            }
            try value(expected: "a value")
            try skipTrivia()
            if !atEnd {
                throw Failure(index: index, message: "unexpected \(token(at: index)) after the end of the top-level value; "
                    + "remove it, or check the brackets above for one closed too early")
            }
        }

        // MARK: Trivia

        static func isWhitespace(_ scalar: Unicode.Scalar) -> Bool {
            scalar == " " || scalar == "\t" || scalar == "\n" || scalar == "\r" || scalar == "\u{0B}" || scalar == "\u{0C}"
        }

        mutating func skipTrivia() throws(Failure) {
            while let scalar = current {
                if Self.isWhitespace(scalar) {
                    index += 1
                } else if scalar == "/" {
                    switch peek(1) {
                    case "/":
                        while let next = current, next != "\n", next != "\r" { index += 1 }
                    case "*":
                        let start = index
                        index += 2
                        while !atEnd, !(current == "*" && peek(1) == "/") { index += 1 }
                        if atEnd { throw Failure(index: start, message: "unterminated comment; close it with */") }
                        index += 2
                    default:
                        throw Failure(index: index, message: "unexpected \"/\"; comments start with // or /*")
                    }
                } else {
                    return
                }
            }
        }

        // MARK: Values

        static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "$" || scalar == "_" || scalar.properties.isAlphabetic
        }

        static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
            isIdentifierStart(scalar) || ("0"..."9").contains(scalar)
        }

        static func isDigit(_ scalar: Unicode.Scalar?) -> Bool {
            guard let scalar else { return false }
            return ("0"..."9").contains(scalar)
        }

        static func isHexDigit(_ scalar: Unicode.Scalar?) -> Bool {
            guard let scalar else { return false }
            return isDigit(scalar) || ("a"..."f").contains(scalar) || ("A"..."F").contains(scalar)
        }

        /// One value; `expected` names it for messages ("the value of "alpha"").
        mutating func value(expected: String) throws(Failure) {
            guard let scalar = current else {
                throw Failure(index: index, message: "the file ends where \(expected) should be; complete the value and close the brackets")
            }
            switch scalar {
            case "{": try object()
            case "[": try array()
            case "\"", "'": try string()
            case "-", "+", ".", "0"..."9": try number()
            case ",":
                throw Failure(index: index, message: "expected \(expected), found \",\"; remove the extra comma or add the missing value")
            default:
                if Self.isIdentifierStart(scalar) {
                    try word()
                } else {
                    throw Failure(index: index, message: "expected \(expected), found \(token(at: index))")
                }
            }
        }

        mutating func object() throws(Failure) {
            let open = index
            index += 1
            try skipTrivia()
            if current == "}" {
                index += 1
                return
            }
            var seen: [String: Int] = [:]
            while true {
                guard let scalar = current else { throw unclosed("object", open: open, close: "}") }
                let keyStart = index
                let key: String
                if scalar == "\"" || scalar == "'" {
                    let start = index
                    try string()
                    key = String(String.UnicodeScalarView(text[(start + 1)..<(index - 1)]))
                } else if Self.isIdentifierStart(scalar) || scalar == "\\" {
                    key = try identifier()
                } else {
                    var message = "expected a key or \"}\", found \(token(at: index))"
                    if scalar == "," { message += "; remove the extra comma" }
                    if Self.isDigit(scalar) { message += "; put keys that start with a digit in quotes" }
                    if scalar == "-" { message += "; put keys that start with \"-\" in quotes" }
                    throw Failure(index: index, message: message)
                }
                if let first = seen[key] {
                    duplicates.append((keyStart, key, first))
                } else {
                    seen[key] = keyStart
                }
                try skipTrivia()
                guard let colon = current else { throw unclosed("object", open: open, close: "}") }
                if colon != ":" {
                    var message = "expected \":\" after the key \"\(key)\", found \(token(at: index))"
                    if colon == "-" || colon == "." { message += "; put keys that contain \(token(at: index)) in quotes" }
                    throw Failure(index: index, message: message)
                }
                index += 1
                try skipTrivia()
                try value(expected: "the value of \"\(key)\"")
                let valueEnd = index
                try skipTrivia()
                guard let next = current else { throw unclosed("object", open: open, close: "}") }
                if next == "," {
                    index += 1
                    try skipTrivia()
                    if current == "}" {
                        index += 1
                        return
                    }
                } else if next == "}" {
                    index += 1
                    return
                } else if startsValue(next) {
                    throw Failure(index: valueEnd, message: "missing \",\" between the value of \"\(key)\" and \(token(at: index)); add a comma")
                } else {
                    throw Failure(index: index, message: "expected \",\" or \"}\" after the value of \"\(key)\", found \(token(at: index))"
                        + (next == "]" ? "; close the object with \"}\"" : ""))
                }
            }
        }

        mutating func array() throws(Failure) {
            let open = index
            index += 1
            try skipTrivia()
            if current == "]" {
                index += 1
                return
            }
            var element = 0
            while true {
                if atEnd { throw unclosed("array", open: open, close: "]") }
                try value(expected: "element [\(element)] or \"]\"")
                let valueEnd = index
                try skipTrivia()
                guard let next = current else { throw unclosed("array", open: open, close: "]") }
                if next == "," {
                    index += 1
                    try skipTrivia()
                    if current == "]" {
                        index += 1
                        return
                    }
                } else if next == "]" {
                    index += 1
                    return
                } else if startsValue(next) {
                    throw Failure(index: valueEnd, message: "missing \",\" after element [\(element)]; add a comma before the next element")
                } else {
                    throw Failure(index: index, message: "expected \",\" or \"]\" after element [\(element)], found \(token(at: index))"
                        + (next == "}" ? "; close the array with \"]\"" : ""))
                }
                element += 1
            }
        }

        func startsValue(_ scalar: Unicode.Scalar) -> Bool {
            scalar == "{" || scalar == "[" || scalar == "\"" || scalar == "'" || scalar == "-" || scalar == "+"
                || scalar == "." || Self.isDigit(scalar) || Self.isIdentifierStart(scalar)
        }

        func unclosed(_ what: String, open: Int, close: String) -> Failure {
            let (line, column) = position(of: open)
            return Failure(index: index, message: "the file ends inside the \(what) that starts at line \(line), column \(column); add the missing \"\(close)\"")
        }

        mutating func string() throws(Failure) {
            let open = index
            let quote = text[index]
            index += 1
            while let scalar = current {
                switch scalar {
                case quote:
                    index += 1
                    return
                case "\\":
                    try escape()
                case "\n", "\r":
                    throw Failure(index: open, message: "unterminated string: the line ends before the closing \(quote); "
                        + "close the string, or write \\n for a line break")
                default:
                    if scalar.value < 0x20 {
                        throw Failure(index: index, message: "a control character (\(Self.name(of: scalar))) inside a string; "
                            + "write it as an escape such as \\t")
                    }
                    index += 1
                }
            }
            throw Failure(index: open, message: "unterminated string; add the closing \(quote)")
        }

        mutating func escape() throws(Failure) {
            let backslash = index
            index += 1
            guard let scalar = current else { return }
            switch scalar {
            case "b", "f", "n", "r", "t", "/", "\\", "'", "\"", "\n":
                index += 1
            case "\r":
                index += current == "\r" && peek(1) == "\n" ? 2 : 1
            case "u", "x":
                let digits = scalar == "u" ? 4 : 2
                index += 1
                for _ in 0..<digits {
                    guard Self.isHexDigit(current) else {
                        throw Failure(index: backslash, message: "\\\(scalar) must be followed by \(digits) hexadecimal digits")
                    }
                    index += 1
                }
            default:
                throw Failure(index: backslash, message: "unknown escape \"\\\(scalar)\"; write \"\\\\\" for a backslash"
                    + " (the decoder accepts \\b \\f \\n \\r \\t \\/ \\\\ \\' \\\" \\uXXXX and \\xXX)")
            }
        }

        mutating func number() throws(Failure) {
            let start = index
            if current == "+" || current == "-" { index += 1 }
            guard let first = current else {
                throw Failure(index: start, message: "expected digits after \"\(text[start])\"")
            }
            if Self.isIdentifierStart(first) {
                let wordStart = index
                let word = readWord()
                if word != "Infinity" && word != "NaN" {
                    throw Failure(index: wordStart, message: "expected a number after \"\(text[start])\", found \"\(word)\"")
                }
            } else if first == "0", peek(1) == "x" || peek(1) == "X" {
                index += 2
                guard Self.isHexDigit(current) else {
                    throw Failure(index: index, message: "expected hexadecimal digits after \"0x\"")
                }
                while Self.isHexDigit(current) { index += 1 }
            } else {
                var digits = 0
                if first == "0", Self.isDigit(peek(1)) {
                    throw Failure(index: index, message: "a number cannot start with 0 followed by digits; write 8, not 08")
                }
                while Self.isDigit(current) { index += 1; digits += 1 }
                if current == "." {
                    index += 1
                    while Self.isDigit(current) { index += 1; digits += 1 }
                }
                if digits == 0 {
                    throw Failure(index: index, message: index > start && text[start] != "."
                        ? "expected digits after \"\(text[start])\"" : "expected digits around \".\"")
                }
                if current == "e" || current == "E" {
                    index += 1
                    if current == "+" || current == "-" { index += 1 }
                    guard Self.isDigit(current) else {
                        throw Failure(index: index, message: "expected digits after the exponent \"e\"")
                    }
                    while Self.isDigit(current) { index += 1 }
                }
            }
            if let next = current, Self.isIdentifierPart(next) || next == "." {
                throw Failure(index: index, message: "unexpected \(token(at: index)) in a number; numbers are written like 12, -0.5, 1e3 or 0xFF")
            }
        }

        /// A bare word as a value: only the JSON5 literals are allowed.
        mutating func word() throws(Failure) {
            let start = index
            let word = readWord()
            switch word {
            case "true", "false", "null", "Infinity", "NaN":
                return
            default:
                throw Failure(index: start, message: "unexpected word \"\(word)\"; put text in quotes (\"\(word)\"), "
                    + "or write true, false or null")
            }
        }

        mutating func readWord() -> String {
            var word = String.UnicodeScalarView()
            while let scalar = current, Self.isIdentifierPart(scalar) {
                word.append(scalar)
                index += 1
            }
            return String(word)
        }

        /// An unquoted key: identifier characters and `\uXXXX` escapes.
        mutating func identifier() throws(Failure) -> String {
            var key = String.UnicodeScalarView()
            while let scalar = current {
                if scalar == "\\" {
                    guard peek(1) == "u" else {
                        throw Failure(index: index, message: "unexpected \"\\\" in a key; put the key in quotes")
                    }
                    let start = index
                    try escape()
                    key.append(contentsOf: text[start..<index])
                } else if Self.isIdentifierPart(scalar) {
                    key.append(scalar)
                    index += 1
                } else {
                    break
                }
            }
            return String(key)
        }

        // MARK: Messages

        /// The token at `index` as a message names it: a word or number in quotes, a string,
        /// a punctuation character in quotes, an invisible character by its code point.
        func token(at index: Int) -> String {
            guard index < text.count else { return "the end of the file" }
            let scalar = text[index]
            if scalar == "\"" || scalar == "'" { return "a string" }
            if Self.isIdentifierPart(scalar) {
                var end = index
                while end < text.count, Self.isIdentifierPart(text[end]), end - index < 40 { end += 1 }
                return "\"\(String(String.UnicodeScalarView(text[index..<end])))\""
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

        /// 1-based line and column of a scalar index; `\r\n`, `\n` and `\r` each end a line.
        func position(of target: Int) -> (line: Int, column: Int) {
            var line = 1
            var lineStart = 0
            var i = 0
            while i < min(target, text.count) {
                if text[i] == "\n" || (text[i] == "\r" && (i + 1 >= text.count || text[i + 1] != "\n")) {
                    line += 1
                    lineStart = i + 1
                }
                i += 1
            }
            return (line, target - lineStart + 1)
        }
    }
}
