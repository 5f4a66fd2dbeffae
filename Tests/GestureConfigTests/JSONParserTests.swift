import Testing
@testable import GestureConfig

/// The parser must point at the first syntax error the way a person would look for it: a
/// missing comma at the end of the value before it, an unterminated string at its opening
/// quote, a stray character where it is.
struct JSONParserTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var text: String
        var line: Int
        var column: Int
        var message: String
        var testDescription: String { text.debugDescription }
    }

    static let malformed: [Case] = [
        Case(text: "{a: 1 b: 2}", line: 1, column: 6,
             message: "missing \",\" between the value of \"a\" and \"b\"; add a comma"),
        Case(text: "{\r\n  a: 1\r\n  b: 2\r\n}", line: 2, column: 7,
             message: "missing \",\" between the value of \"a\" and \"b\"; add a comma"),
        Case(text: "{\n  a: 'x' // note\n  'b': 2\n}", line: 2, column: 9,
             message: "missing \",\" between the value of \"a\" and a string; add a comma"),
        Case(text: "[1, 2 3]", line: 1, column: 6, message: "missing \",\" after element [1]; add a comma before the next element"),
        Case(text: "[1, 2", line: 1, column: 6,
             message: "the file ends inside the array that starts at line 1, column 1; add the missing \"]\""),
        Case(text: "{\n  a: {\n    b: 1\n", line: 4, column: 1,
             message: "the file ends inside the object that starts at line 2, column 6; add the missing \"}\""),
        Case(text: "{a: 1} x", line: 1, column: 8,
             message: "unexpected \"x\" after the end of the top-level value; remove it, or check the brackets above for one closed too early"),
        Case(text: "{a: 1}}", line: 1, column: 7,
             message: "unexpected \"}\" after the end of the top-level value; remove it, or check the brackets above for one closed too early"),
        Case(text: "{a: 'abc}", line: 1, column: 5, message: "unterminated string; add the closing '"),
        Case(text: "{a: \"x\ny\"}", line: 1, column: 5,
             message: "unterminated string: the line ends before the closing \"; close the string, or write \\n for a line break"),
        Case(text: "{a: \"x\ty\"}", line: 1, column: 7,
             message: "a control character (U+0009, a tab) inside a string; write it as an escape such as \\t"),
        Case(text: "{a: 'x\\q'}", line: 1, column: 7,
             message: "unknown escape \"\\q\"; write \"\\\\\" for a backslash (JSON5 strings take \\b \\f \\n \\r \\t \\v \\0 \\/ \\\\ \\' \\\" \\uXXXX and \\xXX)"),
        Case(text: "{a: 'x\\u12'}", line: 1, column: 7, message: "\\u must be followed by 4 hexadecimal digits"),
        Case(text: "{a: 1 /* x", line: 1, column: 7, message: "unterminated comment; close it with */"),
        Case(text: "{a: /x/}", line: 1, column: 5, message: "unexpected \"/\"; comments start with // or /*"),
        Case(text: "{a: 01}", line: 1, column: 5, message: "a number cannot start with 0 followed by digits; write 8, not 08"),
        Case(text: "{a: 1_000}", line: 1, column: 6,
             message: "unexpected \"_000\" in a number; numbers are written like 12, -0.5, 1e3 or 0xFF"),
        Case(text: "{a: 1.2.3}", line: 1, column: 8,
             message: "unexpected \".\" in a number; numbers are written like 12, -0.5, 1e3 or 0xFF"),
        Case(text: "{a: 1e}", line: 1, column: 7, message: "expected digits after the exponent \"e\""),
        Case(text: "{a: 0x}", line: 1, column: 7, message: "expected hexadecimal digits after \"0x\""),
        Case(text: "{a: -}", line: 1, column: 6, message: "expected digits after \"-\""),
        Case(text: "{a: -Inf}", line: 1, column: 6, message: "expected a number after \"-\", found \"Inf\""),
        Case(text: "{a: yes}", line: 1, column: 5,
             message: "unexpected word \"yes\"; put text in quotes (\"yes\"), or write true, false or null"),
        Case(text: "{a: True}", line: 1, column: 5,
             message: "unexpected word \"True\"; put text in quotes (\"True\"), or write true, false or null"),
        Case(text: "{a-b: 1}", line: 1, column: 3,
             message: "expected \":\" after the key \"a\", found \"-\"; put keys that contain \"-\" in quotes"),
        Case(text: "{1a: 1}", line: 1, column: 2,
             message: "expected a key or \"}\", found \"1a\"; put keys that start with a digit in quotes"),
        Case(text: "{\"a\" 1}", line: 1, column: 6, message: "expected \":\" after the key \"a\", found \"1\""),
        Case(text: "{a: [1, 2}", line: 1, column: 10,
             message: "expected \",\" or \"]\" after element [1], found \"}\"; close the array with \"]\""),
        Case(text: "{a: {b: 1]}", line: 1, column: 10,
             message: "expected \",\" or \"}\" after the value of \"b\", found \"]\"; close the object with \"}\""),
        Case(text: "{a: 1,, b: 2}", line: 1, column: 7, message: "expected a key or \"}\", found \",\"; remove the extra comma"),
        Case(text: "[1,,2]", line: 1, column: 4,
             message: "expected element [1] or \"]\", found \",\"; remove the extra comma or add the missing value"),
        Case(text: "{a: }", line: 1, column: 5, message: "expected the value of \"a\", found \"}\""),
        Case(text: "{a:\u{200B}1}", line: 1, column: 4,
             message: "expected the value of \"a\", found U+200B, an invisible character"),
        Case(text: "", line: 1, column: 1,
             message: "the file is empty; write a JSON5 object such as { id: \"root\", frame: [0, 0, 1920, 1080] }"),
        Case(text: "// nothing yet\n", line: 2, column: 1,
             message: "the file is empty; write a JSON5 object such as { id: \"root\", frame: [0, 0, 1920, 1080] }"),
        Case(text: "{\n  id: \"é\",\n  främe: [0, 0, 1, 1]\n  x: 1\n}", line: 3, column: 22,
             message: "missing \",\" between the value of \"främe\" and \"x\"; add a comma"),
    ]

    @Test(arguments: malformed)
    func findsTheFirstError(_ example: Case) {
        #expect(throws: JSONSyntaxError(line: example.line, column: example.column, message: example.message)) {
            try JSONParser.parse(example.text)
        }
    }

    /// Issue 12: what the toolchain's decoder answered with "not valid JSON5 … look for
    /// characters outside plain ASCII" and no position, or a `DecodingError` dump.
    static let formerlyUnlocated: [Case] = [
        Case(text: "{a: \"x\\u0000y\"}", line: 1, column: 7, message: "\\u0000 (NUL) is not allowed in a string; remove it"),
        Case(text: "{a: 'x\\0'}", line: 1, column: 7, message: "\\0 (NUL) is not allowed in a string; remove it"),
        Case(text: "{a: \"\\uD800\"}", line: 1, column: 6,
             message: "\\uD800 is the first half of a UTF-16 surrogate pair, but no second half (\\uDC00 to \\uDFFF) "
                + "follows; write both halves, or the character itself"),
        Case(text: "{a: \"\\uD800\\u0041\"}", line: 1, column: 6,
             message: "\\uD800 is the first half of a UTF-16 surrogate pair, but no second half (\\uDC00 to \\uDFFF) "
                + "follows; write both halves, or the character itself"),
        Case(text: "{\n  a: \"\\uDC00\"}", line: 2, column: 7,
             message: "\\uDC00 is the second half of a UTF-16 surrogate pair without its first half; write both halves, "
                + "or the character itself"),
        Case(text: "{a: 1e309}", line: 1, column: 5,
             message: "the number 1e309 is too large to be represented (the largest is about 1.8e308); write a number "
                + "within the range the key allows"),
        Case(text: "{a: -1e309}", line: 1, column: 5,
             message: "the number -1e309 is too large to be represented (the largest is about 1.8e308); write a number "
                + "within the range the key allows"),
        Case(text: "{a: 1" + String(repeating: "0", count: 399) + "}", line: 1, column: 5,
             message: "the number 10000000000000000000… (400 characters) is too large to be represented (the largest is "
                + "about 1.8e308); write a number within the range the key allows"),
        Case(text: "{a: 0." + String(repeating: "0", count: 500) + "1}", line: 1, column: 5,
             message: "a number of 503 characters; numbers here need at most 17 significant digits, so write it with "
                + "fewer (the limit is 400 characters)"),
        Case(text: String(repeating: "[", count: 128) + "{}" + String(repeating: "]", count: 128), line: 1, column: 129,
             message: "objects and arrays nest more than 128 levels deep here; that is the limit (docs/limits.md), "
                + "so flatten the structure"),
        Case(text: "{a: \"\u{7}\"}", line: 1, column: 6,
             message: "a control character (U+0007, an invisible character) inside a string; write it as an escape such as \\t"),
    ]

    @Test(arguments: formerlyUnlocated)
    func locatesWhatTheDecoderCouldNot(_ example: Case) {
        #expect(throws: JSONSyntaxError(line: example.line, column: example.column, message: example.message)) {
            try JSONParser.parse(example.text)
        }
    }

    /// Issue 12: 31,000 `[` overflowed the stack of the recursive locator. The parser keeps
    /// its own stack and stops at the limit, wherever the text goes on.
    @Test func deepNestingStopsAtTheLimitWithoutRecursion() {
        let text = String(repeating: "[", count: 200_000)
        #expect(throws: JSONSyntaxError(line: 1, column: 129, message: "objects and arrays nest more than 128 levels deep "
            + "here; that is the limit (docs/limits.md), so flatten the structure")) {
            try JSONParser.parse(text)
        }
        let deepest = String(repeating: "[", count: 128) + String(repeating: "]", count: 128)
        #expect((try? JSONParser.parse(deepest)) != nil)
    }

    static let wellFormed = [
        "{a: 1, b: 'x', c: [1, 2,], d: null, e: true, f: 0x10, g: Infinity, h: -Infinity, i: NaN, j: .5, k: +3,}",
        "// leading comment\n{ /* inline */ a: 1e3, \"b\": 1E-2, 'c': 5., $d_1: [ ], }\n// trailing\n",
        "{a: 'it\\'s', b: \"say \\\"hi\\\"\", c: '\\u0041\\x41\\n\\t\\/', d: 'line \\\ncontinued'}",
        "\u{FEFF}{a: [{}, [], [[]]]}",
        "{a: -0x1F, b: +.5e+2, c: 0, d: -0.0}",
        "[1, 'two', {three: 3}]",
        "{é: 1, _: 2}",
        "{a: 'x'}\r\n",
        // JSON5 whitespace includes Unicode spaces and the no-break space.
        "{a:\u{A0}1,\u{2003}b: 2}",
        "{a: '\\v', \\u0062: 1, c: '😀 \\uD83D\\uDE00'}",
    ]

    @Test(arguments: wellFormed)
    func acceptsJSON5(_ text: String) throws {
        _ = try JSONParser.parse(text)
    }

    @Test func reportsThroughTheLoaderWithTheFileName() {
        #expect(throws: ConfigurationError(file: "kiosk.json5", problems: [
            ConfigurationProblem(file: "kiosk.json5", location: .position(line: 1, column: 6),
                                 message: "missing \",\" between the value of \"a\" and \"b\"; add a comma"),
        ])) {
            try ConfigurationLoader.parse(text: "{a: 1 b: 2}", file: "kiosk.json5")
        }
    }

    @Test func buildsTheValue() throws {
        let value = try JSONParser.parse("{a: [1, 'x', true, null, {b: -2}], c: 0x1F, d: '\\u00e9\\uD83D\\uDE00\\x41'}").value
        #expect(value == .object(["a": .array([.number(1), .string("x"), .bool(true), .null, .object(["b": .number(-2)])]),
                                  "c": .number(31), "d": .string("é😀A")]))
    }

    @Test func keepsTheLiteralOfEveryNumber() throws {
        guard case .array(let numbers) = try JSONParser.parse("[9007199254740993, -0.50, 1e3]", dialect: .json).value else {
            Issue.record("not an array")
            return
        }
        #expect(numbers.map { guard case .number(let number) = $0 else { return "" }; return number.literal }
            == ["9007199254740993", "-0.50", "1e3"])
    }

    /// Every key's position, under the key path the schema reader uses.
    @Test func recordsThePositionOfEveryKey() throws {
        let text = "{\n  id: 'root',\n  subviews: [\n    { 'my key': 1 },\n    {x: [5, 6]},\n  ],\n}"
        let positions = try JSONParser.parse(text, recordingPositions: true).positions
        #expect(positions[""] == SourcePosition(line: 1, column: 1))
        #expect(positions["id"] == SourcePosition(line: 2, column: 3))
        #expect(positions["subviews"] == SourcePosition(line: 3, column: 3))
        #expect(positions["subviews[0]"] == SourcePosition(line: 4, column: 5))
        #expect(positions["subviews[0][\"my key\"]"] == SourcePosition(line: 4, column: 7))
        #expect(positions["subviews[1].x"] == SourcePosition(line: 5, column: 6))
        #expect(positions["subviews[1].x[1]"] == SourcePosition(line: 5, column: 13))
    }

    /// Socket requests are strict JSON (RFC 8259): JSON5's additions are errors that say so.
    static let notJSON: [Case] = [
        Case(text: "{'a': 1}", line: 1, column: 2, message: "expected a key or \"}\", found a string; JSON keys are written in double quotes"),
        Case(text: "{a: 1}", line: 1, column: 2, message: "expected a key or \"}\", found \"a\"; JSON keys are written in double quotes"),
        Case(text: "{\"a\": 1,}", line: 1, column: 9,
             message: "unexpected \"}\" after a comma; JSON allows no comma after the last member, remove it"),
        Case(text: "[1,]", line: 1, column: 4,
             message: "unexpected \"]\" after a comma; JSON allows no comma after the last element, remove it"),
        Case(text: "{\"a\": 0x1F}", line: 1, column: 7, message: "JSON numbers are decimal; write 31, not 0x1F"),
        Case(text: "{\"a\": +1}", line: 1, column: 7, message: "JSON numbers have no \"+\" sign; remove it"),
        Case(text: "{\"a\": .5}", line: 1, column: 7, message: "expected digits before \".\"; write 0.5, not .5"),
        Case(text: "{\"a\": NaN}", line: 1, column: 7,
             message: "unexpected word \"NaN\"; put text in quotes (\"NaN\"), or write true, false or null"),
        Case(text: "{\"a\": 1} // x", line: 1, column: 10, message: "JSON has no comments; remove it"),
        Case(text: "{\"a\": \"\\x41\"}", line: 1, column: 8,
             message: "unknown escape \"\\x\"; write \"\\\\\" for a backslash (JSON strings take \\b \\f \\n \\r \\t \\/ \\\\ \\\" and \\uXXXX)"),
        Case(text: "", line: 1, column: 1, message: "the line is empty; send one JSON object per line, such as {\"type\":\"status\",\"id\":1}"),
        Case(text: "{\"a\": [1", line: 1, column: 9,
             message: "the line ends inside the array that starts at line 1, column 7; add the missing \"]\""),
    ]

    @Test(arguments: notJSON)
    func strictJSONRefusesJSON5(_ example: Case) {
        #expect(throws: JSONSyntaxError(line: example.line, column: example.column, message: example.message)) {
            try JSONParser.parse(example.text, dialect: .json)
        }
    }

    @Test func invalidUTF8HasAPosition() {
        #expect(throws: JSONSyntaxError(line: 2, column: 7, message: "byte 0xFF is not UTF-8 text; send UTF-8 text")) {
            try JSONParser.parse(bytes: Array("[\n\"abc é".utf8) + [0xFF, 0x22, 0x5D], dialect: .json)
        }
    }
}

