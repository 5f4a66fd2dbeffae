import Testing
@testable import GestureCore

@Suite struct TapRecognizerTests {
    @Test func singleTap() {
        var s = RecognizerScript(.tap)
        s.down(1, 100, 100)
        s.up(1, 102, 101, after: 100)
        #expect(s.log == ["100 recognized"])
        #expect(s.values.location == Point(x: 102, y: 101))
        #expect(s.values.taps == 1)
    }

    @Test func heldTooLongFailsAtMaxDuration() {
        var s = RecognizerScript(.tap)
        s.down(1, 100, 100)
        s.up(1, 100, 100, after: 800)
        #expect(s.log == ["750 failed"])
    }

    @Test func movedTooFarFails() {
        var s = RecognizerScript(.tap)
        s.down(1, 100, 100)
        s.move(1, 140, 100, after: 20) // 40 pt: still a tap
        s.move(1, 146, 100, after: 20) // 46 pt > 45
        s.up(1, 146, 100, after: 20)
        #expect(s.log == ["40 failed"])
    }

    @Test func liftTooFarFails() {
        var s = RecognizerScript(.tap)
        s.down(1, 100, 100)
        s.up(1, 100, 150, after: 50)
        #expect(s.log == ["50 failed"])
    }

    @Test(arguments: [1, 2, 3])
    func multipleTaps(taps: Int) {
        var s = RecognizerScript(.tap, RecognizerParameters(["taps": .count(taps)]))
        for i in 0..<taps {
            s.down(1 + i, 100 + Double(i), 100, after: i == 0 ? 0 : 200)
            s.up(1 + i, 100 + Double(i), 100, after: 100)
        }
        #expect(s.log == ["\(300 * taps - 200) recognized"])
        #expect(s.values.taps == taps)
        // Apple: "if there are multiple taps, this location is the first tap".
        #expect(s.values.location == Point(x: 100, y: 100))
    }

    @Test func doubleTapNeedsTheSecondTap() {
        var s = RecognizerScript(.tap, RecognizerParameters(["taps": 2]))
        s.down(1, 100, 100)
        s.up(1, 100, 100, after: 100)
        s.wait(1000)
        #expect(s.log == ["450 failed"]) // 100 ms + maxInterval 350 ms
    }

    @Test func secondTapTooLate() {
        var s = RecognizerScript(.tap, RecognizerParameters(["taps": 2]))
        s.down(1, 100, 100)
        s.up(1, 100, 100, after: 100)
        s.down(2, 100, 100, after: 350) // exactly maxInterval: too late
        s.up(2, 100, 100, after: 50)
        #expect(s.log == ["450 failed"])
    }

    @Test func secondTapJustInTime() {
        var s = RecognizerScript(.tap, RecognizerParameters(["taps": 2]))
        s.down(1, 100, 100)
        s.up(1, 100, 100, after: 100)
        s.down(2, 100, 100, after: 349)
        s.up(2, 100, 100, after: 50)
        #expect(s.log == ["499 recognized"])
    }

    @Test func secondTapTooFar() {
        var s = RecognizerScript(.tap, RecognizerParameters(["taps": 2]))
        s.down(1, 100, 100)
        s.up(1, 100, 100, after: 100)
        s.down(2, 146, 100, after: 100)
        #expect(s.log == ["200 failed"])
    }

    @Test func twoFingerTapLandingAndLiftingTogether() {
        var s = RecognizerScript(.tap, RecognizerParameters(["touches": 2]))
        s.frame(.down(1, 100, 100), .down(2, 160, 100))
        s.frame(after: 80, .up(1, 100, 100), .up(2, 160, 110))
        #expect(s.log == ["80 recognized"])
        #expect(s.values.location == Point(x: 130, y: 105))
        #expect(s.values.taps == 1)
    }

    @Test func twoFingerTapStaggered() {
        var s = RecognizerScript(.tap, RecognizerParameters(["touches": 2]))
        s.down(1, 100, 100)
        s.down(2, 160, 100, after: 30)
        s.up(1, 100, 100, after: 50)
        s.up(2, 160, 100, after: 20)
        #expect(s.log == ["100 recognized"])
        #expect(s.values.location == Point(x: 130, y: 100))
    }

    @Test func twoFingerTapWithOneFingerFails() {
        var s = RecognizerScript(.tap, RecognizerParameters(["touches": 2]))
        s.down(1, 100, 100)
        s.up(1, 100, 100, after: 50)
        #expect(s.log == ["50 failed"])
    }

    @Test func twoFingerTapFingersNeverDownTogetherFails() {
        var s = RecognizerScript(.tap, RecognizerParameters(["touches": 2]))
        s.down(1, 100, 100)
        s.up(1, 100, 100, after: 50)
        s.down(2, 100, 100, after: 10)
        #expect(s.log == ["50 failed"])
    }

    @Test func extraFingerFails() {
        var s = RecognizerScript(.tap, RecognizerParameters(["touches": 2]))
        s.frame(.down(1, 100, 100), .down(2, 160, 100), .down(3, 200, 100))
        #expect(s.log == ["0 failed"])
    }

    @Test func twoFingerDoubleTap() {
        var s = RecognizerScript(.tap, RecognizerParameters(["taps": 2, "touches": 2]))
        s.frame(.down(1, 100, 100), .down(2, 160, 100))
        s.frame(after: 80, .up(1, 100, 100), .up(2, 160, 100))
        s.frame(after: 100, .down(3, 110, 100), .down(4, 170, 100))
        s.frame(after: 80, .up(3, 110, 100), .up(4, 170, 100))
        #expect(s.log == ["260 recognized"])
        #expect(s.values.location == Point(x: 130, y: 100)) // the first tap's centroid
        #expect(s.values.taps == 2)
    }

    @Test func cancelledTouchFails() {
        var s = RecognizerScript(.tap)
        s.down(1, 100, 100)
        s.cancel(1, 100, 100, after: 30)
        #expect(s.log == ["30 failed"])
    }

    @Test func deadlineOnlyWhileNeeded() {
        var s = RecognizerScript(.tap, RecognizerParameters(["taps": 2]))
        #expect(s.recognizer.deadline == nil)
        s.down(1, 100, 100)
        #expect(s.recognizer.deadline == Timestamp(microseconds: 750_000))
        s.up(1, 100, 100, after: 100)
        #expect(s.recognizer.deadline == Timestamp(microseconds: 450_000))
        s.down(2, 100, 100, after: 100)
        s.up(2, 100, 100, after: 100)
        #expect(s.recognizer.deadline == nil)
    }
}
