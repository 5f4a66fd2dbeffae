import Testing
@testable import GestureCore

/// A layout prepared away from the driver's loop (``PreparedLayout``) and installed between two
/// frames does exactly what the same tree given to the engine does (issue 25: a layout of
/// 10,000 recognizers must not stall the loop, and its semantics stay): touches already down
/// keep their views and recognizers, frames go to the old layout while the new one is being
/// prepared, a layout prepared for a screen that changed meanwhile is made again, and retired
/// layouts fire their deadlines first whichever bank they sit in. Installing costs nothing of
/// the layout's size.
@Suite("Prepared layouts")
struct PreparedLayoutTests {
    static let screen = Rect(x: 0, y: 0, width: 1920, height: 1080)

    /// A full-screen view with `count` recognizers of every kind (lists between them when
    /// `references`), named after `tag`, and a button.
    static func layout(_ tag: String, recognizers count: Int, references: Int = 2) throws -> ViewTree {
        var all = ArenaCostTests.recognizers(count, references: references)
        for index in all.indices {
            all[index].id = "\(tag)-" + all[index].id
            all[index].requireToFail = all[index].requireToFail.map { "\(tag)-" + $0 }
            all[index].simultaneousWith = all[index].simultaneousWith.map { "\(tag)-" + $0 }
        }
        let button = ViewSpec(id: "\(tag)-button", frame: Rect(x: 40, y: 40, width: 100, height: 60), kind: .control)
        let canvas = ViewSpec(id: "\(tag)-canvas", frame: screen, subviews: [button], multipleTouchEnabled: true,
                              recognizers: all)
        return try ViewTree(root: ViewSpec(id: "\(tag)-root", frame: screen, subviews: [canvas]))
    }

    /// An engine and its whole event log as JSON Lines, on a virtual clock.
    struct Run {
        var engine: Engine
        var log: [String] = []
        var now: Int64 = 0
        private var encoder = EventEncoder()

        init(_ tree: ViewTree) {
            engine = Engine(tree: tree)
        }

        mutating func frame(_ changes: [TouchChange], after milliseconds: Int64 = 10) {
            now += milliseconds * 1000
            var events: [EngineEvent] = []
            engine.process(TouchFrame(time: Timestamp(microseconds: now), changes: changes), into: &events)
            record(events)
        }

        mutating func wait(_ milliseconds: Int64) {
            now += milliseconds * 1000
            var events: [EngineEvent] = []
            engine.advance(to: Timestamp(microseconds: now), into: &events)
            record(events)
        }

        /// `layout.set` between two frames, now.
        mutating func replaceLayout(_ tree: ViewTree) {
            var events: [EngineEvent] = []
            engine.replaceLayout(tree, at: Timestamp(microseconds: now), into: &events)
            record(events)
        }

        mutating func replaceLayout(_ prepared: PreparedLayout) {
            var events: [EngineEvent] = []
            engine.replaceLayout(prepared, at: Timestamp(microseconds: now), into: &events)
            record(events)
        }

        private mutating func record(_ events: [EngineEvent]) {
            for event in events {
                var bytes: [UInt8] = []
                encoder.encode(.engine(event), into: &bytes)
                log.append(String(decoding: bytes, as: UTF8.self))
            }
        }
    }

    static func point(_ finger: Int, _ step: Int) -> Point {
        Point(x: 300 + Double(finger) * 150 + Double(step) * 4, y: 400 + Double(step) * 3)
    }

