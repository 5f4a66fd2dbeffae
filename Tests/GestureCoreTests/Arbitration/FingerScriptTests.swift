import Testing
@testable import GestureCore

/// Complete ordered logs for issue 10: every finger reaches the recognizers of its view, and
/// a finger that joins a gesture under way belongs to it (SPEC 5.2, 5.3, 5.7).
@Suite("Recognizers and arbitration: every finger counts")
struct FingerScriptTests {
    /// A root with one 400 x 400 view "Photo" at (100, 100) carrying `recognizers`.
    func photo(_ recognizers: [RecognizerSpec], multipleTouch: Bool = false) -> ViewSpec {
        view("Root", 0, 0, 800, 800, [view("Photo", 100, 100, 400, 400) {
            $0.recognizers = recognizers
            $0.multipleTouchEnabled = multipleTouch
        }])
    }

    func twoFingerTap(_ id: String) -> RecognizerSpec {
        recognizer(id, .tap) { $0.parameters["touches"] = 2 }
    }

    // MARK: Discrete recognizers fail with more fingers than they require

    @Test func aOneFingerTapTouchedWithTwoFingersFails() {
        var s = TouchScript(photo([recognizer("tap", .tap)], multipleTouch: true), tracing: true)
        s.down(1, 200, 200)
        s.wait(20)
        s.down(2, 300, 200)
        s.wait(60)
        s.up(1)
        s.up(2)
        #expect(s.take() == ["hitTest #1 => Photo", "began Photo > Root: #1", "hitTest #2 => Photo", "tap failed",
                             "began Photo > Root: #2", "ended Photo > Root: #1", "ended Photo > Root: #2"])
    }

    @Test(arguments: [0, 20] as [Int64])
    func oneAndTwoFingerTapsOnOneViewTheTwoFingerTapWins(apart: Int64) {
        var s = TouchScript(photo([recognizer("one", .tap), twoFingerTap("two")]), tracing: true)
        if apart == 0 {
            s.frame(.down(ContactID(1), Point(x: 200, y: 200)), .down(ContactID(2), Point(x: 300, y: 200)))
        } else {
            s.down(1, 200, 200)
            s.wait(apart)
            s.down(2, 300, 200)
        }
        s.wait(80)
        s.frame(.up(ContactID(1)), .up(ContactID(2)))
        // Photo is not multipleTouchEnabled: it is delivered the first finger only.
        let landing = apart == 0
            ? ["hitTest #1 => Photo", "hitTest #2 => Photo", "one failed", "began Photo > Root: #1"]
            : ["hitTest #1 => Photo", "began Photo > Root: #1", "hitTest #2 => Photo", "one failed"]
        #expect(s.take() == landing + ["cancelled Photo > Root: #1", "two recognized taps=1"])
    }

    @Test(arguments: [0, 20] as [Int64])
    func oneAndTwoFingerSwipesOnOneViewTheTwoFingerSwipeWins(apart: Int64) {
        var s = TouchScript(photo([recognizer("one", .swipe), recognizer("two", .swipe) { $0.parameters["touches"] = 2 }]))
        if apart == 0 {
            s.frame(.down(ContactID(1), Point(x: 150, y: 200)), .down(ContactID(2), Point(x: 150, y: 300)))
        } else {
            s.down(1, 150, 200)
            s.wait(apart)
            s.down(2, 150, 300)
        }
        for step in 1...5 {
            s.wait(16)
            let x = 150 + 30 * Double(step)
            s.frame(.move(ContactID(1), Point(x: x, y: 200)), .move(ContactID(2), Point(x: x, y: 300)))
        }
        s.frame(.up(ContactID(1)), .up(ContactID(2)))
        #expect(s.take() == ["began Photo > Root: #1", "moved Photo > Root: #1", "cancelled Photo > Root: #1",
                             "two recognized right"])
    }

    @Test func aLongPressWithASecondFingerDownEarlyFails() {
        var s = TouchScript(photo([recognizer("hold", .longPress)], multipleTouch: true), tracing: true)
        s.down(1, 200, 200)
        s.wait(100)
        s.down(2, 300, 200)
        s.wait(600)
        s.up(2)
        s.up(1)
        #expect(s.take() == ["hitTest #1 => Photo", "began Photo > Root: #1", "hitTest #2 => Photo", "hold failed",
                             "began Photo > Root: #2", "ended Photo > Root: #2", "ended Photo > Root: #1"])
    }

    /// Property of the table: a discrete recognizer requiring n fingers never recognizes while
    /// more are down, however the fingers are spread over its view and its subviews.
    @Test func aTapOnAParentSeesFingersOnItsSubviewsToo() {
        let layout = view("Root", 0, 0, 800, 800, [view("Card", 100, 100, 400, 400, [view("Inner", 0, 0, 100, 100)]) {
            $0.recognizers = [recognizer("cardTap", .tap)]
        }])
        var s = TouchScript(layout, tracing: true)
        s.down(1, 150, 150) // on Inner
        s.down(2, 400, 400) // on Card
        s.up(2)
        s.up(1)
        #expect(s.take().filter { $0.hasPrefix("cardTap") } == ["cardTap failed"])
    }

    // MARK: A finger that joins a gesture under way belongs to it

    /// A scrolling list with a button: the pan recognized with the first finger, so a second
    /// finger on the button is the pan's; the button never sees it (SPEC 5.2).
    func list(maximumTouches: Int? = nil) -> ViewSpec {
        view("Root", 0, 0, 800, 800, [view("List", 0, 0, 800, 800, [control("Buy", 400, 400, 200, 100)]) {
            $0.recognizers = [recognizer("scroll", .pan) { $0.parameters["maximumTouches"] = maximumTouches.map(ParameterValue.count) }]
        }])
    }

    @Test func aSecondFingerOnAButtonInsideARecognizedPanIsThePans() {
        var s = TouchScript(list())
        s.down(1, 100, 100)
        s.wait(16)
        s.move(1, 100, 130)
        #expect(s.take() == ["began List > Root: #1", "cancelled List > Root: #1", "scroll began"])
        s.wait(16)
        s.down(2, 500, 450)
        s.wait(16)
        s.frame(.move(ContactID(1), Point(x: 100, y: 150)), .move(ContactID(2), Point(x: 500, y: 470)))
        s.wait(16)
        s.up(2)
        s.up(1)
        #expect(s.take() == ["scroll changed", "scroll changed", "scroll changed", "scroll ended"],
                "no delivery and no control event for the second finger")
    }

    @Test func theJoiningFingerIsListedByTheGesture() {
        var s = TouchScript(list())
        var events: [EngineEvent] = []
        s.down(1, 100, 100)
        s.wait(16)
        s.move(1, 100, 130)
        s.wait(16)
        s.down(2, 500, 450)
        s.wait(16)
        s.engine.process(TouchFrame(time: Timestamp(microseconds: 48_000 + 16_000),
                                    changes: [.move(ContactID(2), Point(x: 500, y: 470))]), into: &events)
        guard case .gesture(let changed)? = events.last else { Issue.record("no gesture event: \(events)"); return }
        #expect(changed.touches == [TouchID(1), TouchID(2)])
    }

    /// A pan at its `maximumTouches` sets further fingers aside: they reach the views as usual.
    @Test func aPanAtItsMaximumLeavesTheExtraFingerToTheButton() {
        var s = TouchScript(list(maximumTouches: 1))
        s.down(1, 100, 100)
        s.wait(16)
        s.move(1, 100, 130)
        s.wait(16)
        s.down(2, 500, 450)
        s.wait(16)
        s.up(2)
        s.up(1)
        #expect(s.take() == ["began List > Root: #1", "cancelled List > Root: #1", "scroll began",
                             "began Buy: #2", "Buy touchDown #2", "ended Buy: #2", "Buy touchUpInside #2",
                             "scroll ended"])
    }

    /// With `cancelsTouchesInView: false` a joining finger is the gesture's and still reaches
    /// its view.
    @Test func withoutCancellingTheJoiningFingerStillReachesItsView() {
        var s = TouchScript(view("Root", 0, 0, 800, 800, [view("List", 0, 0, 800, 800, [control("Buy", 400, 400, 200, 100)]) {
            $0.recognizers = [recognizer("scroll", .pan) { $0.cancelsTouchesInView = false }]
        }]))
        s.down(1, 100, 100)
        s.wait(16)
        s.move(1, 100, 130)
        s.wait(16)
        s.down(2, 500, 450)
        #expect(s.take() == ["began List > Root: #1", "scroll began", "moved List > Root: #1", "scroll changed",
                             "began Buy: #2", "Buy touchDown #2"])
    }

    // MARK: Two-finger gestures end at the last lift; edge pans follow their first finger

    @Test func pinchAndRotationWithOneFingerLiftedEarlyEndAtTheLastLift() {
        var s = TouchScript(photo([recognizer("pinch", .pinch, simultaneousWith: ["rotate"]),
                                   recognizer("rotate", .rotation)], multipleTouch: true))
        s.frame(.down(ContactID(1), Point(x: 200, y: 300)), .down(ContactID(2), Point(x: 300, y: 300)))
        s.wait(16)
        s.frame(.move(ContactID(1), Point(x: 190, y: 290)), .move(ContactID(2), Point(x: 330, y: 330)))
        s.wait(16)
        s.up(2)
        #expect(s.take() == ["began Photo > Root: #1 #2", "cancelled Photo > Root: #1 #2", "pinch began", "rotate began"],
                "one finger lifted: neither ended")
        s.wait(16)
        s.move(1, 150, 250)
        s.wait(16)
        s.up(1)
        #expect(s.take() == ["pinch ended", "rotate ended"])
    }

    @Test func anEdgePanWithAStillSecondFingerFollowsTheFirst() {
        var s = TouchScript(view("Root", 0, 0, 800, 800) {
            $0.recognizers = [recognizer("back", .edgePan)]
            $0.multipleTouchEnabled = true
        })
        var translations: [Double] = []
        var events: [EngineEvent] = []
        var now: Int64 = 0
        func frame(_ changes: TouchChange...) {
            now += 16_000
            events.removeAll()
            s.engine.process(TouchFrame(time: Timestamp(microseconds: now), changes: changes), into: &events)
            for case .gesture(let g) in events { translations.append(g.values.translation?.x ?? .nan) }
        }
        frame(.down(ContactID(1), Point(x: 5, y: 400)))
        frame(.down(ContactID(2), Point(x: 400, y: 400))) // still, far from the edge
        frame(.move(ContactID(1), Point(x: 35, y: 400)))
        frame(.move(ContactID(1), Point(x: 95, y: 400)))
        frame(.up(ContactID(1)))
        frame(.up(ContactID(2)))
        #expect(translations == [30, 90, 90], "began, changed, ended: the first finger's movement, not averaged")
    }

    // MARK: Order: the cancellation comes before the recognition

    @Test func theViewsCancellationComesBeforeTheGesturesFirstEvent() {
        var s = TouchScript(photo([recognizer("pan", .pan)]))
        s.down(1, 200, 200)
        s.wait(16)
        s.move(1, 230, 200)
        #expect(s.take() == ["began Photo > Root: #1", "cancelled Photo > Root: #1", "pan began"])
    }

    // MARK: Controls are judged where they stand now

    func button(at x: Double) -> ViewSpec {
        view("Root", 0, 0, 800, 800, [control("Buy", x, 100, 200, 100)])
    }

    @Test func aControlMovedAwayUnderTheFingerGetsTouchUpOutside() throws {
        var s = TouchScript(button(at: 100))
        s.down(1, 150, 150)
        s.replaceLayout(try ViewTree(root: button(at: 500))) // view.update moves it far away
        s.wait(16)
        s.move(1, 151, 150)
        s.up(1)
        #expect(s.take() == ["began Buy: #1", "Buy touchDown #1", "moved Buy: #1", "Buy touchDragExit #1",
                             "ended Buy: #1", "Buy touchUpOutside #1"])
    }

    @Test func aControlMovedUnderTheFingerGetsTouchUpInside() throws {
        var s = TouchScript(view("Root", 0, 0, 800, 800, [control("Buy", 100, 100, 50, 50)]))
        s.down(1, 120, 120)
        s.move(1, 400, 120) // dragged far outside
        s.replaceLayout(try ViewTree(root: view("Root", 0, 0, 800, 800, [control("Buy", 350, 100, 100, 50)])))
        s.up(1)
        #expect(s.take() == ["began Buy: #1", "Buy touchDown #1", "moved Buy: #1", "Buy touchDragExit #1",
                             "ended Buy: #1", "Buy touchUpInside #1"])
    }

    @Test(arguments: ["hidden", "alpha", "userInteractionEnabled", "parentHidden"])
    func aControlThatStopsReceivingTouchesGetsTouchCancel(change: String) throws {
        func layout(_ changed: Bool) -> ViewSpec {
            view("Root", 0, 0, 800, 800, [view("Panel", 0, 0, 800, 800, [control("Buy", 100, 100, 200, 100) {
                guard changed else { return }
                switch change {
                case "hidden": $0.hidden = true
                case "alpha": $0.alpha = 0
                case "userInteractionEnabled": $0.userInteractionEnabled = false
                default: break
                }
            }]) { if changed && change == "parentHidden" { $0.hidden = true } }])
        }
        var s = TouchScript(layout(false))
        s.down(1, 150, 150)
        s.replaceLayout(try ViewTree(root: layout(true)))
        s.wait(16)
        s.move(1, 152, 150)
        s.up(1)
        #expect(s.take() == ["began Buy: #1", "Buy touchDown #1", "cancelled Buy: #1", "Buy touchCancel #1"])
    }

    @Test func aViewTheNewLayoutNoLongerHasKeepsItsTouch() throws {
        var s = TouchScript(button(at: 100))
        s.down(1, 150, 150)
        s.replaceLayout(try ViewTree(root: view("Root", 0, 0, 800, 800)))
        s.up(1)
        #expect(s.take() == ["began Buy: #1", "Buy touchDown #1", "ended Buy: #1", "Buy touchUpInside #1"])
    }
}

