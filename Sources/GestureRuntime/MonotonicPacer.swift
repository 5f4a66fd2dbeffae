import GestureCore
import GestureSystem
import Synchronization

/// Paces a replay on `CLOCK_MONOTONIC` (`--realtime`): the first call anchors the recording's
/// timeline to now; later calls sleep (GestureSystem's ``MonotonicClock/sleep(untilNanoseconds:)``)
/// until the same offset has passed. A stop request (SIGTERM) interrupts the sleep. An offset
/// too large for the clock (a recording whose timestamps jump by centuries) saturates: the
/// replay then waits until it is stopped, rather than trapping on an overflow.
public final class MonotonicPacer: Pacer {
    private let origin: Timestamp
    private let wallOrigin: Int64
    private let stop: StopFlag

    public init(recordingStart: Timestamp, stop: StopFlag) {
        origin = recordingStart
        wallOrigin = MonotonicClock.nanoseconds()
        self.stop = stop
    }

    public func wait(until time: Timestamp) {
        let target = Self.target(wallOrigin: wallOrigin, time: time.microseconds, origin: origin.microseconds)
        while !stop.isSet, MonotonicClock.nanoseconds() < target {
            // false: a signal arrived; loop back to check the stop flag.
            _ = MonotonicClock.sleep(untilNanoseconds: target)
        }
    }

    /// The monotonic time (ns) `time - origin` µs after `wallOrigin`, saturating instead of
    /// overflowing: a time too far ahead is `Int64.max` (never), one before the origin is now.
    static func target(wallOrigin: Int64, time: Int64, origin: Int64) -> Int64 {
        let offset = time.subtractingReportingOverflow(origin)
        // An overflowed difference has the wrong sign; the operands tell the right one.
        guard !offset.overflow else { return time > origin ? .max : wallOrigin }
        let nanoseconds = offset.partialValue.multipliedReportingOverflow(by: 1000)
        guard !nanoseconds.overflow else { return offset.partialValue < 0 ? wallOrigin : .max }
        let sum = wallOrigin.addingReportingOverflow(nanoseconds.partialValue)
        return sum.overflow ? (nanoseconds.partialValue < 0 ? 0 : .max) : sum.partialValue
    }
}

/// A flag a signal handler sets (SIGTERM, SIGINT) and the input loop polls.
public final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public var isSet: Bool { flag.load(ordering: .relaxed) }

    public func set() { flag.store(true, ordering: .relaxed) }
}
