import Testing
@testable import GestureCore

/// An engine is a value: a copy goes on by itself, whatever the original does, and a prepared
/// layout installed in two engines gives each machines of its own. The arena changes its
/// machines in place after one check per call into the engine (``SlotBanks/claimMachines()``):
/// without it, both copies (or both engines) would change one machine, and the runs below
/// would differ from the same scripts run alone.
@Suite("Engine copies")
struct EngineCopyTests {
    typealias Run = PreparedLayoutTests.Run

    /// A wall with a pinch, a pan that may go with it and a tap, as the photo wall has.
    static func wall() throws -> ViewTree {
        var pinch = RecognizerSpec(id: "pinch", kind: .pinch)
        pinch.simultaneousWith = ["pan"]
        var pan = RecognizerSpec(id: "pan", kind: .pan)
        pan.parameters["maximumTouches"] = 2
        let tap = RecognizerSpec(id: "tap", kind: .tap)
        let screen = PreparedLayoutTests.screen
        return try ViewTree(root: ViewSpec(id: "wall", frame: screen, multipleTouchEnabled: true,
                                           recognizers: [pinch, pan, tap]))
    }

    /// Two fingers land and move apart a little: the pinch and the pan are under way.
    static func start(_ run: inout Run) {
        run.frame([.down(ContactID(0), Point(x: 800, y: 500)), .down(ContactID(1), Point(x: 1000, y: 500))])
        for step in 1...4 {
            let d = Double(step) * 6
            run.frame([.move(ContactID(0), Point(x: 800 - d, y: 500)), .move(ContactID(1), Point(x: 1000 + d, y: 500))])
        }
    }

    /// The fingers spread far (a pinch and a pan begin) and lift.
    static func spread(_ run: inout Run) {
        for step in 5...20 {
            let d = Double(step) * 8
            run.frame([.move(ContactID(0), Point(x: 800 - d, y: 500 + d)), .move(ContactID(1), Point(x: 1000 + d, y: 500 + d))])
        }
        run.frame([.up(ContactID(0)), .up(ContactID(1))])
    }

    /// The fingers stay still a while and lift.
    static func holdStill(_ run: inout Run) {
        run.wait(300)
        run.frame([.up(ContactID(0)), .up(ContactID(1))])
    }

    @Test func aCopiedEngineGoesOnByItself() throws {
        let tree = try Self.wall()
        var original = Run(tree)
        Self.start(&original)
        var copy = original
        Self.spread(&original)
        Self.holdStill(&copy)

        var spreadAlone = Run(tree)
        Self.start(&spreadAlone)
        Self.spread(&spreadAlone)
        var stillAlone = Run(tree)
        Self.start(&stillAlone)
        Self.holdStill(&stillAlone)

        #expect(spreadAlone.log.contains { $0.contains(#""recognizer":"pinch""#) && $0.contains(#""state":"began""#) })
        #expect(spreadAlone.log != stillAlone.log, "the two scripts tell the runs apart")
        #expect(original.log == spreadAlone.log)
        #expect(copy.log == stillAlone.log)
    }

    @Test func oneMachineIsNeverChangedThroughTwoEngines() throws {
        let tree = try Self.wall()
        var first = Run(try PreparedLayoutTests.layout("A", recognizers: 4))
        var second = first
        let prepared = PreparedLayout(tree: tree, basis: first.engine.basis)
        first.replaceLayout(prepared)
        second.replaceLayout(prepared)
        Self.start(&first)
        Self.start(&second)
        Self.spread(&first)
        Self.holdStill(&second)

        var spreadAlone = Run(try PreparedLayoutTests.layout("A", recognizers: 4))
        spreadAlone.replaceLayout(PreparedLayout(tree: tree, basis: spreadAlone.engine.basis))
        Self.start(&spreadAlone)
        Self.spread(&spreadAlone)
        var stillAlone = Run(try PreparedLayoutTests.layout("A", recognizers: 4))
        stillAlone.replaceLayout(PreparedLayout(tree: tree, basis: stillAlone.engine.basis))
        Self.start(&stillAlone)
        Self.holdStill(&stillAlone)

        #expect(first.log == spreadAlone.log)
        #expect(second.log == stillAlone.log)
    }
}
