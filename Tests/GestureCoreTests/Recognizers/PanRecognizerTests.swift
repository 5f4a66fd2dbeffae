import Testing
@testable import GestureCore

@Suite struct PanRecognizerTests {
    @Test func beginsPastTheSlopWithTranslationIncludingIt() {
        var s = RecognizerScript(.pan)
        s.down(1, 100, 100)
        s.move(1, 105, 100, after: 10)
        s.move(1, 110, 100, after: 10) // exactly 10 pt: not yet
        s.move(1, 111, 100, after: 10)
        #expect(s.log == ["30 began"])
        #expect(s.values.translation == Point(x: 11, y: 0))
        #expect(s.values.location == Point(x: 111, y: 100))
        s.move(1, 131, 110, after: 10)
        s.up(1, 131, 110, after: 10)
        #expect(s.log == ["30 began", "40 changed", "50 ended"])
        #expect(s.values.translation == Point(x: 31, y: 10))
    }

    @Test func velocityOfASteadyMove() {
        var s = RecognizerScript(.pan)
        s.down(1, 100, 100)
        for i in 1...20 { s.move(1, 100 + 10 * Double(i), 100 - 5 * Double(i), after: 10) }
        #expect(close(s.values.velocity, Point(x: 1000, y: -500), 1))
        s.up(1, 300, 0, after: 10)
        #expect(s.log.last == "210 ended")
        #expect(close(s.values.velocity, Point(x: 1000, y: -500), 1))
    }

    @Test func velocityIsZeroAfterResting() {
        var s = RecognizerScript(.pan)
        s.down(1, 100, 100)
        for i in 1...5 { s.move(1, 100 + 10 * Double(i), 100, after: 10) }
        s.up(1, 150, 100, after: 200)
        #expect(s.values.velocity == .zero)
    }

    @Test func fingerJoiningMidPanDoesNotJump() {
        var s = RecognizerScript(.pan)
        s.down(1, 100, 100)
        s.move(1, 150, 100, after: 10)
        s.down(2, 300, 300, after: 10)
        #expect(s.values.translation == Point(x: 50, y: 0))
        #expect(s.values.location == Point(x: 225, y: 200))
        s.frame(after: 10, .move(1, 160, 100), .move(2, 310, 300))
        #expect(s.values.translation == Point(x: 60, y: 0))
        s.up(1, 160, 100, after: 10) // leaving does not jump either
        s.move(2, 320, 300, after: 10)
        #expect(s.values.translation == Point(x: 70, y: 0))
        s.up(2, 320, 300, after: 10)
        #expect(s.log == ["10 began", "20 changed", "30 changed", "40 changed", "50 changed", "60 ended"])
    }

    @Test func velocityDoesNotSpikeWhenAFingerJoins() {
        var s = RecognizerScript(.pan)
        s.down(1, 100, 100)
        for i in 1...10 { s.move(1, 100 + 10 * Double(i), 100, after: 10) }
        s.frame(after: 10, .move(1, 210, 100), .down(2, 700, 500)) // the centroid jumps 250 pt
        for i in 1...5 { s.frame(after: 10, .move(1, 210 + 10 * Double(i), 100), .move(2, 700 + 10 * Double(i), 500)) }
        #expect(close(s.values.velocity, Point(x: 1000, y: 0), 1))
        #expect(s.values.translation == Point(x: 160, y: 0))
    }

    /// SPEC 5.2: a pan that has not begun does not begin while more fingers than
    /// `maximumTouches` are down; it does not fail, and begins once enough have lifted.
    @Test func tooManyFingersKeepItFromBeginning() {
        var s = RecognizerScript(.pan, RecognizerParameters(["maximumTouches": 1]))
        s.down(1, 100, 100)
        s.down(2, 200, 100, after: 10)
        s.frame(after: 10, .move(1, 150, 100), .move(2, 250, 100))
        #expect(s.log == [], "two fingers down: no pan, and no failure")
        s.up(2, 250, 100, after: 10)
        s.move(1, 155, 100, after: 10) // movement with two fingers did not count
        #expect(s.log == [])
        s.move(1, 170, 100, after: 10)
        #expect(s.log == ["50 began"])
        #expect(s.values.translation == Point(x: 20, y: 0))
    }

