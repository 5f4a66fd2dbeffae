import Testing
@testable import GestureCore

@Suite struct VelocityTrackerTests {
    static func ms(_ value: Double) -> Timestamp { Timestamp(microseconds: Int64(value * 1000)) }

    @Test func steadyMoveIsExact() {
        var tracker = VelocityTracker()
        for i in 0...30 { tracker.add(Point(x: Double(i) * 10, y: Double(i) * -3), at: Self.ms(Double(i) * 10)) }
        #expect(close(tracker.velocity(at: Self.ms(300)), Point(x: 1000, y: -300), 1e-6))
    }

    @Test func irregularSamplingOfASteadyMoveIsExact() {
        var tracker = VelocityTracker()
        for t in [0.0, 7, 16, 22, 35, 41, 58] { tracker.add(Point(x: t * 2, y: 0), at: Self.ms(t)) } // 2000 pt/s
        #expect(close(tracker.velocity(at: Self.ms(58)).x, 2000, 1e-6))
    }

    @Test func needsTwoSamples() {
        var tracker = VelocityTracker()
        #expect(tracker.velocity(at: .zero) == .zero)
        tracker.add(Point(x: 5, y: 5), at: .zero)
        #expect(tracker.velocity(at: .zero) == .zero)
        tracker.add(Point(x: 15, y: 5), at: Self.ms(10))
        #expect(tracker.velocity(at: Self.ms(10)) == Point(x: 1000, y: 0))
    }

    @Test func onlyTheLast100msCount() {
        var tracker = VelocityTracker()
        var x = 0.0
        for i in 0...10 { tracker.add(Point(x: x, y: 0), at: Self.ms(Double(i) * 10)); x += 1 } // 100 pt/s
        for i in 11...30 { x += 10; tracker.add(Point(x: x, y: 0), at: Self.ms(Double(i) * 10)) } // 1000 pt/s
        #expect(close(tracker.velocity(at: Self.ms(300)).x, 1000, 1e-6))
    }

    @Test func aRestAfterTheLastSampleMeansStopped() {
        var tracker = VelocityTracker()
        tracker.add(Point(x: 0, y: 0), at: Self.ms(0))
        tracker.add(Point(x: 10, y: 0), at: Self.ms(10))
        #expect(tracker.velocity(at: Self.ms(50)).x == 1000) // 40 ms later: still moving
        #expect(tracker.velocity(at: Self.ms(51)) == .zero)
    }

    @Test func aGapBetweenSamplesStartsAfresh() {
        var tracker = VelocityTracker()
        tracker.add(Point(x: 0, y: 0), at: Self.ms(0))
        tracker.add(Point(x: 100, y: 0), at: Self.ms(10)) // 10 000 pt/s before the gap
        tracker.add(Point(x: 100, y: 0), at: Self.ms(60)) // 50 ms gap
        tracker.add(Point(x: 105, y: 0), at: Self.ms(70))
        #expect(close(tracker.velocity(at: Self.ms(70)).x, 500, 1e-6))
    }

    @Test func clearForgets() {
        var tracker = VelocityTracker()
        tracker.add(1, at: Self.ms(0))
        tracker.add(2, at: Self.ms(10))
        tracker.clear()
        #expect(tracker.velocity(at: Self.ms(10)) == .zero)
        tracker.add(2, at: Self.ms(20))
        tracker.add(1, at: Self.ms(30))
        #expect(close(tracker.velocity(at: Self.ms(30)).x, -100, 1e-9))
    }
}
