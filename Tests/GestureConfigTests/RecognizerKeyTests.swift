import Testing
@testable import GestureConfig
import GestureCore

/// Every recognizer key (SPEC 5.7) with wrong types and out-of-range values, parameters
/// checked by the unit their table entry gives.
struct RecognizerKeyTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var recognizer: String
        var problems: [String]
        init(_ recognizer: String, _ problems: String...) {
            self.recognizer = recognizer
            self.problems = problems
        }
        var testDescription: String { recognizer }
    }

    /// The problems of a root view with the recognizers `list` (the inside of the array).
    static func problems(_ list: String) -> [String] {
        ProblemLines.view("recognizers: [\(list)]")
    }

    static let cases: [Case] = [
        Case("{ id: 1, type: \"tap\" }", "layout.recognizers[0].id: expected a string (the recognizer's unique name), found a number"),
        Case("{ type: \"tap\" }", "layout.recognizers[0].id: missing; add id: \"…\", a name that is unique in the layout"),
        Case("{ id: \"\", type: \"tap\" }",
             "layout.recognizers[0].id: the id is empty; give the recognizer a name that is unique in the layout"),
        Case("{ id: \"r\" }",
             "layout.recognizers[0].type: missing; add type: one of \"tap\", \"longPress\", \"pan\", \"swipe\", \"pinch\", \"rotation\", \"edgePan\" or \"transform\""),
        Case("{ id: \"r\", type: 3 }",
             "layout.recognizers[0].type: expected \"tap\", \"longPress\", \"pan\", \"swipe\", \"pinch\", \"rotation\", \"edgePan\" or \"transform\", found a number"),
        Case("{ id: \"r\", type: \"Tap\" }", "layout.recognizers[0].type: \"Tap\" is not a recognizer type; did you mean \"tap\"?"),
        Case("{ id: \"r\", type: \"longpress\" }", "layout.recognizers[0].type: \"longpress\" is not a recognizer type; did you mean \"longPress\"?"),
        Case("{ id: \"r\", type: \"zoom\", scale: 2, taps: 2 }",
             "layout.recognizers[0].type: \"zoom\" is not a recognizer type; use \"tap\", \"longPress\", \"pan\", \"swipe\", \"pinch\", \"rotation\", \"edgePan\" or \"transform\"",
             "layout.recognizers[0].scale: unknown key; remove it (a recognizer takes id, type, enabled, cancelsTouchesInView, "
                + "delaysTouchesBegan, delaysTouchesEnded, requireToFail, simultaneousWith, claims, taps, touches, maxMovement, "
                + "maxDuration, maxInterval, minimumDuration, allowableMovement, minimumTouches, maximumTouches, slop, "
                + "direction, minimumDistance, minimumVelocity, minimumScaleChange, minimumRotation, edges, edgeWidth)"),
        Case("{ id: \"r\", type: \"tap\", enabled: \"no\" }", "layout.recognizers[0].enabled: expected true or false, found a string"),
        Case("{ id: \"r\", type: \"tap\", cancelsTouchesInView: 1 }",
             "layout.recognizers[0].cancelsTouchesInView: expected true or false, found a number"),
        Case("{ id: \"r\", type: \"tap\", delaysTouchesBegan: null }",
             "layout.recognizers[0].delaysTouchesBegan: expected true or false, found null; remove the key to use the default"),
        Case("{ id: \"r\", type: \"tap\", delaysTouchesEnded: \"x\" }",
             "layout.recognizers[0].delaysTouchesEnded: expected true or false, found a string"),
        Case("{ id: \"r\", type: \"tap\", requireToFail: \"other\" }",
             "layout.recognizers[0].requireToFail: expected an array of recognizer ids [\"…\"], found a string"),
        Case("{ id: \"r\", type: \"tap\", requireToFail: [1] }",
             "layout.recognizers[0].requireToFail[0]: expected a string (a recognizer id), found a number"),
        Case("{ id: \"r\", type: \"tap\", simultaneousWith: [\"ghost\"] }",
             "layout.recognizers[0].simultaneousWith[0]: no recognizer has the id \"ghost\"; name a recognizer of this layout or remove the entry"),
        Case("{ id: \"r\", type: \"tap\", simultaneousWith: [\"r\"] }",
             "layout.recognizers[0].simultaneousWith[0]: \"r\" is this recognizer itself; name another recognizer or remove the entry"),
        // tap: counts, seconds, points
        Case("{ id: \"r\", type: \"tap\", taps: 0 }", "layout.recognizers[0].taps: 0 is too small; use a whole number of taps from 1 to 10"),
        Case("{ id: \"r\", type: \"tap\", taps: 1.5 }", "layout.recognizers[0].taps: 1.5 is not a whole number; use a whole number of taps from 1 to 10"),
        Case("{ id: \"r\", type: \"tap\", taps: \"2\" }", "layout.recognizers[0].taps: expected a whole number of taps from 1 to 10, found a string"),
        // longPress taps (numberOfTapsRequired): 0 allowed, its own range named
        Case("{ id: \"r\", type: \"longPress\", taps: 0 }"),
        Case("{ id: \"r\", type: \"longPress\", taps: 10 }"),
        Case("{ id: \"r\", type: \"longPress\", taps: -1 }",
             "layout.recognizers[0].taps: -1 is too small; use a whole number of taps from 0 to 10"),
        Case("{ id: \"r\", type: \"longPress\", taps: 11 }",
             "layout.recognizers[0].taps: 11 is too large; use a whole number of taps from 0 to 10"),
        Case("{ id: \"r\", type: \"longPress\", taps: 1.5 }",
             "layout.recognizers[0].taps: 1.5 is not a whole number; use a whole number of taps from 0 to 10"),
        Case("{ id: \"r\", type: \"tap\", touches: -1 }", "layout.recognizers[0].touches: -1 is too small; use a whole number of touches from 1 to 20"),
        Case("{ id: \"r\", type: \"tap\", maxMovement: -3 }", "layout.recognizers[0].maxMovement: -3 is negative; use 0 to 1000000 points"),
        Case("{ id: \"r\", type: \"tap\", maxDuration: Infinity }",
             "layout.recognizers[0].maxDuration: Infinity is not allowed here; use 0 to 3600 seconds"),
        Case("{ id: \"r\", type: \"tap\", maxInterval: \"0.3\" }",
             "layout.recognizers[0].maxInterval: expected a number of seconds, found a string"),
        Case("{ id: \"r\", type: \"tap\", maxIntervall: 0.3 }", "layout.recognizers[0].maxIntervall: unknown key; did you mean \"maxInterval\"?"),
        Case("{ id: \"r\", type: \"tap\", slop: 3 }",
             "layout.recognizers[0].slop: slop is not a parameter of tap recognizers; remove it (tap takes taps, touches, maxMovement, maxDuration, maxInterval)"),
        // longPress
        Case("{ id: \"r\", type: \"longPress\", minimumDuration: -1 }",
             "layout.recognizers[0].minimumDuration: -1 is negative; use 0 to 3600 seconds"),
        Case("{ id: \"r\", type: \"longPress\", allowableMovement: \"x\" }",
             "layout.recognizers[0].allowableMovement: expected a number of points, found a string"),
        // pan
        Case("{ id: \"r\", type: \"pan\", minimumTouches: 2, maximumTouches: 1 }",
             "layout.recognizers[0].maximumTouches: maximumTouches (1) is less than minimumTouches (2); raise maximumTouches or lower minimumTouches"),
        Case("{ id: \"r\", type: \"pan\", slop: -1 }", "layout.recognizers[0].slop: -1 is negative; use 0 to 1000000 points"),
        Case("{ id: \"r\", type: \"pan\", taps: 2 }",
             "layout.recognizers[0].taps: taps is not a parameter of pan recognizers; remove it (pan takes minimumTouches, maximumTouches, slop)"),
        Case("{ id: \"r\", type: \"pan\", maxTouches: 2 }", "layout.recognizers[0].maxTouches: unknown key; did you mean \"maximumTouches\"?"),
        // swipe
        Case("{ id: \"r\", type: \"swipe\", direction: [] }",
             "layout.recognizers[0].direction: the list is empty; list at least one of \"right\", \"left\", \"up\", \"down\""),
        Case("{ id: \"r\", type: \"swipe\", direction: [\"rigth\"] }",
             "layout.recognizers[0].direction[0]: \"rigth\" is not a swipe direction; did you mean \"right\"?"),
        Case("{ id: \"r\", type: \"swipe\", direction: \"left\" }",
             "layout.recognizers[0].direction: expected an array of \"right\", \"left\", \"up\" or \"down\", found a string"),
        Case("{ id: \"r\", type: \"swipe\", direction: [\"left\", 2] }",
             "layout.recognizers[0].direction[1]: expected \"right\", \"left\", \"up\" or \"down\", found a number"),
        Case("{ id: \"r\", type: \"swipe\", minimumVelocity: -1, minimumDistance: NaN }",
             "layout.recognizers[0].minimumDistance: NaN is not allowed here; use 0 to 1000000 points",
             "layout.recognizers[0].minimumVelocity: -1 is negative; use 0 to 1000000 points per second"),
        // pinch, rotation
        Case("{ id: \"r\", type: \"pinch\", minimumScaleChange: -0.1 }",
             "layout.recognizers[0].minimumScaleChange: -0.1 is negative; use 0 to 10 (a ratio)"),
        Case("{ id: \"r\", type: \"pinch\", touches: 3 }",
             "layout.recognizers[0].touches: touches is not a parameter of pinch recognizers; remove it (pinch takes minimumScaleChange)"),
        Case("{ id: \"r\", type: \"rotation\", minimumRotation: \"5deg\" }",
             "layout.recognizers[0].minimumRotation: expected a number of radians, found a string"),
        // edgePan
        Case("{ id: \"r\", type: \"edgePan\", edges: [\"leftt\"] }",
             "layout.recognizers[0].edges[0]: \"leftt\" is not a screen edge; did you mean \"left\"?"),
        Case("{ id: \"r\", type: \"edgePan\", edges: [] }",
             "layout.recognizers[0].edges: the list is empty; list at least one of \"left\", \"right\", \"top\", \"bottom\""),
        Case("{ id: \"r\", type: \"edgePan\", edgeWidth: \"20\" }", "layout.recognizers[0].edgeWidth: expected a number of points, found a string"),
        // Ids across the layout.
        Case("{ id: \"r\", type: \"tap\" }, { id: \"r\", type: \"pan\" }",
             "layout.recognizers[1].id: the recognizer id \"r\" is already used at layout.recognizers[0]; give each recognizer a unique id"),
        // Valid recognizers give no problems.
        Case("{ id: \"single\", type: \"tap\", requireToFail: [\"double\"], enabled: true, cancelsTouchesInView: false, "
             + "delaysTouchesBegan: true, delaysTouchesEnded: false, maxMovement: 0 }, "
             + "{ id: \"double\", type: \"tap\", taps: 2, simultaneousWith: [\"pan\"] }, "
             + "{ id: \"pan\", type: \"pan\", minimumTouches: 2, maximumTouches: 2 }, "
             + "{ id: \"edge\", type: \"edgePan\", edges: [\"left\", \"right\"], edgeWidth: 30 }"),
    ]

    @Test(arguments: cases)
    func reportsTheKeyPathAndWhatToChange(_ example: Case) {
        #expect(Self.problems(example.recognizer) == example.problems)
    }

    /// Every parameter of every type's table entry is read into its slot.
    @Test(arguments: RecognizerKind.allCases)
    func readsEveryParameterOfTheTable(_ kind: RecognizerKind) throws {
        var members: [String] = []
        for key in kind.parameterKeys {
            switch key.unit {
            case .count: members.append("\(key.name): 2")
            case .seconds, .points, .pointsPerSecond, .radians, .ratio: members.append("\(key.name): 0.25")
            case .words(let words, _): members.append("\(key.name): [\"\(words[1])\", \"\(words[0])\"]")
            }
        }
        let text = "{ id: \"root\", frame: [0, 0, 1, 1], recognizers: [{ id: \"r\", type: \"\(kind.rawValue)\", "
            + members.joined(separator: ", ") + " }] }"
        let parameters = try ConfigurationLoader.parseLayout(text: text, file: "t.json5").recognizers[0].parameters
        for key in kind.parameterKeys {
            switch key.unit {
            case .count: #expect(parameters[key.name] == .count(2), "\(key.name)")
            case .seconds, .points, .pointsPerSecond, .radians, .ratio: #expect(parameters[key.name] == .number(0.25), "\(key.name)")
            case .words(let words, _): #expect(parameters[key.name] == .words([words[1], words[0]]), "\(key.name)")
            }
        }
    }

    @Test func readsTheCommonKeys() throws {
        let layout = try ConfigurationLoader.parseLayout(text: """
            { id: "root", frame: [0, 0, 1, 1], recognizers: [
              { id: "single", type: "tap", enabled: false, cancelsTouchesInView: false, delaysTouchesBegan: true,
                delaysTouchesEnded: false, requireToFail: ["double"], simultaneousWith: ["double"] },
              { id: "double", type: "tap", taps: 2 },
            ] }
            """, file: "t.json5")
        #expect(layout.recognizers == [
            RecognizerSpec(id: "single", kind: .tap, enabled: false, cancelsTouchesInView: false, delaysTouchesBegan: true,
                           delaysTouchesEnded: false, requireToFail: ["double"], simultaneousWith: ["double"]),
            RecognizerSpec(id: "double", kind: .tap, parameters: RecognizerParameters(["taps": 2])),
        ])
    }

    /// A recognizer id used before its recognizer appears in the tree is still known.
    @Test func referencesMayPointAnywhereInTheLayout() {
        #expect(ProblemLines.layout("""
            { id: "root", frame: [0, 0, 1, 1],
              recognizers: [{ id: "outer", type: "tap", requireToFail: ["inner"] }],
              subviews: [{ id: "child", frame: [0, 0, 1, 1], recognizers: [{ id: "inner", type: "tap", taps: 2 }] }] }
            """) == [])
    }
}