    @Test func maximumTouchesExtraFingerAfterBeginningIsIgnored() {
        var s = RecognizerScript(.pan, RecognizerParameters(["maximumTouches": 1]))
        s.down(1, 100, 100)
        s.move(1, 120, 100, after: 10)
        s.down(2, 500, 500, after: 10)
        s.move(2, 600, 500, after: 10)
        s.up(1, 120, 100, after: 10)
        #expect(s.log == ["10 began", "40 ended"])
        #expect(s.values.translation == Point(x: 20, y: 0))
        #expect(s.recognizer.trackedTouches == [TouchID(2)])
    }

    @Test func minimumTouchesWaitsAndCountsOnlyInRange() {
        var s = RecognizerScript(.pan, RecognizerParameters(["minimumTouches": 2]))
        s.down(1, 100, 100)
        s.move(1, 200, 100, after: 10) // one finger: does not count
        s.down(2, 200, 200, after: 10)
        s.frame(after: 10, .move(1, 206, 100), .move(2, 206, 200))
        s.up(2, 206, 200, after: 10) // back to one finger: keep waiting
        s.down(3, 206, 200, after: 10)
        s.frame(after: 10, .move(1, 212, 100), .move(3, 212, 200))
        #expect(s.log == ["60 began"])
        #expect(s.values.translation == Point(x: 12, y: 0))
    }

    /// Apple: the pan "changes when a finger moves while at least the minimum number of
    /// fingers are pressed down. It ends when all fingers are lifted." Below the minimum the
    /// translation stays where it was and nothing is reported.
    @Test func belowTheMinimumAfterBeginningHoldsStillUntilTheLastLift() {
        var s = RecognizerScript(.pan, RecognizerParameters(["minimumTouches": 2]))
        s.frame(.down(1, 100, 100), .down(2, 200, 100))
        s.frame(after: 10, .move(1, 120, 100), .move(2, 220, 100))
        #expect(s.log == ["10 began"])
        s.up(2, 220, 100, after: 10)
        s.move(1, 200, 100, after: 10) // one finger: no change
        s.move(1, 260, 100, after: 10)
        #expect(s.log == ["10 began"])
        #expect(s.values.translation == Point(x: 20, y: 0))
        s.down(3, 260, 200, after: 10) // two again: the location moves to their centroid
        #expect(s.log == ["10 began", "50 changed"])
        #expect(s.values.translation == Point(x: 20, y: 0))
        s.frame(after: 10, .move(1, 270, 100), .move(3, 270, 200)) // and changes resume from here
        #expect(s.log == ["10 began", "50 changed", "60 changed"])
        #expect(s.values.translation == Point(x: 30, y: 0))
        s.up(3, 270, 200, after: 10)
        s.up(1, 270, 100, after: 10)
        #expect(s.log == ["10 began", "50 changed", "60 changed", "80 ended"])
        #expect(s.values.translation == Point(x: 30, y: 0))
    }

    @Test func liftedBeforeBeginningFails() {
        var s = RecognizerScript(.pan)
        s.down(1, 100, 100)
        s.move(1, 105, 100, after: 10)
        s.up(1, 105, 100, after: 10)
        #expect(s.log == ["20 failed"])
    }

    @Test func cancelledAfterBeginning() {
        var s = RecognizerScript(.pan)
        s.down(1, 100, 100)
        s.move(1, 150, 100, after: 10)
        s.cancel(1, 150, 100, after: 10)
        #expect(s.log == ["10 began", "20 cancelled"])
    }

    @Test func cancelledBeforeBeginningFails() {
        var s = RecognizerScript(.pan)
        s.down(1, 100, 100)
        s.cancel(1, 100, 100, after: 10)
        #expect(s.log == ["10 failed"])
    }

    @Test func bothFingersMovingInOneFrameIsOneChange() {
        var s = RecognizerScript(.pan)
        s.frame(.down(1, 100, 100), .down(2, 200, 100))
        s.frame(after: 10, .move(1, 100, 120), .move(2, 200, 120))
        s.frame(after: 10, .move(1, 100, 140), .move(2, 200, 140))
        #expect(s.log == ["10 began", "20 changed"])
        #expect(s.values.translation == Point(x: 0, y: 40))
    }
}
