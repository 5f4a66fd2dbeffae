import Testing
@testable import GestureCore

/// Complete ordered event logs for the recognizer scenarios of SPEC 5 (issue 4).
@Suite("Recognizers and arbitration: script tests")
struct ArbitrationScriptTests {
    /// A root with one 400 x 400 view "Photo" at (100, 100) carrying `recognizers`.
    func photo(_ recognizers: [RecognizerSpec], configure: (inout ViewSpec) -> Void = { _ in }) -> ViewSpec {
        view("Root", 0, 0, 800, 800, [view("Photo", 100, 100, 400, 400) {
            $0.recognizers = recognizers
            configure(&$0)
        }])
    }

    @Test func singleTap() {
        var s = TouchScript(photo([recognizer("tap", .tap)]))
        s.down(1, 200, 200)
        s.wait(80)
        s.up(1)
        #expect(s.take() == ["began Photo > Root: #1", "cancelled Photo > Root: #1", "tap recognized taps=1"])
    }

    var singleAndDouble: ViewSpec {
        photo([recognizer("double", .tap) { $0.parameters["taps"] = 2 },
               recognizer("single", .tap, requireToFail: ["double"])])
    }

    @Test func doubleTapLayoutWithOneTap() {
        var s = TouchScript(singleAndDouble)
        s.down(1, 200, 200)
        s.wait(80)
        s.up(1)
        #expect(s.take() == ["began Photo > Root: #1"], "the single tap waits for the double tap to fail")
        s.wait(400)
        #expect(s.take() == ["cancelled Photo > Root: #1", "single recognized taps=1"])
    }

