import Testing
@testable import GestureCore

@Suite struct SwipeRecognizerTests {
    static let unit: [SwipeDirection: Point] = [
        .right: Point(x: 1, y: 0), .left: Point(x: -1, y: 0), .up: Point(x: 0, y: -1), .down: Point(x: 0, y: 1),
    ]

    /// A finger from (500, 400) moving `step` points per 10 ms along `way`, plus `drift` across.
    static func flick(_ s: inout RecognizerScript, _ way: Point, steps: Int, step: Double, every ms: Double = 10,
                      drift: Point = .zero, lift: Bool = true) {
        s.down(1, 500, 400)
        var p = Point(x: 500, y: 400)
        for _ in 0..<steps {
            p = Point(x: p.x + way.x * step + drift.x, y: p.y + way.y * step + drift.y)
            s.move(1, p.x, p.y, after: ms)
        }
        if lift { s.up(1, p.x, p.y, after: ms) }
    }

    @Test(arguments: SwipeDirection.allCases)
    func recognizedWhileMovingInEachDirection(direction: SwipeDirection) {
        var s = RecognizerScript(.swipe, RecognizerParameters(["direction": .words([direction.rawValue])]))
        Self.flick(&s, Self.unit[direction]!, steps: 4, step: 20)
        #expect(s.log == ["30 recognized"]) // 60 pt after 30 ms: 2000 pt/s
        #expect(s.values.direction == direction)
        // Apple: `location(in:)` gives "the location where a swipe began".
        #expect(s.values.location == Point(x: 500, y: 400))
    }

    @Test(arguments: SwipeDirection.allCases)
    func wrongDirectionFails(direction: SwipeDirection) {
        let allowed = SwipeDirection.allCases.filter { $0 != direction }
        var s = RecognizerScript(.swipe, RecognizerParameters(["direction": .words(allowed.map(\.rawValue))]))
        Self.flick(&s, Self.unit[direction]!, steps: 4, step: 20)
        #expect(s.log == ["30 failed"])
    }

    @Test func anyOfSeveralDirections() {
        var s = RecognizerScript(.swipe, RecognizerParameters(["direction": ["left", "up"]]))
        Self.flick(&s, Self.unit[.up]!, steps: 4, step: 20)
        #expect(s.log == ["30 recognized"])
        #expect(s.values.direction == .up)
    }

    @Test func tooSlow() {
        var s = RecognizerScript(.swipe)
        Self.flick(&s, Self.unit[.right]!, steps: 2, step: 25, every: 150) // 50 pt in 300 ms: 167 pt/s
        #expect(s.log == ["300 failed"])
    }

    @Test func tooShort() {
        var s = RecognizerScript(.swipe)
        Self.flick(&s, Self.unit[.right]!, steps: 2, step: 20) // 40 pt, then lift
        #expect(s.log == ["30 failed"])
    }

    @Test func recognizedByTheLiftItself() {
        var s = RecognizerScript(.swipe)
        s.down(1, 500, 400)
        s.move(1, 540, 400, after: 10)
        s.up(1, 560, 400, after: 10)
        #expect(s.log == ["20 recognized"])
        #expect(s.values.direction == .right)
    }

    @Test func tooLate() {
        var s = RecognizerScript(.swipe)
        Self.flick(&s, Self.unit[.right]!, steps: 6, step: 5, every: 100, lift: false) // 30 pt in 600 ms
        #expect(s.log == ["500 failed"])
    }

    @Test func diagonalFails() {
        var s = RecognizerScript(.swipe, RecognizerParameters(["direction": ["right"]]))
        Self.flick(&s, Self.unit[.right]!, steps: 3, step: 20, drift: Point(x: 0, y: 12)) // 60 across 36
        #expect(s.log == ["30 failed"])
    }

    @Test func slightlyOffAxisIsStillASwipe() {
        var s = RecognizerScript(.swipe, RecognizerParameters(["direction": ["right"]]))
        Self.flick(&s, Self.unit[.right]!, steps: 3, step: 20, drift: Point(x: 0, y: 5)) // 60 across 15
        #expect(s.log == ["30 recognized"])
    }

    @Test func twoFingerSwipe() {
        var s = RecognizerScript(.swipe, RecognizerParameters(["touches": 2, "direction": ["down"]]))
        s.frame(.down(1, 400, 300), .down(2, 500, 300))
        s.frame(after: 10, .move(1, 400, 330), .move(2, 500, 330))
        s.frame(after: 10, .move(1, 400, 360), .move(2, 500, 360))
        #expect(s.log == ["20 recognized"])
        #expect(s.values.location == Point(x: 450, y: 300)) // where it began
    }

    @Test func extraFingerFails() {
        var s = RecognizerScript(.swipe)
        s.down(1, 500, 400)
        s.down(2, 600, 400, after: 10)
        #expect(s.log == ["10 failed"])
    }
}
