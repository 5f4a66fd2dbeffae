import Testing
@testable import GestureConfig

/// Each file in Tests/Fixtures/config/broken has one kind of mistake; the complete list of
/// messages, in order, is pinned, since the messages are the product here.
struct BrokenFixtureTests {
    static let directory = "Tests/Fixtures/config/broken"

    static let expected: [String: [String]] = [
        "duplicate-id.json5": [
            "8:9: layout.subviews[1].subviews[0].id: the view id \"button\" is already used at layout.subviews[0]; give each view a unique id",
        ],
        "unknown-key.json5": [
            "6:59: layout.subviews[0].colour: unknown key; remove it (a view takes id, frame, hidden, alpha, userInteractionEnabled, "
                + "hitOutset, hitTest, passThrough, kind, handlesTouches, multipleTouchEnabled, exclusiveTouch, trackingSlop, "
                + "routing, recognizers, subviews)",
            "6:46: layout.subviews[0].hiden: unknown key; did you mean \"hidden\"?",
        ],
        "redirect-non-descendant.json5": [
            "6:55: layout.subviews[0].hitTest.redirect: \"right\" is not inside \"left\"; a redirect must name one of this view's "
                + "descendants (\"leftList\")",
            "8:58: layout.subviews[1].hitTest.redirect: \"right\" is this view itself; name one of its descendants, or use hitTest: \"default\"",
        ],
        "negative-size.json5": [
            "6:38: layout.subviews[0].frame[2]: the width is -200; make it from 0 to 1000000 points (frames grow right and down from x, y)",
            "7:42: layout.subviews[1].frame[3]: the height is -80; make it from 0 to 1000000 points (frames grow right and down from x, y)",
        ],
        "wrong-type.json5": [
            "4:3: layout.frame: expected an array of 4 numbers [x, y, width, height], found a string",
            "6:7: layout.subviews[0].id: expected a string (the view's unique name), found a number",
            "6:33: layout.subviews[0].frame[3]: expected a number (height), found a string",
            "6:40: layout.subviews[0].hidden: expected true or false, found a string",
            "6:54: layout.subviews[0].alpha: expected a number from 0 to 1, found a string",
            "6:69: layout.subviews[0].kind: \"button\" is not a view kind; use \"view\" or \"control\"",
        ],
        "malformed.json5": [
            "7:19: missing \",\" between the value of \"id\" and \"frame\"; add a comma",
        ],
        "require-to-fail-cycle.json5": [
            "8:62: layout.recognizers[2].requireToFail[0]: requireToFail makes a cycle \"singleTap\" → \"doubleTap\" → \"tripleTap\" "
                + "→ \"singleTap\", so none of them can ever recognize; remove one of these requirements",
        ],
        "unknown-require-to-fail.json5": [
            "8:53: layout.recognizers[1].requireToFail[0]: no recognizer has the id \"doubleTapp\"; did you mean \"doubleTap\"?",
            "8:67: layout.recognizers[1].requireToFail[1]: \"singleTap\" is this recognizer itself; name another recognizer or remove the entry",
        ],
        "tracking-slop-on-view.json5": [
            "6:44: layout.subviews[0].trackingSlop: only controls track their touches; remove trackingSlop or make the view a "
                + "control with kind: \"control\"",
        ],
    ]

    @Test func everyFixtureIsPinned() {
        #expect(PackageRoot.json5Files(in: Self.directory) == Self.expected.keys.sorted().map { "\(Self.directory)/\($0)" })
    }

    @Test(arguments: expected.keys.sorted())
    func reportsEveryProblem(_ name: String) {
        let file = "\(Self.directory)/\(name)"
        let lines: [String]
        do {
            _ = try ConfigurationLoader.load(path: PackageRoot.file(file))
            lines = []
        } catch {
            lines = PackageRoot.relative(error.description).split(separator: "\n").map(String.init)
        }
        // Key paths print as "FILE:LINE:COLUMN: PATH: MESSAGE" (the key's position), syntax errors
        // as "FILE:LINE:COLUMN: MESSAGE".
        let expected = Self.expected[name]!.map { $0.first!.isNumber ? "\(file):\($0)" : "\(file): \($0)" }
        #expect(lines == expected)
    }

    /// A missing comma on line 7 is reported at the end of line 7's value, where the comma goes,
    /// as a position rather than a key path.
    @Test func malformedFileGivesLineAndColumn() throws {
        let path = PackageRoot.file("\(Self.directory)/malformed.json5")
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: path) }
        #expect(error.file == path)
        #expect(error.problems.map(\.location) == [.position(line: 7, column: 19)])
        #expect(error.layoutProblems.map(\.path) == ["\(path):7:19"])
    }
}
