import Testing
@testable import GestureCore

@Suite struct RotationRecognizerTests {
    /// Two fingers: the first at (400, 400), the second at `second`.
    static func twoFingers(second: Point) -> RecognizerScript {
        var s = RecognizerScript(.rotation)
        s.frame(.down(1, 400, 400), .down(2, second.x, second.y))
        return s
    }

    @Test func quarterTurnClockwise() {
        var s = Self.twoFingers(second: Point(x: 500, y: 400)) // pointing right
        s.move(2, 500, 500, after: 10) // 45° clockwise on screen (y down)
        s.move(2, 400, 500, after: 10) // 90°: pointing down
        s.up(2, 400, 500, after: 10)
        s.up(1, 400, 400, after: 10)
        #expect(s.log == ["10 began", "20 changed", "40 ended"], "it ends when both fingers have lifted")
        #expect(close(s.values.rotation, .pi / 2, 1e-12))
    }

    @Test func counterClockwiseIsNegative() {
        var s = Self.twoFingers(second: Point(x: 500, y: 400))
        s.move(2, 500, 300, after: 10)
        #expect(close(s.values.rotation, -.pi / 4, 1e-12))
    }

    @Test func acrossTheSeam() {
        var s = Self.twoFingers(second: Point(x: 300, y: 500)) // 135°
        s.move(2, 300, 400, after: 10) // 180°
        s.move(2, 300, 300, after: 10) // 225°, which atan2 calls -135°
        #expect(close(s.values.rotation, .pi / 2, 1e-12))
        s.move(2, 400, 300, after: 10) // 270°
        s.move(2, 500, 300, after: 10) // 315°
        s.move(2, 500, 400, after: 10) // 360°
        s.move(2, 500, 500, after: 10) // 405°: more than a full turn
        #expect(close(s.values.rotation, 3 * .pi / 2, 1e-12))
    }

    @Test func bothFingersTurningInOneFrame() {
        var s = Self.twoFingers(second: Point(x: 500, y: 400))
        s.frame(after: 10, .move(1, 450, 350), .move(2, 450, 450)) // a quarter turn about the centre, in one step
        #expect(s.log == ["10 began"])
        #expect(close(s.values.rotation, .pi / 2, 1e-12))
        #expect(s.values.location == Point(x: 450, y: 400))
    }

    @Test func belowTheThresholdDoesNotBegin() {
        var s = Self.twoFingers(second: Point(x: 500, y: 400))
        s.move(2, 500, 409, after: 10) // atan(0.09) ≈ 0.0898 rad < 0.1
        #expect(s.log == [])
        s.move(2, 500, 411, after: 10) // ≈ 0.1096 rad
        #expect(s.log == ["20 began"])
    }

    @Test func rotationVelocity() {
        var s = Self.twoFingers(second: Point(x: 500, y: 400))
        s.move(2, 500, 500, after: 10) // π/4 per 10 ms
        s.move(2, 400, 500, after: 10)
        #expect(close(s.values.rotationVelocity, 25 * .pi, 1e-6))
    }

    @Test func thirdFingerBeforeBeginningIsIgnored() {
        var s = Self.twoFingers(second: Point(x: 500, y: 400))
        s.down(3, 0, 0, after: 10)
        s.frame(after: 10, .move(2, 400, 500), .move(3, 900, 900))
        #expect(s.log == ["20 began"])
        #expect(close(s.values.rotation, .pi / 2, 1e-12))
    }
}
