import Testing
@testable import GestureCore

@Suite struct LongPressRecognizerTests {
    @Test func beginsMovesEnds() {
        var s = RecognizerScript(.longPress)
        s.down(1, 100, 100)
        s.wait(600)
        #expect(s.values.location == Point(x: 100, y: 100))
        s.move(1, 150, 100, after: 100) // no movement limit once begun
        #expect(s.values.location == Point(x: 150, y: 100))
        s.up(1, 160, 100, after: 100)
        #expect(s.log == ["500 began", "700 changed", "800 ended"])
        #expect(s.values.location == Point(x: 160, y: 100))
    }

    @Test func smallMovementBeforeBeginningIsAllowed() {
        var s = RecognizerScript(.longPress)
        s.down(1, 100, 100)
        s.move(1, 106, 108, after: 100) // exactly 10 pt
        s.wait(500)
        #expect(s.log == ["500 began"])
        #expect(s.values.location == Point(x: 106, y: 108))
    }

    @Test func brokenByMovement() {
        var s = RecognizerScript(.longPress)
        s.down(1, 100, 100)
        s.move(1, 111, 100, after: 100)
        s.wait(1000)
        #expect(s.log == ["100 failed"])
        #expect(s.recognizer.deadline == nil)
    }

    @Test func liftedEarly() {
        var s = RecognizerScript(.longPress)
        s.down(1, 100, 100)
        s.up(1, 100, 100, after: 200)
        s.wait(1000)
        #expect(s.log == ["200 failed"])
    }

    @Test func cancelledAfterBeginning() {
        var s = RecognizerScript(.longPress)
        s.down(1, 100, 100)
        s.cancel(1, 100, 100, after: 550)
        #expect(s.log == ["500 began", "550 cancelled"])
    }

    @Test func stationaryFramesDoNotChange() {
        var s = RecognizerScript(.longPress)
        s.down(1, 100, 100)
        s.move(1, 100, 100, after: 600)
        s.up(1, 100, 100, after: 100)
        #expect(s.log == ["500 began", "700 ended"])
    }

    @Test func twoFingersTimerStartsWithTheSecond() {
        var s = RecognizerScript(.longPress, RecognizerParameters(["touches": 2]))
        s.down(1, 100, 100)
        s.down(2, 200, 100, after: 100)
        s.wait(550)
        #expect(s.log == ["600 began"])
        #expect(s.values.location == Point(x: 150, y: 100))
    }

    @Test func extraFingerBeforeBeginningFails() {
        var s = RecognizerScript(.longPress)
        s.down(1, 100, 100)
        s.down(2, 200, 100, after: 100)
        #expect(s.log == ["100 failed"])
    }

    @Test func extraFingerAfterBeginningIsIgnored() {
        var s = RecognizerScript(.longPress)
        s.down(1, 100, 100)
        s.down(2, 300, 300, after: 600)
        s.move(2, 400, 300, after: 10)
        s.up(2, 400, 300, after: 10)
        s.up(1, 100, 100, after: 10)
        #expect(s.log == ["500 began", "630 ended"])
        #expect(s.values.location == Point(x: 100, y: 100))
        #expect(s.recognizer.trackedTouchCount == 0)
    }

    // The arena normally delivers the deadline before a later frame; when it does not, a
    // touch input after the deadline acts as if the deadline fired first.
    @Test func overdueDeadlineThenMove() {
        var s = RecognizerScript(.longPress)
        s.deliversDeadlines = false
        s.down(1, 100, 100)
        s.move(1, 200, 100, after: 600)
        #expect(s.log == ["600 began", "600 changed"])
        #expect(s.values.location == Point(x: 200, y: 100))
    }

    @Test func overdueDeadlineThenLift() {
        var s = RecognizerScript(.longPress)
        s.deliversDeadlines = false
        s.down(1, 100, 100)
        s.up(1, 100, 100, after: 600)
        #expect(s.log == ["600 began", "600 ended"])
        #expect(s.recognizer.isFinished)
    }

    @Test func overdueDeadlineThenLiftReportsTheEndAsADeadline() {
        var recognizer = AnyRecognizer(parameters: GestureSettings.defaults(for: .longPress),
                                       context: RecognizerContext(screen: RecognizerScript.screen))
        let t0 = Timestamp.zero, t1 = Timestamp(microseconds: 600_000)
        #expect(recognizer.handle(.touchBegan(TouchSample(touch: TouchID(1), location: .zero, time: t0))) == .none)
        #expect(recognizer.handle(.touchEnded(TouchSample(touch: TouchID(1), location: .zero, time: t1))) == .began)
        #expect(recognizer.deadline == t1)
        #expect(recognizer.handle(.deadline(t1)) == .ended)
        #expect(recognizer.deadline == nil)
    }
}
