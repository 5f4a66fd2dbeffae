import GestureCore
import Recordings
import Testing

/// The rule that keeps an input's times from going backwards (issue 25), on its own.
@Suite struct EventTimeClampTests {
    static func event(_ microseconds: Int64) -> RawEvent {
        RawEvent(time: Timestamp(microseconds: microseconds), type: EventType.syn, code: SynCode.report, value: 0)
    }

    /// Each stamp in, the time it goes on with and whether it went back, in order.
    static func run(_ clamp: inout EventTimeClamp, _ stamps: [Int64]) -> [(Int64, Bool)] {
        stamps.map { stamp in
            var event = event(stamp)
            let back = clamp.clamp(&event)
            return (event.time.microseconds, back)
        }
    }

    @Test func anEarlierEventTakesThePreviousTimeUntilTheInputCatchesUp() {
        var clamp = EventTimeClamp()
        let result = Self.run(&clamp, [10, 20, 20, 15, 12, 18, 20, 25, 5, 30])
        #expect(result.map(\.0) == [10, 20, 20, 20, 20, 20, 20, 25, 25, 30])
        #expect(result.map(\.1) == [false, false, false, true, true, true, false, false, true, false])
        #expect(clamp.eventsBack == 4)
        #expect(clamp.stepsBack == 2, "15, 12, 18 are one place; 5 another")
        #expect(clamp.furthestBack == TimeSpan(microseconds: 20))
    }

    /// A deadline the engine was given raises the floor: an event stamped before it is late,
    /// not back, and goes on at the deadline without being counted.
    @Test func anEventLateAfterADeadlineIsClampedSilently() {
        var clamp = EventTimeClamp()
        _ = Self.run(&clamp, [100])
        clamp.raise(to: Timestamp(microseconds: 150))
        let result = Self.run(&clamp, [120, 130, 110, 160])
        #expect(result.map(\.0) == [150, 150, 150, 160])
        #expect(result.map(\.1) == [false, false, true, false], "110 is before the device's own 130")
        #expect(clamp.eventsBack == 1)
        clamp.raise(to: Timestamp(microseconds: 140))
        #expect(clamp.floor == Timestamp(microseconds: 160), "the floor never goes down")
    }

    /// Another device starts its own count; the floor, where the engine has been, stays.
    @Test func anotherInputStartsItsCountButKeepsTheFloor() {
        var clamp = EventTimeClamp()
        _ = Self.run(&clamp, [100, 50])
        #expect(clamp.eventsBack == 1)
        clamp.startInput()
        #expect(clamp.eventsBack == 0 && clamp.stepsBack == 0 && clamp.furthestBack == TimeSpan(microseconds: 0))
        let result = Self.run(&clamp, [90, 95, 200])
        #expect(result.map(\.0) == [100, 100, 200])
        #expect(result.map(\.1) == [false, false, false])
    }

    /// The whole range of stamps: a clamp, never a trap.
    @Test func theWholeRangeIsClampedWithoutOverflow() {
        var clamp = EventTimeClamp()
        let result = Self.run(&clamp, [.max, .min, 0, .max])
        #expect(result.map(\.0) == [.max, .max, .max, .max])
        #expect(clamp.furthestBack == TimeSpan(microseconds: .max))
    }

    @Test func aBatchIsClampedInOrder() {
        var clamp = EventTimeClamp()
        var events = [30, 10, 40, 20].map(Self.event)
        let back = events.withUnsafeMutableBufferPointer { clamp.clamp($0) }
        #expect(back == 2)
        #expect(events.map(\.time.microseconds) == [30, 30, 40, 40])
    }
}
