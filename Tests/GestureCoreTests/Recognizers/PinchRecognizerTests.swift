import Testing
@testable import GestureCore

@Suite struct PinchRecognizerTests {
    static func twoFingers() -> RecognizerScript {
        var s = RecognizerScript(.pinch)
        s.frame(.down(1, 400, 400), .down(2, 500, 400)) // span 100
        return s
    }

    @Test func apart() {
        var s = Self.twoFingers()
        s.move(2, 504, 400, after: 10) // 1.04: under the 5 % threshold
        s.move(2, 510, 400, after: 10)
        #expect(s.values.scale == 1.1)
        s.frame(after: 10, .move(1, 350, 400), .move(2, 550, 400))
        #expect(s.values.scale == 2)
        #expect(s.values.location == Point(x: 450, y: 400))
        s.up(2, 550, 400, after: 10)
        #expect(s.log == ["20 began", "30 changed"], "one finger lifted: not ended yet")
        s.move(1, 100, 400, after: 10)
        s.up(1, 100, 400, after: 10)
        #expect(s.log == ["20 began", "30 changed", "60 ended"], "it ends when both fingers have lifted")
        #expect(s.values.scale == 2, "the values stay as they were when the first finger lifted")
    }

    @Test func together() {
        var s = Self.twoFingers()
        s.frame(after: 10, .move(1, 425, 400), .move(2, 475, 400))
        #expect(s.log == ["10 began"])
        #expect(s.values.scale == 0.5)
    }

    @Test func scaleVelocity() {
        var s = Self.twoFingers()
        for i in 1...10 { s.move(2, 500 + 2 * Double(i), 400, after: 10) } // +0.02 per 10 ms
        #expect(close(s.values.scaleVelocity, 2, 1e-6))
    }

    /// UIKit's pinch follows its first two fingers; a third is held but ignored, also before
    /// it began.
    @Test func thirdFingerBeforeBeginningIsIgnored() {
        var s = Self.twoFingers()
        s.down(3, 450, 500, after: 10)
        s.frame(after: 10, .move(2, 600, 400), .move(3, 0, 0))
        #expect(s.log == ["20 began"])
        #expect(s.values.scale == 2)
        #expect(s.values.location == Point(x: 500, y: 400))
    }

    @Test func aLiftBeforeBeginningReformsThePairWithAFingerHeldAside() {
        var s = Self.twoFingers()
        s.down(3, 400, 600, after: 10) // held aside
        s.up(2, 500, 400, after: 10) // the pair is now 1 and 3, 200 apart
        s.move(3, 400, 800, after: 10)
        #expect(s.log == ["30 began"])
        #expect(s.values.scale == 2)
        #expect(!s.recognizer.isIgnoring(TouchID(3)))
    }

    @Test func thirdFingerAfterBeginningIsIgnored() {
        var s = Self.twoFingers()
        s.move(2, 600, 400, after: 10)
        s.down(3, 0, 0, after: 10)
        s.move(3, 50, 50, after: 10)
        s.up(3, 50, 50, after: 10)
        s.up(1, 400, 400, after: 10)
        s.up(2, 600, 400, after: 10)
        #expect(s.log == ["10 began", "60 ended"])
        #expect(s.values.scale == 2)
    }

    @Test func liftBeforeBeginningWaitsForANewSecondFinger() {
        var s = Self.twoFingers()
        s.up(2, 500, 400, after: 10)
        s.down(3, 400, 500, after: 10) // span 100 again
        s.move(3, 400, 600, after: 10)
        #expect(s.log == ["30 began"])
        #expect(s.values.scale == 2)
    }

    @Test func allLiftedBeforeBeginningFails() {
        var s = Self.twoFingers()
        s.frame(after: 10, .up(1, 400, 400), .up(2, 500, 400))
        #expect(s.log == ["10 failed"])
    }

    @Test func cancelledAfterBeginning() {
        var s = Self.twoFingers()
        s.move(2, 600, 400, after: 10)
        s.cancel(1, 400, 400, after: 10)
        #expect(s.log == ["10 began", "20 cancelled"])
    }
}
