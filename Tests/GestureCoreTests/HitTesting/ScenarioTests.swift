import Testing
@testable import GestureCore

/// SPEC 4.1, scenario A: a control behind a view, and a control inside that view.
func scenarioA(passThrough: Bool = false) -> ViewSpec {
    view("RootView", 0, 0, 400, 800, [
        control("BackButton", 40, 600, 120, 60),
        view("BlackView", 0, 300, 400, 400, [control("FrontButton", 100, 50, 200, 80)]) {
            $0.passThrough = passThrough
        },
    ])
}

/// SPEC 4.1, scenario B: two containers of three columns each, with Container1's override.
func scenarioB(_ override: HitTestOverride = .default) -> ViewSpec {
    view("Container1", 0, 0, 300, 600, [
        view("Container2", 0, 0, 300, 200, [
            view("View1", 0, 0, 100, 200), view("View2", 100, 0, 100, 200), view("View3", 200, 0, 100, 200),
        ]),
        view("Container3", 0, 400, 300, 200, [
            view("View4", 0, 0, 100, 200), view("View5", 100, 0, 100, 200), view("View6", 200, 0, 100, 200),
        ]),
    ]) { $0.hitTest = override }
}

struct ScenarioCase: Sendable, CustomTestStringConvertible {
    let name: String
    let layout: @Sendable () -> ViewSpec
    let point: Point
    let trace: [String]
    let hit: String?
    /// The responders that receive touchesBegan, in order.
    let began: [String]
    var testDescription: String { name }
}

@Suite("SPEC 4.1 acceptance scenarios")
struct ScenarioTests {
    static let cases: [ScenarioCase] = [
        ScenarioCase(name: "A1 BlackView away from FrontButton", layout: { scenarioA() }, point: Point(x: 20, y: 320),
            trace: ["RootView hitTest", "RootView point(inside): true", "BlackView hitTest",
                    "BlackView point(inside): true", "FrontButton hitTest", "FrontButton point(inside): false"],
            hit: "BlackView", began: ["BlackView", "RootView"]),
        ScenarioCase(name: "A2 FrontButton", layout: { scenarioA() }, point: Point(x: 150, y: 380),
            trace: ["RootView hitTest", "RootView point(inside): true", "BlackView hitTest",
                    "BlackView point(inside): true", "FrontButton hitTest", "FrontButton point(inside): true"],
            hit: "FrontButton", began: ["FrontButton"]),
        ScenarioCase(name: "A3 outside BlackView and BackButton", layout: { scenarioA() }, point: Point(x: 300, y: 100),
            trace: ["RootView hitTest", "RootView point(inside): true", "BlackView hitTest",
                    "BlackView point(inside): false", "BackButton hitTest", "BackButton point(inside): false"],
            hit: "RootView", began: ["RootView"]),
        ScenarioCase(name: "A4 BackButton under BlackView", layout: { scenarioA() }, point: Point(x: 60, y: 620),
            trace: ["RootView hitTest", "RootView point(inside): true", "BlackView hitTest",
                    "BlackView point(inside): true", "FrontButton hitTest", "FrontButton point(inside): false"],
            hit: "BlackView", began: ["BlackView", "RootView"]),
        ScenarioCase(name: "A5 BlackView passThrough", layout: { scenarioA(passThrough: true) }, point: Point(x: 60, y: 620),
            trace: ["RootView hitTest", "RootView point(inside): true", "BlackView hitTest",
                    "BlackView point(inside): true", "FrontButton hitTest", "FrontButton point(inside): false",
                    "BackButton hitTest", "BackButton point(inside): true"],
            hit: "BackButton", began: ["BackButton"]),
        ScenarioCase(name: "B1 between the containers", layout: { scenarioB() }, point: Point(x: 150, y: 300),
            trace: ["Container1 hitTest", "Container1 point(inside): true", "Container3 hitTest",
                    "Container3 point(inside): false", "Container2 hitTest", "Container2 point(inside): false"],
            hit: "Container1", began: ["Container1"]),
        ScenarioCase(name: "B2 Container1 none", layout: { scenarioB(.none) }, point: Point(x: 150, y: 100),
            trace: ["Container1 hitTest"], hit: nil, began: []),
        ScenarioCase(name: "B3 Container1 self, over View2", layout: { scenarioB(.self) }, point: Point(x: 150, y: 100),
            trace: ["Container1 hitTest", "Container1 point(inside): true"], hit: "Container1", began: ["Container1"]),
        ScenarioCase(name: "B3 Container1 self, over View6", layout: { scenarioB(.self) }, point: Point(x: 250, y: 500),
            trace: ["Container1 hitTest", "Container1 point(inside): true"], hit: "Container1", began: ["Container1"]),
        ScenarioCase(name: "B4 Container1 redirect to Container3", layout: { scenarioB(.redirect("Container3")) },
            point: Point(x: 150, y: 100),
            trace: ["Container1 hitTest", "Container1 point(inside): true", "Container3 hitTest",
                    "Container3 point(inside): false", "Container2 hitTest", "Container2 point(inside): true",
                    "View3 hitTest", "View3 point(inside): false", "View2 hitTest", "View2 point(inside): true"],
            hit: "Container3", began: ["Container3", "Container1"]),
    ]

    @Test(arguments: cases)
    func traceHitAndBeganResponders(_ scenario: ScenarioCase) throws {
        let tree = try ViewTree(root: scenario.layout())
        var trace = HitTestTrace()
        let hit = HitTester.hitTest(tree, at: scenario.point, trace: &trace)
        #expect(trace.lines(in: tree) == scenario.trace)
        #expect(hit.map { tree.id(of: $0) } == scenario.hit)
        #expect(HitTester.hitTest(tree, at: scenario.point) == hit, "tracing must not change the result")

        var engine = Engine(tree: tree)
        var events: [EngineEvent] = []
        engine.process(TouchFrame(time: .zero, changes: [.down(ContactID(0), scenario.point)]), into: &events)
        let began = events.compactMap { event -> [String]? in
            guard case .touches(let e) = event, e.phase == .began else { return nil }
            return e.responders.map { e.tree.id(of: $0) }
        }
        #expect(began == (scenario.began.isEmpty ? [] : [scenario.began]))
    }

    @Test func hitTestEventCarriesTheTraceWhenTracing() {
        var script = TouchScript(scenarioA(), tracing: true)
        script.down(1, 20, 320)
        #expect(script.take() == ["hitTest #1 => BlackView", "began BlackView > RootView: #1"])
    }
}