    @Test func doubleTapLayoutWithTwoTaps() {
        var s = TouchScript(singleAndDouble)
        s.down(1, 200, 200)
        s.wait(80)
        s.up(1)
        s.wait(120)
        s.down(1, 205, 200)
        s.wait(80)
        s.up(1)
        #expect(s.take() == ["began Photo > Root: #1", "began Photo > Root: #2", "cancelled Photo > Root: #1 #2",
                             "double recognized taps=2"])
        s.wait(1000)
        #expect(s.take() == [], "nothing is left pending")
    }

    @Test func doubleTapLayoutWithThreeTaps() {
        var s = TouchScript(singleAndDouble)
        for _ in 0..<3 {
            s.down(1, 200, 200)
            s.wait(80)
            s.up(1)
            s.wait(120)
        }
        s.wait(400)
        #expect(s.take() == ["began Photo > Root: #1", "began Photo > Root: #2", "cancelled Photo > Root: #1 #2",
                             "double recognized taps=2", "began Photo > Root: #3", "cancelled Photo > Root: #3",
                             "single recognized taps=1"])
    }

    @Test func secondTapTooLate() {
        var s = TouchScript(singleAndDouble)
        s.down(1, 200, 200)
        s.wait(80)
        s.up(1)
        s.wait(500)
        s.down(1, 200, 200)
        s.wait(80)
        s.up(1)
        s.wait(500)
        #expect(s.take() == ["began Photo > Root: #1", "cancelled Photo > Root: #1", "single recognized taps=1",
                             "began Photo > Root: #2", "cancelled Photo > Root: #2", "single recognized taps=1"])
    }

    @Test func secondTapTooFar() {
        var s = TouchScript(singleAndDouble)
        s.down(1, 200, 200)
        s.wait(80)
        s.up(1)
        s.wait(100)
        s.down(1, 400, 400)
        #expect(s.take() == ["began Photo > Root: #1", "cancelled Photo > Root: #1", "single recognized taps=1",
                             "began Photo > Root: #2"])
    }

    @Test func longPressBeginsMovesAndEnds() {
        var s = TouchScript(photo([recognizer("hold", .longPress)]))
        s.down(1, 200, 200)
        s.wait(300)
        #expect(s.take() == ["began Photo > Root: #1"])
        s.wait(300)
        #expect(s.take() == ["cancelled Photo > Root: #1", "hold began"])
        s.move(1, 260, 200)
        s.up(1)
        #expect(s.take() == ["hold changed", "hold ended"])
    }

    @Test func longPressBrokenByMovement() {
        var s = TouchScript(photo([recognizer("hold", .longPress)]))
        s.down(1, 200, 200)
        s.wait(100)
        s.move(1, 220, 200)
        s.wait(600)
        s.up(1)
        #expect(s.take() == ["began Photo > Root: #1", "moved Photo > Root: #1", "ended Photo > Root: #1"])
    }

    @Test func panWinsOverTapAfterTheSlopAndCancelsTheViewsTouches() {
        var s = TouchScript(photo([recognizer("tap", .tap), recognizer("pan", .pan)]))
        s.down(1, 200, 200)
        s.wait(16)
        s.move(1, 205, 200)
        #expect(s.take() == ["began Photo > Root: #1", "moved Photo > Root: #1"])
        s.wait(16)
        s.move(1, 230, 200)
        #expect(s.take() == ["cancelled Photo > Root: #1", "pan began"])
        s.wait(16)
        s.move(1, 260, 200)
        s.up(1)
        #expect(s.take() == ["pan changed", "pan ended"])
    }

    @Test func panWithoutCancellingTouchesInView() {
        var s = TouchScript(photo([recognizer("pan", .pan) { $0.cancelsTouchesInView = false }]))
        s.down(1, 200, 200)
        s.wait(16)
        s.move(1, 230, 200)
        s.wait(16)
        s.move(1, 260, 200)
        s.up(1)
        #expect(s.take() == ["began Photo > Root: #1", "pan began", "moved Photo > Root: #1", "pan changed",
                             "moved Photo > Root: #1", "pan ended", "ended Photo > Root: #1"])
    }

    @Test func delaysTouchesBeganWhenTheRecognizerFails() {
        var s = TouchScript(photo([recognizer("pan", .pan) { $0.delaysTouchesBegan = true }]))
        s.down(1, 200, 200)
        s.wait(16)
        s.move(1, 203, 200)
        #expect(s.take() == [], "began is held while the pan is possible")
        s.up(1)
        #expect(s.take() == ["began Photo > Root: #1", "moved Photo > Root: #1", "ended Photo > Root: #1"])
    }

    @Test func delaysTouchesBeganWhenTheRecognizerRecognizes() {
        var s = TouchScript(photo([recognizer("pan", .pan) { $0.delaysTouchesBegan = true }]))
        s.down(1, 200, 200)
        s.wait(16)
        s.move(1, 230, 200)
        s.up(1)
        #expect(s.take() == ["pan began", "pan ended"], "the view never sees the touch")
    }

    @Test func delaysTouchesEndedWhenTheRecognizerFails() {
        var s = TouchScript(photo([recognizer("double", .tap) { $0.parameters["taps"] = 2 }]))
        s.down(1, 200, 200)
        s.wait(80)
        s.up(1)
        #expect(s.take() == ["began Photo > Root: #1"], "ended is held while the double tap is possible")
        s.wait(400)
        #expect(s.take() == ["ended Photo > Root: #1"])
    }

    @Test func delaysTouchesEndedWhenTheRecognizerRecognizes() {
        var s = TouchScript(photo([recognizer("double", .tap) { $0.parameters["taps"] = 2 }]))
        s.down(1, 200, 200)
        s.wait(80)
        s.up(1)
        s.wait(100)
        s.down(1, 200, 200)
        s.wait(80)
        s.up(1)
        #expect(s.take() == ["began Photo > Root: #1", "began Photo > Root: #2", "cancelled Photo > Root: #1 #2",
                             "double recognized taps=2"], "the held ended of #1 becomes cancelled")
    }

    @Test func withoutDelaysTouchesEndedTheViewSeesTheEndAtOnce() {
        var s = TouchScript(photo([recognizer("double", .tap) {
            $0.parameters["taps"] = 2
            $0.delaysTouchesEnded = false
        }]))
        s.down(1, 200, 200)
        s.wait(80)
        s.up(1)
        s.wait(100)
        s.down(1, 200, 200)
        s.wait(80)
        s.up(1)
        #expect(s.take() == ["began Photo > Root: #1", "ended Photo > Root: #1", "began Photo > Root: #2",
                             "cancelled Photo > Root: #2", "double recognized taps=2"])
    }

    @Test func pinchAndRotationTogether() {
        var s = TouchScript(photo([recognizer("pinch", .pinch, simultaneousWith: ["rotate"]),
                                   recognizer("rotate", .rotation)]) { $0.multipleTouchEnabled = true })
        s.frame(.down(ContactID(1), Point(x: 200, y: 300)), .down(ContactID(2), Point(x: 300, y: 300)))
        s.wait(16)
        s.frame(.move(ContactID(1), Point(x: 190, y: 290)), .move(ContactID(2), Point(x: 330, y: 330)))
        s.wait(16)
        s.frame(.move(ContactID(1), Point(x: 180, y: 280)), .move(ContactID(2), Point(x: 340, y: 350)))
        s.frame(.up(ContactID(1)), .up(ContactID(2)))
        #expect(s.take() == ["began Photo > Root: #1 #2", "cancelled Photo > Root: #1 #2", "pinch began", "rotate began",
                             "pinch changed", "rotate changed", "pinch ended", "rotate ended"])
    }

    @Test func pinchAndRotationWithoutSimultaneityExcludeEachOther() {
        var s = TouchScript(photo([recognizer("pinch", .pinch), recognizer("rotate", .rotation)]) {
            $0.multipleTouchEnabled = true
        })
        s.frame(.down(ContactID(1), Point(x: 200, y: 300)), .down(ContactID(2), Point(x: 300, y: 300)))
        s.wait(16)
        s.frame(.move(ContactID(1), Point(x: 190, y: 290)), .move(ContactID(2), Point(x: 330, y: 330)))
        s.frame(.up(ContactID(1)), .up(ContactID(2)))
        #expect(s.take() == ["began Photo > Root: #1 #2", "cancelled Photo > Root: #1 #2", "pinch began",
                             "pinch ended"])
    }

    @Test(arguments: [(SwipeDirection.right, Point(x: 400, y: 300)), (.left, Point(x: 100, y: 300)),
                      (.up, Point(x: 250, y: 150)), (.down, Point(x: 250, y: 450))])
    func swipeInEachDirection(direction: SwipeDirection, end: Point) {
        var s = TouchScript(photo([recognizer("swipe", .swipe) { $0.parameters["direction"] = .words([direction.rawValue]) }]))
        let start = Point(x: 250, y: 300)
        s.down(1, start.x, start.y)
        s.drag(1, from: start, to: end, steps: 5, interval: 20)
        s.up(1)
        let log = s.take()
        #expect(log.contains("swipe recognized \(direction.rawValue)"))
        #expect(log.suffix(2) == ["cancelled Photo > Root: #1", "swipe recognized \(direction.rawValue)"])
        #expect(!log.contains("ended Photo > Root: #1"))
    }

    @Test func tooSlowSwipeFails() {
        var s = TouchScript(photo([recognizer("swipe", .swipe)], configure: { _ in }), tracing: false)
        s.down(1, 150, 300)
        s.drag(1, from: Point(x: 150, y: 300), to: Point(x: 400, y: 300), steps: 20, interval: 100)
        s.up(1)
        let log = s.take()
        #expect(!log.contains { $0.hasPrefix("swipe") })
        #expect(log.last == "ended Photo > Root: #1")
    }

    @Test func edgePanStartingInsideTheBand() {
        var s = TouchScript(view("Root", 0, 0, 800, 800) { $0.recognizers = [recognizer("back", .edgePan)] })
        s.down(1, 10, 400)
        s.wait(16)
        s.move(1, 60, 400)
        s.up(1)
        #expect(s.take() == ["began Root: #1", "cancelled Root: #1", "back began", "back ended"])
    }

    @Test func edgePanStartingOutsideTheBand() {
        var s = TouchScript(view("Root", 0, 0, 800, 800) { $0.recognizers = [recognizer("back", .edgePan)] })
        s.down(1, 30, 400)
        s.wait(16)
        s.move(1, 80, 400)
        s.up(1)
        #expect(s.take() == ["began Root: #1", "moved Root: #1", "ended Root: #1"])
    }

    func card(buttonRecognizers: [RecognizerSpec] = []) -> ViewSpec {
        view("Root", 0, 0, 800, 800, [view("Card", 100, 100, 400, 400, [
            control("Buy", 100, 100, 100, 50) { $0.recognizers = buttonRecognizers },
        ]) { $0.recognizers = [recognizer("cardTap", .tap)] }])
    }

    @Test func buttonInsideAViewWithATapRecognizerWins() {
        var s = TouchScript(card())
        s.down(1, 250, 220)
        s.wait(80)
        s.up(1)
        #expect(s.take() == ["began Buy: #1", "Buy touchDown #1", "ended Buy: #1", "Buy touchUpInside #1"])
        s.down(1, 120, 120)
        s.wait(80)
        s.up(1)
        #expect(s.take() == ["began Card > Root: #2", "cancelled Card > Root: #2", "cardTap recognized taps=1"])
    }

    @Test func recognizerOnTheButtonItselfTakesPrecedence() {
        var s = TouchScript(card(buttonRecognizers: [recognizer("buyTap", .tap)]))
        s.down(1, 250, 220)
        s.wait(80)
        s.up(1)
        #expect(s.take() == ["began Buy: #1", "Buy touchDown #1", "cancelled Buy: #1", "Buy touchCancel #1",
                             "buyTap recognized taps=1"])
    }

    @Test func ancestorRecognizerSeesTouchesThatHitADescendant() {
        var s = TouchScript(view("Root", 0, 0, 800, 800, [view("Leaf", 100, 100, 50, 50)]) {
            $0.recognizers = [recognizer("rootPan", .pan)]
        })
        s.down(1, 120, 120)
        s.wait(16)
        s.move(1, 160, 120)
        s.up(1)
        #expect(s.take() == ["began Leaf > Root: #1", "cancelled Leaf > Root: #1", "rootPan began", "rootPan ended"])
    }

    @Test func failedTransitionsAppearOnlyWhenTracing() {
        var s = TouchScript(photo([recognizer("tap", .tap), recognizer("pan", .pan)]), tracing: true)
        s.down(1, 200, 200)
        s.wait(16)
        s.move(1, 230, 200)
        #expect(s.take() == ["hitTest #1 => Photo", "began Photo > Root: #1", "cancelled Photo > Root: #1",
                             "pan began", "tap failed"])
    }

    @Test func layoutReplacedMidGestureKeepsTheTouchesViewsAndRecognizers() throws {
        var s = TouchScript(photo([recognizer("pan", .pan)]))
        s.down(1, 200, 200)
        s.replaceLayout(try ViewTree(root: view("Other", 0, 0, 800, 800)))
        s.wait(16)
        s.move(1, 230, 200)
        s.up(1)
        s.down(2, 200, 200)
        s.up(2)
        #expect(s.take() == ["began Photo > Root: #1", "cancelled Photo > Root: #1", "pan began", "pan ended",
                             "began Other: #2", "ended Other: #2"])
    }
}
