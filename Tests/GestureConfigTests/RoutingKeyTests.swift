import Testing
@testable import GestureConfig
import GestureCore

/// The routing keys (docs/routing.md): the `routing` section, a view's `routing`, a
/// recognizer's `claims`, and grab implied by routing; every problem with its key path.
struct RoutingKeyTests {
    static let layout = "layout: { id: \"root\", frame: [0, 0, 800, 480] }"

    static func configuration(_ members: String, layout: String = RoutingKeyTests.layout) throws -> Configuration {
        try ConfigurationLoader.parse(text: "{ \(members), \(layout) }", file: "kiosk.json5")
    }

    static func problems(_ members: String, layout: String = RoutingKeyTests.layout) -> [String] {
        ProblemLines.configuration("{ \(members), \(layout) }")
    }

    @Test func noRoutingSectionMeansNoRoutingAndGrabAsWritten() throws {
        let configuration = try Self.configuration("grab: false")
        #expect(configuration.routing == nil)
        #expect(configuration.grab == false)
    }

    @Test(arguments: [("\"claim\"", RoutingRule.claim), ("\"forward\"", RoutingRule.forward),
                      ("{ hold: 0.15, fingers: 3, distance: \"20mm\" }",
                       RoutingRule.hold(HoldRule(seconds: 0.15, fingers: 3, distance: .millimetres(20)))),
                      ("{ hold: 1, distance: 40 }", RoutingRule.hold(HoldRule(seconds: 1, distance: .points(40)))),
                      ("{ hold: 0.001, distance: { mm: 2.5 } }",
                       RoutingRule.hold(HoldRule(seconds: 0.001, distance: .millimetres(2.5))))])
    func readsTheDefaultRuleAndImpliesGrab(_ text: String, _ rule: RoutingRule) throws {
        let configuration = try Self.configuration("routing: { default: \(text) }")
        #expect(configuration.routing == RoutingConfiguration(defaultRule: rule))
        #expect(configuration.grab == true)
    }

