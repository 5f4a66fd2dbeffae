import Testing
@testable import GestureCore

/// The transform recognizer on synthetic touches: its state machine, its values (a pure
/// rotation, a pure scale, a one-finger pan, fingers joining and leaving without a jump) and
/// its matrix, which must carry every finger of the gesture from where it was to where it is.
@Suite struct TransformRecognizerTests {
    static func twoFingers(_ parameters: RecognizerParameters = [:]) -> RecognizerScript {
        var s = RecognizerScript(.transform, parameters)
        s.frame(.down(1, 400, 400), .down(2, 500, 400)) // span 100, centroid (450, 400)
        return s
    }

    /// The values' matrix carries `from` onto `to` (screen points), within `tolerance`.
    static func carries(_ values: GestureValues, _ from: Point, onto to: Point, _ tolerance: Double = 1e-9) -> Bool {
        guard let matrix = values.matrix else { return false }
        return close(matrix.applied(to: from), to, tolerance)
    }

    @Test func pureRotationTurnsAroundTheCentroidAndUnwrapsPastAFullTurn() {
        var s = Self.twoFingers()
        // Quarter turns clockwise on the screen around (450, 400), one a frame: five of them.
        let places = [(Point(x: 450, y: 350), Point(x: 450, y: 450)), (Point(x: 500, y: 400), Point(x: 400, y: 400)),
                      (Point(x: 450, y: 450), Point(x: 450, y: 350)), (Point(x: 400, y: 400), Point(x: 500, y: 400)),
                      (Point(x: 450, y: 350), Point(x: 450, y: 450))]
        for (first, second) in places {
            s.frame(after: 10, .move(1, first.x, first.y), .move(2, second.x, second.y))
        }
        #expect(s.log == ["10 began", "20 changed", "30 changed", "40 changed", "50 changed"])
        #expect(close(s.values.rotation, 5 * .pi / 2, 1e-9))
        #expect(close(s.values.scale, 1, 1e-12))
        #expect(close(s.values.translation, .zero, 1e-9))
        #expect(s.values.location == Point(x: 450, y: 400))
        #expect(Self.carries(s.values, Point(x: 400, y: 400), onto: Point(x: 450, y: 350)))
        #expect(Self.carries(s.values, Point(x: 500, y: 400), onto: Point(x: 450, y: 450)))
        let m = s.values.matrix
        #expect(close(m?.a, 0, 1e-9) && close(m?.b, 1, 1e-9) && close(m?.c, -1, 1e-9) && close(m?.d, 0, 1e-9),
                "a quarter turn clockwise on the screen: [0, 1, -1, 0, …] as CSS writes it")
        #expect(close(s.values.rotationVelocity, .pi / 2 / 0.010, 1e-6), "a quarter turn every 10 ms")
    }

    @Test func pureScaleAroundTheCentroid() {
        var s = Self.twoFingers()
        s.move(2, 504, 400, after: 10) // the centroid moves 2 pt and the scale 4 %: under every threshold
        #expect(s.log == [])
        s.frame(after: 10, .move(1, 350, 400), .move(2, 550, 400))
        #expect(s.log == ["20 began"])
        #expect(close(s.values.scale, 2, 1e-12))
        #expect(close(s.values.rotation, 0, 1e-12))
        #expect(close(s.values.translation, .zero, 1e-12))
        let m = s.values.matrix
        #expect(close(m?.a, 2) && close(m?.b, 0) && close(m?.c, 0) && close(m?.d, 2))
        #expect(close(m?.tx, -450) && close(m?.ty, -400), "scaled around (450, 400)")
        #expect(Self.carries(s.values, Point(x: 400, y: 400), onto: Point(x: 350, y: 400)))
        s.up(2, 550, 400, after: 10)
        #expect(s.log == ["20 began", "30 changed"], "one finger lifted, one still down: its location changed, not ended")
        #expect(s.values.location == Point(x: 350, y: 400))
        s.up(1, 350, 400, after: 10)
        #expect(s.log == ["20 began", "30 changed", "40 ended"])
        #expect(close(s.values.scale, 2, 1e-12), "the values stay as they were")
    }

    @Test func oneFingerPans() {
        var s = RecognizerScript(.transform)
        s.down(1, 100, 100)
        s.move(1, 105, 100, after: 10)
        #expect(s.log == [], "within the 10 pt slop")
        s.move(1, 120, 130, after: 10)
        #expect(s.log == ["20 began"])
        #expect(s.values.translation == Point(x: 20, y: 30), "the slop included, as a pan reports it")
        #expect(s.values.scale == 1 && s.values.rotation == 0)
        #expect(s.values.matrix == AffineMatrix(a: 1, b: 0, c: 0, d: 1, tx: 20, ty: 30))
        s.move(1, 130, 130, after: 10)
        s.up(1, 130, 130, after: 10)
        #expect(s.log == ["20 began", "30 changed", "40 ended"])
        #expect(s.values.translation == Point(x: 30, y: 30))
    }

    /// A finger that joins or leaves changes the centroid and the fingers' spread, but nothing
    /// reported jumps: the gesture goes on from where it was.
    @Test func aFingerAddedOrLiftedMidGestureMakesNoJump() {
        var s = Self.twoFingers()
        s.frame(after: 10, .move(1, 350, 400), .move(2, 550, 400)) // scale 2
        #expect(s.log == ["10 began"])
        let before = s.values
        s.down(3, 900, 100, after: 10) // far from the others
        #expect(s.log == ["10 began", "20 changed"], "the location is the new centroid, as a pan's")
        #expect(s.values.scale == before.scale && s.values.rotation == before.rotation
                    && s.values.translation == before.translation && s.values.matrix == before.matrix,
                "nothing else changed")
        s.frame(after: 10, .move(1, 360, 400), .move(2, 560, 400), .move(3, 910, 100)) // all three move 10 pt right
        #expect(s.log == ["10 began", "20 changed", "30 changed"])
        #expect(close(s.values.scale, before.scale ?? .nan, 1e-12))
        #expect(close(s.values.rotation, 0, 1e-12))
        #expect(close(s.values.translation, Point(x: 10, y: 0), 1e-9), "only the 10 pt the fingers moved together")
        #expect(Self.carries(s.values, Point(x: 400, y: 400), onto: Point(x: 360, y: 400)),
                "the matrix still carries the first finger's landing place onto it")
        s.up(3, 910, 100, after: 10)
        s.frame(after: 10, .move(1, 370, 400), .move(2, 570, 400))
        #expect(close(s.values.translation, Point(x: 20, y: 0), 1e-9))
        #expect(close(s.values.scale, 2, 1e-12))
        #expect(Self.carries(s.values, Point(x: 500, y: 400), onto: Point(x: 570, y: 400)))
    }

    @Test func threeFingersScaleAndTurnTogether() {
        var s = RecognizerScript(.transform)
        s.frame(.down(1, 400, 400), .down(2, 500, 400), .down(3, 450, 500))
        // The three scaled by 2 around (450, 400) and carried 10 pt down.
        s.frame(after: 10, .move(1, 350, 410), .move(2, 550, 410), .move(3, 450, 610))
        #expect(s.log == ["10 began"])
        #expect(close(s.values.scale, 2, 1e-12))
        #expect(close(s.values.rotation, 0, 1e-12))
        #expect(Self.carries(s.values, Point(x: 450, y: 500), onto: Point(x: 450, y: 610)))
    }

    @Test(arguments: [
        (RecognizerParameters(["minimumTouches": 2]), [String]()),
        (RecognizerParameters(["maximumTouches": 1]), [String]()),
        (RecognizerParameters(["minimumTouches": 2, "maximumTouches": 2]), ["10 began", "20 changed"]),
    ])
    func fingerCountsGateTheBeginning(_ parameters: RecognizerParameters, _ expected: [String]) {
        var s = RecognizerScript(.transform, parameters)
        if parameters.count("minimumTouches") == 2 && parameters.count("maximumTouches") == nil {
            s.down(1, 100, 100)
            s.move(1, 200, 100, after: 10) // one finger of two: nothing
            s.move(1, 300, 100, after: 10)
        } else {
            s.frame(.down(1, 100, 100), .down(2, 200, 100))
            s.frame(after: 10, .move(1, 130, 100))
            s.frame(after: 10, .move(1, 160, 100), .move(2, 260, 100))
        }
        #expect(s.log == expected)
    }

    @Test func aCancelledFingerCancelsOrFails() {
        var s = Self.twoFingers()
        s.frame(after: 10, .move(1, 350, 400), .move(2, 550, 400))
        s.cancel(1, 350, 400, after: 10)
        #expect(s.log == ["10 began", "20 cancelled"])
        var t = Self.twoFingers()
        t.cancel(2, 500, 400, after: 10)
        #expect(t.log == ["10 failed"])
    }

    @Test func beyondTheMaximumFingersAreHeldAside() {
        var s = Self.twoFingers(["maximumTouches": 2])
        s.frame(after: 10, .move(1, 350, 400), .move(2, 550, 400))
        s.down(3, 900, 900, after: 10)
        #expect(s.recognizer.isIgnoring(TouchID(3)))
        s.move(3, 100, 100, after: 10)
        #expect(s.log == ["10 began"], "a finger held aside moves nothing")
        #expect(close(s.values.scale, 2, 1e-12))
    }
}
