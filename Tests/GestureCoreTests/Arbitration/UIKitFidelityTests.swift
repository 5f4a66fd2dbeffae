import Testing
@testable import GestureCore

/// Complete ordered logs for issue 27 (docs/recognizers.md § What Apple's documentation says,
/// rule by rule): continuous recognizers change whenever a finger moves, disabling cancels,
/// swipes count every finger, locations as Apple defines them, taps before a long press.
@Suite("Recognizers: UIKit fidelity, second pass")
struct UIKitFidelityTests {
    /// A root with one 600 x 600 view "Photo" at (100, 100) carrying `recognizers`, taking
    /// every finger.
    static func photo(_ recognizers: [RecognizerSpec]) -> ViewSpec {
        view("Root", 0, 0, 800, 800, [view("Photo", 100, 100, 600, 600) {
            $0.recognizers = recognizers
            $0.multipleTouchEnabled = true
        }])
    }

    static func two(_ a: (Double, Double), _ b: (Double, Double), moving: Bool = true) -> [TouchChange] {
        let first = Point(x: a.0, y: a.1), second = Point(x: b.0, y: b.1)
        return moving ? [.move(ContactID(1), first), .move(ContactID(2), second)]
            : [.down(ContactID(1), first), .down(ContactID(2), second)]
    }

    static func gestures(_ log: [String]) -> [String] {
        log.filter { !$0.hasPrefix("began ") && !$0.hasPrefix("moved ") && !$0.hasPrefix("ended ")
            && !$0.hasPrefix("cancelled ") && !$0.hasPrefix("hitTest ") }
    }

    // MARK: - `changed` whenever a finger moves

    /// Two fingers spreading symmetrically: the centroid and the translation stay, the pan
    /// changes in every frame (Apple: it "changes when a finger moves").
    @Test func aPanChangesWhenItsFingersSpreadAroundTheirCentroid() {
        var s = TouchScript(Self.photo([recognizer("pan", .pan)]))
        s.frame(Self.two((300, 400), (500, 400), moving: false))
        s.wait(16); s.frame(Self.two((320, 400), (520, 400)))
        s.wait(16); s.frame(Self.two((310, 400), (530, 400)))
        s.wait(16); s.frame(Self.two((300, 400), (540, 400)))
        s.wait(16); s.frame(.up(ContactID(1)), .up(ContactID(2)))
        #expect(Self.gestures(s.take()) == ["pan began", "pan changed", "pan changed", "pan ended"])
    }

    /// A finger held aside (beyond `maximumTouches`) is not the gesture's: its moves change nothing.
    @Test func aPanDoesNotChangeWhenOnlyAFingerHeldAsideMoves() {
        var s = TouchScript(Self.photo([recognizer("pan", .pan) { $0.parameters["maximumTouches"] = 1 }]))
        s.down(1, 300, 400)
        s.wait(16); s.move(1, 330, 400)
        s.wait(16); s.down(2, 500, 500)
        s.wait(16); s.move(2, 520, 520)
        s.wait(16); s.move(2, 540, 540)
        s.wait(16); s.move(1, 340, 400)
        s.wait(16); s.up(1)
        #expect(Self.gestures(s.take()) == ["pan began", "pan changed", "pan ended"])
    }