    @Test func grabFalseWithRoutingNamesBothKeys() {
        #expect(Self.problems("grab: false, routing: { default: \"forward\" }") == [
            "grab: grab: false cannot go with routing: routing hands the desktop the touches it forwards "
                + "through a copy of the panel, so the panel itself must be grabbed; remove grab (routing implies it) or remove routing",
            "routing: routing needs the panel grabbed, and grab is false; remove grab: false",
        ])
    }

    @Test func grabTrueWithRoutingIsFine() throws {
        #expect(try Self.configuration("grab: true, routing: { default: \"claim\" }").grab)
    }

    struct Case: CustomTestStringConvertible, Sendable {
        var members: String
        var problems: [String]
        init(_ members: String, _ problems: String...) {
            self.members = members
            self.problems = problems
        }
        var testDescription: String { members }
    }

    static let sectionCases: [Case] = [
        Case("routing: \"claim\"", "routing: expected an object { default: \"claim\" | \"forward\" | { hold: … } }, found a string"),
        Case("routing: {}", "routing.default: missing; add default: \"claim\" (touches are gestured's unless a view says "
             + "otherwise) or \"forward\" (touches reach the desktop unless a view claims them)"),
        Case("routing: { default: \"forwrd\" }", "routing.default: \"forwrd\" is not a routing rule; did you mean \"forward\"?"),
        Case("routing: { default: \"hold\" }",
             "routing.default: \"hold\" needs its time: write { hold: 0.15 } (seconds), with fingers or distance if needed"),
        Case("routing: { default: 3 }", "routing.default: expected \"claim\", \"forward\" or { hold: <seconds>, fingers?: N, "
             + "distance?: <points or \"20mm\"> }, found a number"),
        Case("routing: { default: \"claim\", defualt: 1 }", "routing.defualt: unknown key; did you mean \"default\"?"),
        Case("routing: { default: { hold: 2 } }",
             "routing.default.hold: 2 is outside the hold's range; use 0.001 to 1 seconds (1 to 1000 ms)"),
        Case("routing: { default: { hold: 0 } }",
             "routing.default.hold: 0 is outside the hold's range; use 0.001 to 1 seconds (1 to 1000 ms)"),
        Case("routing: { default: { fingers: 2 } }",
             "routing.default.hold: missing; add hold: <seconds> (how long the touch's frames wait, at most 1)"),
        Case("routing: { default: { hold: 0.1, fingers: 1 } }",
             "routing.default.fingers: 1 is outside the range; use a whole number of fingers from 2 to 10"),
        Case("routing: { default: { hold: 0.1, fingers: 11 } }",
             "routing.default.fingers: 11 is outside the range; use a whole number of fingers from 2 to 10"),
        Case("routing: { default: { hold: 0.1, fingers: 2.5 } }",
             "routing.default.fingers: 2.5 is not a whole number; use a whole number of fingers from 2 to 10"),
        Case("routing: { default: { hold: 0.1, distance: 0 } }",
             "routing.default.distance: 0 is not allowed; use more than 0 and at most 1000000 points"),
        Case("routing: { default: { hold: 0.1, distance: \"far\" } }",
             "routing.default.distance: \"far\" is not a distance; use a number of points, \"<N>mm\" or { mm: N }"),
        Case("routing: { default: { hold: 0.1, distance: \"0mm\" } }",
             "routing.default.distance: 0 mm is not allowed; use more than 0 and at most 10000 millimetres"),
        Case("routing: { default: { hold: 0.1, distance: 5, wait: 1 } }",
             "routing.default.wait: unknown key; remove it (a hold rule takes hold, fingers, distance)"),
    ]

    @Test(arguments: sectionCases)
    func reportsTheSectionsProblems(_ example: Case) {
        #expect(Self.problems(example.members) == example.problems)
    }

    @Test func readsViewRulesAndClaimingRecognizers() throws {
        let configuration = try Self.configuration("routing: { default: \"forward\" }", layout: """
            layout: { id: "root", frame: [0, 0, 800, 480], subviews: [
              { id: "edge", frame: [0, 0, 20, 480], routing: "claim",
                recognizers: [{ id: "back", type: "edgePan", claims: true }] },
              { id: "map", frame: [20, 0, 780, 480], routing: { hold: 0.15, fingers: 2 } },
            ] }
            """)
        #expect(configuration.layout.routing == nil)
        #expect(configuration.layout.subviews[0].routing == .claim)
        #expect(configuration.layout.subviews[0].recognizers[0].claims == true)
        #expect(configuration.layout.subviews[1].routing == .hold(HoldRule(seconds: 0.15, fingers: 2)))
    }

    @Test func viewRulesAreValidatedAtTheirKeyPath() {
        let problems = Self.problems("routing: { default: \"claim\" }", layout: """
            layout: { id: "root", frame: [0, 0, 800, 480], subviews: [
              { id: "a", frame: [0, 0, 20, 480], routing: "pass" },
              { id: "b", frame: [0, 0, 20, 480], routing: { hold: 5, fingers: 30 },
                recognizers: [{ id: "t", type: "tap", claims: "yes" }] },
            ] }
            """)
        #expect(problems.contains("layout.subviews[0].routing: \"pass\" is not a routing rule; use \"claim\", \"forward\" or "
            + "{ hold: <seconds>, fingers?: N, distance?: <points or \"20mm\"> }"))
        #expect(problems.contains("layout.subviews[1].recognizers[0].claims: expected true or false, found a string"))
        #expect(problems.contains("layout.subviews[1].routing.hold: 5 is outside the hold's range; use 0.001 to 1 seconds (1 to 1000 ms)"))
        #expect(problems.contains("layout.subviews[1].routing.fingers: 30 is outside the range; use a whole number of fingers from 2 to 10"))
    }

    @Test func aClientsLayoutIsHeldToTheSameBounds() {
        let root = ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 10, height: 10),
                            routing: .hold(HoldRule(seconds: .nan, fingers: 0, distance: .points(-.infinity))))
        #expect(LayoutValidator.problems(in: root).map(\.path) == ["layout.routing.hold", "layout.routing.fingers",
                                                                  "layout.routing.distance"])
    }

    @Test func viewUpdateChangesARoutingRule() throws {
        let layout = ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 10, height: 10), subviews: [
            ViewSpec(id: "a", frame: Rect(x: 0, y: 0, width: 5, height: 5)),
        ])
        let updated = try ConfigurationLoader.updateView("a", with: .object(["routing": .string("forward")]), in: layout,
                                                         file: "request")
        #expect(updated?.subviews[0].routing == .forward)
    }
}
