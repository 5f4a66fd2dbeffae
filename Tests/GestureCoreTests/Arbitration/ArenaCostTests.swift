import Testing
@testable import GestureCore

/// The engine's work grows linearly with the recognizers of a layout (issue 25): the same
/// ten-finger script on layouts of n and 2n recognizers, with the recognizers the engine and
/// the arena look at counted (``Engine/recognizerVisits``), not timed. Before the arena kept
/// its own indexes, a frame's end searched the frame's recognizers for each recognizer of each
/// moving touch, every verdict scanned every recognizer, and a layout of 10,000 recognizers
/// on one view replayed 56 times slower than real time.
@Suite("Arena cost: linear in the recognizers")
struct ArenaCostTests {
    /// How the recognizers sit in the layout.
    enum Shape: String, CaseIterable, Sendable {
        /// All on one full-screen view.
        case oneView
        /// Spread over a chain of nested full-screen views, as deep as the layout limit allows.
        case chain
    }

    /// One layout of the table: its shape and the entries of each `requireToFail` and
    /// `simultaneousWith` list.
    struct Case: Sendable, CustomTestStringConvertible {
        var shape: Shape
        var references: Int
        var testDescription: String { "\(shape.rawValue), \(references) references each" }
    }

    static let cases = [Case(shape: .oneView, references: 0), Case(shape: .chain, references: 0),
                        Case(shape: .oneView, references: 8), Case(shape: .chain, references: 8)]

    /// Every kind, a double tap among them; edge pans on every edge.
    static func recognizers(_ count: Int, references: Int) -> [RecognizerSpec] {
        let kinds: [RecognizerKind] = [.tap, .tap, .longPress, .pan, .swipe, .pinch, .rotation, .edgePan]
        return (0..<count).map { index in
            var spec = RecognizerSpec(id: "r\(index)", kind: kinds[index % kinds.count])
            if index % kinds.count == 1 { spec.parameters["taps"] = 2 }
            if spec.kind == .edgePan { spec.parameters["edges"] = ["left", "right", "top", "bottom"]}
            // Requirements point forward only (no cycle); simultaneity wraps around.
            spec.requireToFail = (index + 1..<min(count, index + 1 + references)).map { "r\($0)" }
            spec.simultaneousWith = (1...max(1, references)).prefix(references).map { "r\((index + $0) % count)" }
            return spec
        }
    }

    static func layout(_ shape: Shape, recognizers count: Int, references: Int) throws -> ViewTree {
        let all = recognizers(count, references: references)
        let screen = Rect(x: 0, y: 0, width: 1920, height: 1080)
        switch shape {
        case .oneView:
            let canvas = ViewSpec(id: "canvas", frame: screen, multipleTouchEnabled: true, recognizers: all)
            return try ViewTree(root: ViewSpec(id: "root", frame: screen, subviews: [canvas]))
        case .chain:
            let levels = LayoutLimits.maximumDepth - 1
            let perLevel = (count + levels - 1) / levels
            var innermost: ViewSpec? = nil
            for level in (0..<levels).reversed() {
                let slice = Array(all[min(all.count, level * perLevel)..<min(all.count, (level + 1) * perLevel)])
                innermost = ViewSpec(id: "v\(level)", frame: screen, subviews: innermost.map { [$0] } ?? [],
                                     multipleTouchEnabled: true, recognizers: slice)
            }
            return try ViewTree(root: ViewSpec(id: "root", frame: screen, subviews: [innermost!]))
        }
    }

    /// Ten fingers: landing together and panning, landing one a frame and lifting one a frame,
    /// taps, a double tap, a long press and fingers on the edges; time passes between them, so
    /// deadlines fire. Returns the recognizers visited and the events made.
    static func run(_ tree: ViewTree) -> (visits: Int, events: Int) {
        var engine = Engine(tree: tree)
        var events = EngineEvents()
        var made = 0
        var now: Int64 = 0
        func frame(_ changes: [TouchChange]) {
            now += 10_000
            engine.process(TouchFrame(time: Timestamp(microseconds: now), changes: changes), into: &events)
            made += events.count
            events.removeAll()
        }
        func wait(_ milliseconds: Int64) {
            now += milliseconds * 1000
            engine.advance(to: Timestamp(microseconds: now), into: &events)
            made += events.count
            events.removeAll()
        }
        func point(_ finger: Int, _ step: Int) -> Point {
            Point(x: 150 + Double(finger) * 180 + Double(step) * 2, y: 300 + Double(finger) * 20 + Double(step) * 3)
        }
        let fingers = 0..<10
        // Together: land, pan for 40 frames, lift.
        frame(fingers.map { .down(ContactID($0), point($0, 0)) })
        for step in 1...40 { frame(fingers.map { .move(ContactID($0), point($0, step)) }) }
        frame(fingers.map { .up(ContactID($0)) })
        wait(500)
        // One a frame: each finger lands while the others move, then they lift one a frame.
        for finger in fingers {
            frame([.down(ContactID(finger), point(finger, 0))] + (0..<finger).map { .move(ContactID($0), point($0, finger)) })
        }
        for finger in fingers {
            frame((finger..<10).map { .move(ContactID($0), point($0, 10 + finger)) } + [.up(ContactID(finger))])
        }
        wait(500)
        // A tap, a double tap, a long press, then two fingers on the left and right edges.
        frame([.down(ContactID(0), Point(x: 900, y: 500))])
        frame([.up(ContactID(0))])
        wait(500)
        for _ in 0..<2 {
            frame([.down(ContactID(0), Point(x: 900, y: 500))])
            frame([.up(ContactID(0))])
            wait(100)
        }
        wait(500)
        frame([.down(ContactID(0), Point(x: 900, y: 500))])
        wait(800)
        frame([.up(ContactID(0))])
        frame([.down(ContactID(0), Point(x: 5, y: 500)), .down(ContactID(1), Point(x: 1915, y: 500))])
        for step in 1...20 {
            frame([.move(ContactID(0), Point(x: 5 + Double(step) * 8, y: 500)),
                   .move(ContactID(1), Point(x: 1915 - Double(step) * 8, y: 500))])
        }
        frame([.up(ContactID(0)), .up(ContactID(1))])
        wait(1000)
        return (engine.recognizerVisits, made)
    }