/// A finger resting on the panel (a stuck contact, a cup on a table) keeps a pan that takes
/// two fingers `possible` for as long as it rests; every touch tapped beside it joins the pan's
/// sequence and has its `ended` held for it (delaysTouchesEnded). Without a bound, the held
/// touches piled up for as long as the finger rested, each scanned every frame (4,000 taps
/// took a replay 8 s, 20,000 about 1,000 s). A recognizer keeps at most 20 lifted touches
/// (docs/limits.md): past that, the oldest one's `ended` is delivered.
@Suite("A resting finger and many taps beside it")
struct RestingFingerTests {
    static var wall: ViewSpec {
        view("Root", 0, 0, 1000, 800, [view("Wall", 0, 0, 1000, 800, [view("Photo", 500, 100, 300, 300)]) {
            $0.recognizers = [recognizer("wallPan", .pan) { $0.parameters["maximumTouches"] = 2 }]
        }])
    }

    @Test func heldEndsAreBoundedAndDeliveredOldestFirst() {
        var s = TouchScript(Self.wall)
        s.down(1, 100, 700) // rests until the end
        #expect(s.take() == ["began Wall > Root: #1"])
        let taps = 60
        for tap in 1...taps {
            s.wait(300)
            s.down(tap + 1, 600, 200)
            let began = s.take()
            // Touch ids: the resting finger is #1, tap k is #(k + 1). Once 20 lifted taps are
            // held, each new tap's arrival delivers the oldest one's end.
            let released = tap > 21 ? ["ended Photo > Wall > Root: #\(tap - 20)"] : []
            #expect(began == released + ["began Photo > Wall > Root: #\(tap + 1)"], "tap \(tap)")
            s.wait(50)
            s.up(tap + 1)
            #expect(s.take().isEmpty, "tap \(tap)'s end is held while the pan is undecided")
            #expect(s.engine.activeTouchCount <= 1 + 20 + 1, "tap \(tap): \(s.engine.activeTouchCount) touches kept")
        }
        s.up(1)
        // The resting finger lifts: the pan fails and releases what it still held: the last 21
        // taps (20 kept when the last one joined, and the last one).
        let held = (taps - 20...taps).map { "#\($0 + 1)" }.joined(separator: " ")
        #expect(s.take() == ["ended Photo > Wall > Root: \(held)", "ended Wall > Root: #1"])
        #expect(s.engine.activeTouchCount == 0)
    }
}