    /// Two fingers of a two-finger long press spreading around their centroid after it began.
    @Test func aLongPressChangesWhenAFingerMovesEvenIfTheCentroidStays() {
        var s = TouchScript(Self.photo([recognizer("hold", .longPress) { $0.parameters["touches"] = 2 }]))
        s.showsLocations = true
        s.frame(.down(ContactID(1), Point(x: 300, y: 400)), .down(ContactID(2), Point(x: 500, y: 400)))
        s.wait(600)
        s.frame(.move(ContactID(1), Point(x: 290, y: 400)), .move(ContactID(2), Point(x: 510, y: 400)))
        s.wait(16)
        s.move(1, 290, 400) // the same place: not a move of the finger
        s.wait(16)
        s.move(2, 520, 400)
        s.wait(16)
        s.up(1)
        #expect(Self.gestures(s.take()) == ["hold began @400,400", "hold changed @400,400", "hold changed @405,400",
                                            "hold ended @405,400"])
    }

    /// Two fingers turning around their centre: the pinch's scale stays, and it changes; the
    /// line keeping its angle while it grows: the rotation's value stays, and it changes.
    @Test(arguments: [RecognizerKind.pinch, .rotation])
    func aTwoFingerGestureChangesWhenAFingerMovesEvenIfItsValueStays(kind: RecognizerKind) {
        var s = TouchScript(Self.photo([recognizer("two", kind)]))
        s.frame(.down(ContactID(1), Point(x: 300, y: 400)), .down(ContactID(2), Point(x: 500, y: 400)))
        // Begin: the pinch spreads, the rotation turns.
        s.wait(16)
        if kind == .pinch {
            s.frame(.move(ContactID(1), Point(x: 280, y: 400)), .move(ContactID(2), Point(x: 520, y: 400)))
        } else {
            s.frame(.move(ContactID(1), Point(x: 300, y: 420)), .move(ContactID(2), Point(x: 500, y: 380)))
        }
        // What the other kind measures changes; what this one measures does not.
        s.wait(16)
        if kind == .pinch { // turn the 240-long line by 90° around (400, 400)
            s.frame(.move(ContactID(1), Point(x: 400, y: 280)), .move(ContactID(2), Point(x: 400, y: 520)))
        } else { // grow the line along its own direction, around (400, 400)
            s.frame(.move(ContactID(1), Point(x: 200, y: 440)), .move(ContactID(2), Point(x: 600, y: 360)))
        }
        s.wait(16)
        s.up(1) // the first of the two lifts: the values stay
        s.wait(16)
        s.move(2, 650, 650) // one finger left: no change (Apple: "while both fingers remain touching")
        s.wait(16)
        s.up(2)
        #expect(Self.gestures(s.take()) == ["two began", "two changed", "two ended"])
    }

    /// An edge pan follows its first finger: its moves change it, a second finger's do not.
    @Test func anEdgePanChangesWithItsFingerOnly() {
        var s = TouchScript(view("Root", 0, 0, 800, 800) {
            $0.recognizers = [recognizer("edge", .edgePan)]
            $0.multipleTouchEnabled = true
        })
        s.down(1, 5, 400)
        s.wait(16); s.move(1, 40, 400)
        s.wait(16); s.down(2, 400, 400)
        s.wait(16); s.move(2, 450, 450)
        s.wait(16); s.move(1, 60, 400)
        s.wait(16); s.up(1)
        s.up(2)
        #expect(Self.gestures(s.take()) == ["edge began", "edge changed", "edge ended"])
    }

    // MARK: - Disabling cancels

    /// The layout again, with the recognizer `id` disabled.
    static func disabling(_ id: String, in root: ViewSpec) -> ViewTree {
        try! ViewTree(root: disablingSpec(id, in: root))
    }

    static func disablingSpec(_ id: String, in root: ViewSpec) -> ViewSpec {
        var root = root
        var stack: [WritableKeyPath<ViewSpec, ViewSpec>] = [\.self]
        while let path = stack.popLast() {
            for index in root[keyPath: path].recognizers.indices where root[keyPath: path].recognizers[index].id == id {
                root[keyPath: path].recognizers[index].enabled = false
            }
            for index in root[keyPath: path].subviews.indices { stack.append(path.appending(path: \.subviews[index])) }
        }
        return root
    }

    /// What brings each kind to `began` (continuous) on Photo, finger 1 still down after.
    static func begin(_ kind: RecognizerKind, _ s: inout TouchScript) {
        switch kind {
        case .longPress:
            s.down(1, 300, 400)
            s.wait(600)
        case .pan, .edgePan:
            s.down(1, 5, 400) // in the edge pan's band
            s.wait(16); s.move(1, 40, 400)
        case .pinch, .transform:
            s.frame(.down(ContactID(1), Point(x: 300, y: 400)), .down(ContactID(2), Point(x: 500, y: 400)))
            s.wait(16); s.frame(.move(ContactID(1), Point(x: 260, y: 400)), .move(ContactID(2), Point(x: 540, y: 400)))
        case .rotation:
            s.frame(.down(ContactID(1), Point(x: 300, y: 400)), .down(ContactID(2), Point(x: 500, y: 400)))
            s.wait(16); s.frame(.move(ContactID(1), Point(x: 300, y: 440)), .move(ContactID(2), Point(x: 500, y: 360)))
        case .tap, .swipe:
            Issue.record("\(kind) is discrete")
        default:
            Issue.record("no script begins \(kind)")
        }
    }

    /// A continuous recognizer disabled while it recognizes is cancelled at once, and its
    /// fingers' later moves and lifts report nothing more (Apple, `isEnabled`).
    @Test(arguments: [RecognizerKind.longPress, .pan, .pinch, .rotation, .edgePan, .transform])
    func disablingAContinuousRecognizerThatBeganCancelsIt(kind: RecognizerKind) {
        let root = view("Root", 0, 0, 800, 800, [view("Photo", 0, 0, 800, 800) {
            $0.recognizers = [recognizer("it", kind)]
            $0.multipleTouchEnabled = true
        }])
        var s = TouchScript(root, tracing: true)
        Self.begin(kind, &s)
        #expect(Self.gestures(s.take()) == ["it began"])
        s.wait(16)
        s.replaceLayout(Self.disabling("it", in: root))
        #expect(s.take() == ["it cancelled"])
        s.wait(16); s.move(1, 200, 500)
        s.wait(16); s.frame(.up(ContactID(1)), .up(ContactID(2)))
        // The touches stay cancelled in the view, as they were when it began.
        #expect(s.take() == [])
        // A new finger: the old layout is gone, the disabled recognizer sees nothing.
        s.wait(16); s.down(3, 300, 300)
        s.wait(700); s.move(3, 400, 300)
        s.wait(16); s.up(3)
        #expect(Self.gestures(s.take()) == [])
    }

    /// Every kind, not yet begun (possible, a finger down), fails when disabled: its held
    /// deliveries go out, and it recognizes nothing when the finger goes on.
    @Test(arguments: RecognizerKind.allCases)
    func disablingARecognizerThatHasNotBegunFailsIt(kind: RecognizerKind) {
        let root = view("Root", 0, 0, 800, 800, [view("Photo", 0, 0, 800, 800) {
            $0.recognizers = [recognizer("it", kind)]
            $0.multipleTouchEnabled = true
        }])
        var s = TouchScript(root, tracing: true)
        s.down(1, 10, 400)
        s.down(2, 300, 400)
        s.wait(100)
        // A tap, a swipe and a long press fail at the second finger; the others go on.
        let failedAtTheSecondFinger = kind == .tap || kind == .swipe || kind == .longPress
        #expect(Self.gestures(s.take()) == (failedAtTheSecondFinger ? ["it failed"] : []))
        s.replaceLayout(Self.disabling("it", in: root))
        #expect(s.take() == (failedAtTheSecondFinger ? [] : ["it failed"]))
        s.wait(16); s.frame(.move(ContactID(1), Point(x: 200, y: 400)), .move(ContactID(2), Point(x: 500, y: 300)))
        s.wait(600); s.frame(.up(ContactID(1)), .up(ContactID(2)))
        #expect(Self.gestures(s.take()) == [])
    }

    /// One finger only, so every kind is still undecided when the layout disables it.
    @Test(arguments: [RecognizerKind.tap, .swipe, .longPress, .pan, .edgePan])
    func disablingAOneFingerRecognizerMidGestureFailsItAndReleasesItsHeldEnded(kind: RecognizerKind) {
        let root = view("Root", 0, 0, 800, 800, [view("Photo", 0, 0, 800, 800) {
            $0.recognizers = [recognizer("it", kind) { $0.parameters["taps"] = kind == .tap ? 2 : nil }]
        }])
        var s = TouchScript(root, tracing: true)
        s.down(1, 10, 400)
        if kind == .tap {
            s.wait(50); s.up(1) // the double tap's first tap: its ended is held
        }
        s.wait(50)
        #expect(s.take() == ["hitTest #1 => Photo", "began Photo > Root: #1"])
        s.replaceLayout(Self.disabling("it", in: root))
        let delivered = kind == .tap ? ["ended Photo > Root: #1"] : []
        #expect(s.take() == ["it failed"] + delivered)
    }

    /// A single tap waiting for a double tap to fail recognizes when the double tap is disabled.
    @Test func aTapWaitingForADisabledDoubleTapRecognizes() {
        let root = Self.photo([recognizer("double", .tap) { $0.parameters["taps"] = 2 },
                               recognizer("single", .tap, requireToFail: ["double"])])
        var s = TouchScript(root, tracing: true)
        s.down(1, 300, 300)
        s.wait(50)
        s.up(1)
        s.wait(100)
        #expect(s.take() == ["hitTest #1 => Photo", "began Photo > Root: #1"])
        s.replaceLayout(Self.disabling("double", in: root))
        #expect(s.take() == ["double failed", "cancelled Photo > Root: #1", "single recognized taps=1"])
        s.wait(400)
        #expect(s.take() == [])
    }

    /// Leaving a recognizer out of the new layout is not disabling it: it finishes its gesture.
    @Test func aRecognizerLeftOutOfTheNewLayoutFinishesItsGesture() {
        var s = TouchScript(Self.photo([recognizer("pan", .pan)]))
        s.down(1, 300, 300)
        s.wait(16); s.move(1, 340, 300)
        s.replaceLayout(try! ViewTree(root: Self.photo([])))
        s.wait(16); s.move(1, 360, 300)
        s.wait(16); s.up(1)
        #expect(Self.gestures(s.take()) == ["pan began", "pan changed", "pan ended"])
    }

    /// A layout replaced after a deadline passed that no one advanced to: the deadline fires
    /// first, at its own time, as it would before a frame; then the disabled press is cancelled.
    @Test func aDeadlineDueBeforeTheChangeFiresFirst() {
        let root = Self.photo([recognizer("hold", .longPress)])
        var engine = Engine(tree: try! ViewTree(root: root))
        var events: [EngineEvent] = []
        engine.process(TouchFrame(time: Timestamp(microseconds: 0), changes: [.down(ContactID(1), Point(x: 300, y: 300))]),
                       into: &events)
        events.removeAll()
        engine.replaceLayout(Self.disabling("hold", in: root), at: Timestamp(microseconds: 600_000), into: &events)
        #expect(events.map(TouchScript.describe) == ["cancelled Photo > Root: #1", "hold began", "hold cancelled"])
        #expect(events.compactMap { if case .gesture(let e) = $0 { e.time.microseconds } else { nil } } == [Int64(500_000), 600_000])
    }

    /// Through the pipeline, as `view.update` reaches it: the cancellation comes at the time of
    /// the change, before the `layout` event.
    @Test func throughThePipelineTheCancellationPrecedesTheLayoutEvent() throws {
        let root = view("Root", 0, 0, 1024, 1024, [view("Photo", 0, 0, 1024, 1024) {
            $0.recognizers = [recognizer("hold", .longPress)]
        }])
        var s = try PipelineScript(root, screen: ScreenGeometry(width: 1024, height: 1024))
        _ = s.take()
        // Held, not yet long enough, then disabled: it fails (shown only with tracing).
        s.down(slot: 0, id: 1, 100, 100)
        s.wait(400)
        #expect(s.take() == ["began Photo: #1 (102.4, 102.4)"])
        try s.replaceLayout(Self.disablingSpec("hold", in: root), revision: 1)
        #expect(s.take() == ["layout 1"])
        s.wait(400)
        #expect(s.take() == []) // no began at its deadline
        try s.replaceLayout(root, revision: 2)
        #expect(s.take() == ["layout 2"])
        _ = s.take()
        s.up(slot: 0)
        _ = s.take()
        // Begun, then disabled: cancelled first, then the layout event.
        s.down(slot: 0, id: 2, 100, 100)
        s.wait(600)
        #expect(s.take() == ["began Photo: #2 (102.4, 102.4)", "cancelled Photo: #2", "hold began"])
        try s.replaceLayout(Self.disablingSpec("hold", in: root), revision: 3)
        #expect(s.take() == ["hold cancelled", "layout 3"])
        s.up(slot: 0)
        #expect(s.take() == [])
    }

    // MARK: - A swipe counts every finger

    @Test func aTwoFingerSwipeWithOneFingerStillFails() {
        var s = TouchScript(Self.photo([recognizer("swipe", .swipe) { $0.parameters["touches"] = 2 }]), tracing: true)
        s.frame(.down(ContactID(1), Point(x: 200, y: 300)), .down(ContactID(2), Point(x: 200, y: 500)))
        for step in 1...5 {
            s.wait(16)
            s.move(1, 200 + 30 * Double(step), 300) // finger 2 rests
        }
        s.wait(16)
        s.frame(.up(ContactID(1)), .up(ContactID(2)))
        #expect(Self.gestures(s.take()) == ["swipe failed"])
    }

    @Test(arguments: [2, 3])
    func aSwipeOfEveryFingerRecognizesWhereItBegan(fingers: Int) {
        var s = TouchScript(Self.photo([recognizer("swipe", .swipe) { $0.parameters["touches"] = .count(fingers) }]), tracing: true)
        s.showsLocations = true
        let ys = [300.0, 400, 500].prefix(fingers)
        s.frame(ys.enumerated().map { .down(ContactID($0.offset + 1), Point(x: 200, y: $0.element)) })
        for step in 1...4 {
            s.wait(16)
            // The fingers move at slightly different speeds, all to the right.
            s.frame(ys.enumerated().map { .move(ContactID($0.offset + 1),
                                                Point(x: 200 + Double(step) * (15 + 5 * Double($0.offset)), y: $0.element)) })
        }
        let centre = ys.reduce(0, +) / Double(fingers)
        #expect(Self.gestures(s.take()) == ["swipe recognized right @200,\(TouchScript.number(centre))"])
    }

    @Test func fingersSwipingApartAreNoSwipe() {
        var s = TouchScript(Self.photo([recognizer("swipe", .swipe) {
            $0.parameters["touches"] = 2
            $0.parameters["direction"] = ["left", "right"]
        }]), tracing: true)
        s.frame(.down(ContactID(1), Point(x: 350, y: 300)), .down(ContactID(2), Point(x: 450, y: 300)))
        for step in 1...4 {
            s.wait(16)
            s.frame(.move(ContactID(1), Point(x: 350 - 20 * Double(step), y: 300)),
                    .move(ContactID(2), Point(x: 450 + 20 * Double(step), y: 300)))
        }
        #expect(Self.gestures(s.take()) == ["swipe failed"])
    }

    // MARK: - Locations

    @Test func aDoubleTapIsWhereItsFirstTapWas() {
        var s = TouchScript(Self.photo([recognizer("double", .tap) { $0.parameters["taps"] = 2 }]))
        s.showsLocations = true
        s.down(1, 300, 300)
        s.wait(50); s.up(1)
        s.wait(100); s.down(2, 330, 320)
        s.wait(50); s.up(2)
        #expect(Self.gestures(s.take()) == ["double recognized taps=2 @300,300"])
    }

    @Test func aTwoFingerDoubleTapIsTheCentroidOfItsFirstTap() {
        var s = TouchScript(Self.photo([recognizer("double", .tap) {
            $0.parameters["taps"] = 2
            $0.parameters["touches"] = 2
        }]))
        s.showsLocations = true
        s.frame(.down(ContactID(1), Point(x: 300, y: 300)), .down(ContactID(2), Point(x: 400, y: 300)))
        s.wait(50); s.frame(.up(ContactID(1)), .up(ContactID(2)))
        s.wait(100); s.frame(.down(ContactID(3), Point(x: 320, y: 330)), .down(ContactID(4), Point(x: 420, y: 330)))
        s.wait(50); s.frame(.up(ContactID(3)), .up(ContactID(4)))
        #expect(Self.gestures(s.take()) == ["double recognized taps=2 @350,300"])
    }

    @Test func aPanWhoseFingersAllLiftAtOnceEndsAtTheirCentroid() {
        var s = TouchScript(Self.photo([recognizer("pan", .pan)]))
        s.showsLocations = true
        s.frame(.down(ContactID(1), Point(x: 300, y: 300)), .down(ContactID(2), Point(x: 400, y: 500)))
        s.wait(16); s.frame(.move(ContactID(1), Point(x: 330, y: 300)), .move(ContactID(2), Point(x: 430, y: 500)))
        s.wait(16); s.frame(.up(ContactID(1)), .up(ContactID(2)))
        #expect(Self.gestures(s.take()) == ["pan began @380,400", "pan ended @380,400"])
    }

    @Test func aPanWhoseFingersLiftOneByOneEndsAtTheLast() {
        var s = TouchScript(Self.photo([recognizer("pan", .pan)]))
        s.showsLocations = true
        s.frame(.down(ContactID(1), Point(x: 300, y: 300)), .down(ContactID(2), Point(x: 400, y: 500)))
        s.wait(16); s.frame(.move(ContactID(1), Point(x: 330, y: 300)), .move(ContactID(2), Point(x: 430, y: 500)))
        s.wait(16); s.up(1)
        s.wait(16); s.up(2)
        // The first lift moves the centroid to the finger left (a change, as before).
        #expect(Self.gestures(s.take()) == ["pan began @380,400", "pan changed @430,500", "pan ended @430,500"])
    }

    // MARK: - Taps before a long press

    static func tapThenHold(_ taps: Int, touches: Int = 1) -> ViewSpec {
        photo([recognizer("hold", .longPress) {
            $0.parameters["taps"] = .count(taps)
            $0.parameters["touches"] = .count(touches)
        }])
    }

    @Test(arguments: [1, 2])
    func tapsThenTouchDownAgainAndHold(taps: Int) {
        var s = TouchScript(Self.tapThenHold(taps), tracing: true)
        s.showsLocations = true
        for tap in 0..<taps {
            s.down(1 + tap, 300 + 5 * Double(tap), 300)
            s.wait(60); s.up(1 + tap)
            s.wait(150)
        }
        s.down(10, 310, 305)
        s.wait(400)
        #expect(Self.gestures(s.take()) == [])
        s.wait(100)
        s.wait(16); s.move(10, 330, 305)
        s.wait(16); s.up(10)
        #expect(Self.gestures(s.take()) == ["hold began @310,305", "hold changed @330,305", "hold ended @330,305"])
    }

    @Test func aPlainHoldIsNotATapThenAHold() {
        var s = TouchScript(Self.tapThenHold(1), tracing: true)
        s.down(1, 300, 300)
        s.wait(800) // the tap lasts longer than a tap may
        s.up(1)
        #expect(Self.gestures(s.take()) == ["hold failed"])
    }

    @Test(arguments: [("late", 400.0, 300.0), ("far", 150.0, 360.0)])
    func thePressMustFollowTheTapSoonAndNear(_ why: String, _ pause: Double, _ x: Double) {
        var s = TouchScript(Self.tapThenHold(1), tracing: true)
        s.down(1, 300, 300)
        s.wait(60); s.up(1)
        s.wait(Int64(pause))
        s.down(2, x, 300)
        s.wait(700)
        s.up(2)
        #expect(Self.gestures(s.take()) == ["hold failed"], "\(why)")
    }

    @Test func aTwoFingerTapThenATwoFingerHold() {
        var s = TouchScript(Self.tapThenHold(1, touches: 2), tracing: true)
        s.frame(.down(ContactID(1), Point(x: 300, y: 300)), .down(ContactID(2), Point(x: 400, y: 300)))
        s.wait(60); s.frame(.up(ContactID(1)), .up(ContactID(2)))
        s.wait(100); s.frame(.down(ContactID(3), Point(x: 305, y: 300)), .down(ContactID(4), Point(x: 405, y: 300)))
        s.wait(500)
        s.up(3)
        s.up(4)
        #expect(Self.gestures(s.take()) == ["hold began", "hold ended"])
    }
}