/// JSON keeps one of two equal keys; the loader reports every repetition.
struct DuplicateKeyTests {
    @Test func findsEveryRepeatedKeyInEachObject() throws {
        let text = "{\n  id: \"a\",\n  frame: [0, 0, 1, 1],\n  'id': \"b\",\n  subviews: [{ x: 1, x: 2 }, { x: 1 }],\n}"
        #expect(try JSONParser.parse(text).duplicateKeys == [
            JSONSyntaxError(line: 4, column: 3, message: "the key \"id\" appears again in this object "
                + "(first at line 2, column 3); remove one of them, since only one value is used"),
            JSONSyntaxError(line: 5, column: 22, message: "the key \"x\" appears again in this object "
                + "(first at line 5, column 16); remove one of them, since only one value is used"),
        ])
    }

    /// Issue 12: `"\u0069d"` beside `"id"` was accepted silently.
    @Test func escapedKeysAreTheKeysTheySpell() {
        #expect(ProblemLines.layout("{ id: \"a\", frame: [0, 0, 1, 1], \"\\u0069d\": \"b\" }") == [
            "1:33: the key \"id\" appears again in this object (first at line 1, column 3); remove one of them, "
                + "since only one value is used",
        ])
        #expect(ProblemLines.layout("{ id: \"a\", frame: [0, 0, 1, 1], \\u0069d: \"b\" }") == [
            "1:33: the key \"id\" appears again in this object (first at line 1, column 3); remove one of them, "
                + "since only one value is used",
        ])
    }

    @Test func theLoaderRefusesRepeatedKeys() {
        #expect(ProblemLines.layout("{ id: \"a\", frame: [0, 0, 1, 1], hidden: true, hidden: false }") == [
            "1:47: the key \"hidden\" appears again in this object (first at line 1, column 33); remove one of them, "
                + "since only one value is used",
        ])
    }
}