    /// The same script twice: once with each layout given as a tree, once prepared ahead
    /// (while frames still go to the old layout) and installed. Layouts replace each other
    /// while fingers are down (the old layout retired, in another bank), while none is, and
    /// while the one a finger began in is long gone; deadlines fire across them.
    @Test func aPreparedLayoutDoesWhatItsTreeDoes() throws {
        let trees = try (0..<5).map { try Self.layout("L\($0)", recognizers: 40 + 8 * $0) }
        var given = Run(trees[0])
        var prepared = Run(trees[0])
        func both(_ step: (inout Run) -> Void) {
            step(&given)
            step(&prepared)
        }
        func replace(with tree: ViewTree, preparedAhead: Bool) {
            given.replaceLayout(tree)
            let layout = PreparedLayout(tree: tree, basis: prepared.engine.basis)
            if preparedAhead {
                // Frames go on to the old layout while the new one is made.
                both { $0.frame([.move(ContactID(0), Self.point(0, 30))]) }
            }
            prepared.replaceLayout(layout)
        }
        // Two fingers down and panning; a layout replaces theirs under them.
        both { $0.frame([.down(ContactID(0), Self.point(0, 0)), .down(ContactID(1), Self.point(1, 0))]) }
        for step in 1...10 { both { $0.frame([.move(ContactID(0), Self.point(0, step)), .move(ContactID(1), Self.point(1, step))]) } }
        replace(with: trees[1], preparedAhead: true)
        // A third finger lands on the new layout, on its button; the first two go on and lift.
        both { $0.frame([.down(ContactID(2), Point(x: 60, y: 60))]) }
        for step in 11...20 { both { $0.frame([.move(ContactID(0), Self.point(0, step)), .move(ContactID(1), Self.point(1, step))]) } }
        both { $0.frame([.up(ContactID(0)), .up(ContactID(1))]) }
        // Replaced again while the third is down: its layout is retired, the first one is dropped.
        replace(with: trees[2], preparedAhead: false)
        both { $0.frame([.down(ContactID(3), Self.point(2, 0))]) }
        both { $0.wait(700) }
        both { $0.frame([.up(ContactID(2)), .up(ContactID(3))]) }
        // With nothing down: a tap, replaced during the double tap's interval, then a long press.
        both { $0.frame([.down(ContactID(4), Self.point(3, 0))]) }
        both { $0.frame([.up(ContactID(4))], after: 40) }
        replace(with: trees[3], preparedAhead: true)
        both { $0.wait(400) }
        both { $0.frame([.down(ContactID(5), Self.point(3, 0))]) }
        replace(with: trees[4], preparedAhead: false)
        both { $0.wait(800) }
        both { $0.frame([.up(ContactID(5))]) }

        #expect(given.log.count > 20, "the script made events")
        #expect(given.log.contains { $0.contains(#""recognizer":"L0-"#) && $0.contains(#""state":"ended""#) },
                "a pan the fingers began before the replacement ended in its own layout")
        #expect(given.log.contains { $0.contains(#""type":"control""#) }, "the button on the new layout tracked its touch")
        #expect(prepared.log == given.log)
        #expect(prepared.engine.recognizerCount == given.engine.recognizerCount)
    }

    /// A layout prepared for one screen and installed after `screen.set` changed it: its
    /// recognizers are made again for the screen in force, as if it had come as a tree. An
    /// edge pan measures its band from the new screen's right edge, not the old one's.
    @Test func aLayoutPreparedForAnotherScreenIsMadeAgain() throws {
        var edge = RecognizerSpec(id: "rightEdge", kind: .edgePan)
        edge.parameters["edges"] = ["right"]
        let small = Rect(x: 0, y: 0, width: 800, height: 480)
        let tree = try ViewTree(root: ViewSpec(id: "root", frame: Self.screen, recognizers: [edge]))
        let first = try Self.layout("A", recognizers: 4)
        var given = Run(first)
        var prepared = Run(first)
        let stale = PreparedLayout(tree: tree, basis: prepared.engine.basis)
        // The screen changes while the layout is being prepared.
        given.engine.reconfigure(settings: given.engine.settings, screen: small)
        prepared.engine.reconfigure(settings: prepared.engine.settings, screen: small)
        #expect(stale.basis != prepared.engine.basis)
        given.replaceLayout(tree)
        prepared.replaceLayout(stale)
        func swipeFromTheRightEdge(_ run: inout Run) {
            run.frame([.down(ContactID(0), Point(x: 797, y: 200))])
            for step in 1...15 { run.frame([.move(ContactID(0), Point(x: 797 - Double(step) * 10, y: 200))]) }
            run.frame([.up(ContactID(0))])
        }
        swipeFromTheRightEdge(&given)
        swipeFromTheRightEdge(&prepared)
        #expect(given.log.contains { $0.contains(#""recognizer":"rightEdge""#) && $0.contains(#""state":"began""#) },
                "the edge of the 800-point screen")
        #expect(prepared.log == given.log)
    }

    /// Installing a prepared layout while a finger is down costs the recognizers in play (those
    /// the finger holds) and the touches, not the new layout's recognizers: the same for 500
    /// and for 10,000.
    @Test(.enabled(if: Engine.countsRecognizerVisits, "the engine counts its visits in debug builds only"))
    func installingDoesNotLookAtTheNewLayoutsRecognizers() throws {
        func installVisits(_ count: Int) throws -> Int {
            var run = Run(try Self.layout("old", recognizers: 16, references: 0))
            run.frame([.down(ContactID(0), Self.point(0, 0))])
            for step in 1...5 { run.frame([.move(ContactID(0), Self.point(0, step))]) }
            var visits = 0
            for round in 0..<3 {
                let next = PreparedLayout(tree: try Self.layout("new\(round)", recognizers: count, references: 0),
                                          basis: run.engine.basis)
                let before = run.engine.recognizerVisits
                run.replaceLayout(next)
                visits += run.engine.recognizerVisits - before
                run.frame([.move(ContactID(0), Self.point(0, 6 + round))])
            }
            // The finger keeps its layout; of those replaced under it, the last two are kept
            // (the one replaced goes at the next replacement, as before).
            #expect(run.engine.recognizerCount == 16 + 2 * count)
            return visits
        }
        let small = try installVisits(500)
        let large = try installVisits(LayoutLimits.maximumRecognizers)
        #expect(large == small, "visits to install: \(small) for 500 recognizers, \(large) for 10,000")
        // Three installs, each looking at the 16 recognizers in play a few times.
        #expect(small <= 3 * 3 * 16)
    }

    /// Two long presses due at the same time, one in a retired layout that sits in a higher
    /// bank than the current layout's: the retired layout's fires first, as the older one.
    @Test func deadlinesOfAnOlderLayoutFireFirstWhateverItsBank() throws {
        func pressLayout(_ id: String) throws -> ViewTree {
            try ViewTree(root: ViewSpec(id: "\(id)-root", frame: Self.screen, multipleTouchEnabled: true,
                                        recognizers: [RecognizerSpec(id: "\(id)-press", kind: .longPress)]))
        }
        var run = Run(try pressLayout("first"))
        run.frame([.down(ContactID(0), Point(x: 100, y: 100))])
        run.replaceLayout(try pressLayout("second")) // the first layout stays (bank 0), the second takes bank 1
        run.frame([.up(ContactID(0))]) // nothing down: the first layout goes, bank 0 is free
        run.frame([.down(ContactID(1), Point(x: 300, y: 300))])
        run.replaceLayout(try pressLayout("third")) // bank 0 again, newer than the second
        run.frame([.down(ContactID(2), Point(x: 600, y: 300))], after: 0) // the same time as the second finger
        run.log.removeAll()
        run.wait(600)
        let began = run.log.filter { $0.contains(#""state":"began""#) }
        #expect(began.count == 2)
        #expect(began.first?.contains(#""recognizer":"second-press""#) == true, "\(began)")
        #expect(began.last?.contains(#""recognizer":"third-press""#) == true, "\(began)")
    }
}
