import FoundationEssentials
import Testing
@testable import GestureConfig

/// The locator must point at the first syntax error the way a person would look for it: a
/// missing comma at the end of the value before it, an unterminated string at its opening
/// quote, a stray character where it is.
struct JSON5SyntaxLocatorTests {
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
             message: "unknown escape \"\\q\"; write \"\\\\\" for a backslash (the decoder accepts \\b \\f \\n \\r \\t \\/ \\\\ \\' \\\" \\uXXXX and \\xXX)"),
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
        Case(text: "{a:\u{A0}1}", line: 1, column: 4,
             message: "expected the value of \"a\", found U+00A0, a no-break space; replace it with a plain space"),
        Case(text: "", line: 1, column: 1,
             message: "the file is empty; write a JSON5 object such as { id: \"root\", frame: [0, 0, 1920, 1080] }"),
        Case(text: "// nothing yet\n", line: 2, column: 1,
             message: "the file is empty; write a JSON5 object such as { id: \"root\", frame: [0, 0, 1920, 1080] }"),
        Case(text: "{\n  id: \"é\",\n  främe: [0, 0, 1, 1]\n  x: 1\n}", line: 3, column: 22,
             message: "missing \",\" between the value of \"främe\" and \"x\"; add a comma"),
    ]

    @Test(arguments: malformed)
    func findsTheFirstError(_ example: Case) {
        let finding = JSON5SyntaxLocator.firstError(in: example.text)
        #expect(finding == JSON5SyntaxLocator.Finding(line: example.line, column: example.column, message: example.message))
    }

    /// The locator runs only after the decoder failed; each malformed example must really be
    /// refused by the decoder, or the test would pin a message users never see.
    @Test(arguments: malformed)
    func theDecoderRefusesTheExample(_ example: Case) {
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        #expect(throws: (any Error).self) { try decoder.decode(JSONValue.self, from: Data(example.text.utf8)) }
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
    ]

    @Test(arguments: wellFormed)
    func acceptsWhatTheDecoderAccepts(_ text: String) throws {
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        _ = try decoder.decode(JSONValue.self, from: Data(text.utf8))
        #expect(JSON5SyntaxLocator.firstError(in: text) == nil)
    }

    @Test func reportsThroughTheLoaderWithTheFileName() {
        #expect(throws: ConfigurationError(file: "kiosk.json5", problems: [
            ConfigurationProblem(file: "kiosk.json5", location: .position(line: 1, column: 6),
                                 message: "missing \",\" between the value of \"a\" and \"b\"; add a comma"),
        ])) {
            try ConfigurationLoader.parse(text: "{a: 1 b: 2}", file: "kiosk.json5")
        }
    }

    @Test func decodesValuesIntoTheGenericEnum() throws {
        let decoder = JSONDecoder()
        decoder.allowsJSON5 = true
        let value = try decoder.decode(JSONValue.self, from: Data("{a: [1, 'x', true, null, {b: -2}]}".utf8))
        #expect(value == .object(["a": .array([.number(1), .string("x"), .bool(true), .null, .object(["b": .number(-2)])])]))
    }
}

/// The decoder keeps one of two equal keys silently; the loader reports every repetition.
struct DuplicateKeyTests {
    @Test func findsEveryRepeatedKeyInEachObject() {
        let text = "{\n  id: \"a\",\n  frame: [0, 0, 1, 1],\n  'id': \"b\",\n  subviews: [{ x: 1, x: 2 }, { x: 1 }],\n}"
        #expect(JSON5SyntaxLocator.duplicateKeys(in: text) == [
            JSON5SyntaxLocator.Finding(line: 4, column: 3, message: "the key \"id\" appears again in this object "
                + "(first at line 2, column 3); remove one of them, since only one value is used"),
            JSON5SyntaxLocator.Finding(line: 5, column: 22, message: "the key \"x\" appears again in this object "
                + "(first at line 5, column 16); remove one of them, since only one value is used"),
        ])
    }

    @Test func theLoaderRefusesRepeatedKeys() {
        #expect(ProblemLines.layout("{ id: \"a\", frame: [0, 0, 1, 1], hidden: true, hidden: false }") == [
            "1:47: the key \"hidden\" appears again in this object (first at line 1, column 33); remove one of them, "
                + "since only one value is used",
        ])
    }
}