    @Test(.enabled(if: Engine.countsRecognizerVisits, "the engine counts its visits in debug builds only"),
          arguments: cases)
    func recognizersVisitedGrowLinearly(_ c: Case) throws {
        let n = 256
        let small = Self.run(try Self.layout(c.shape, recognizers: n, references: c.references))
        let large = Self.run(try Self.layout(c.shape, recognizers: 2 * n, references: c.references))
        // The counter counts: every recognizer of every moving touch is visited in each of the
        // script's frames (well over a hundred).
        #expect(small.visits >= 100 * n)
        #expect(small.events > 0)
        // Twice the recognizers, at most about twice the work (the quadratic cost was 4 times).
        let ratio = Double(large.visits) / Double(small.visits)
        #expect(ratio <= 2.25, "visits: \(small.visits) for \(n) recognizers, \(large.visits) for \(2 * n)")
    }

    /// A `requireToFail` chain as long as the layout allows: a double tap, then taps each
    /// requiring the one before to fail. One tap leaves them all waiting; when the double tap
    /// fails, the first tap recognizes and each of the others fails in turn, letting the next
    /// one ask and lose. Run recursively, that cascade overflowed the stack at about 1,800
    /// links (a release build, `gestured replay`: signal 11).
    @Test func aRequirementChainAsLongAsTheLimitDoesNotOverflowTheStack() {
        let count = LayoutLimits.maximumRecognizers
        let taps = (0..<count).map { index in
            index == 0 ? recognizer("r0", .tap) { $0.parameters["taps"] = 2 }
                : recognizer("r\(index)", .tap, requireToFail: ["r\(index - 1)"])
        }
        var s = TouchScript(view("Root", 0, 0, 800, 800, [view("Photo", 100, 100, 400, 400) { $0.recognizers = taps }]))
        s.down(1, 200, 200)
        s.wait(80)
        s.up(1)
        #expect(s.take() == ["began Photo > Root: #1"], "every tap waits")
        s.wait(1000)
        #expect(s.take() == ["cancelled Photo > Root: #1", "r1 recognized taps=1"])
    }

    /// A finger resting on the panel (or a contact stuck on it) while the layout is replaced
    /// again and again: the retired layouts no touch began in are dropped once their
    /// recognizers are at rest, so the arena holds a few layouts, not every one (each kept its
    /// recognizers until the last finger lifted); the resting finger keeps the recognizers it
    /// began with, and its pan still follows it.
    @Test func retiredLayoutsDoNotPileUpUnderARestingFinger() throws {
        let count = 16
        var engine = Engine(tree: try Self.layout(.oneView, recognizers: count, references: 0))
        var events: [EngineEvent] = []
        var now: Int64 = 0
        var x = 500.0
        func frame(_ changes: [TouchChange]) {
            now += 10_000
            events.removeAll()
            engine.process(TouchFrame(time: Timestamp(microseconds: now), changes: changes), into: &events)
        }
        frame([.down(ContactID(0), Point(x: x, y: 500))])
        for _ in 0..<5 {
            x += 10
            frame([.move(ContactID(0), Point(x: x, y: 500))])
        }
        for _ in 0..<50 {
            engine.replaceLayout(try Self.layout(.oneView, recognizers: count, references: 0), at: Timestamp(microseconds: now),
                                 into: &events)
            x += 2
            frame([.move(ContactID(0), Point(x: x, y: 500))])
        }
        #expect(engine.recognizerCount <= 3 * count, "the retired layouts are dropped")
        let changed = events.contains {
            if case .gesture(let gesture) = $0 { gesture.kind == .pan && gesture.state == .changed } else { false }
        }
        #expect(changed, "the pan the finger began still follows it")
        frame([.up(ContactID(0))])
        #expect(engine.recognizerCount == count)
    }
}
