#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import Synchronization

/// Paces a replay on `CLOCK_MONOTONIC` (`--realtime`): the first call anchors the recording's
/// timeline to now; later calls sleep (`clock_nanosleep`) until the same offset has passed.
/// A stop request (SIGTERM) interrupts the sleep.
public final class MonotonicPacer: Pacer {
    private let origin: Timestamp
    private let wallOrigin: Int64
    private let stop: StopFlag

    public init(recordingStart: Timestamp, stop: StopFlag) {
        origin = recordingStart
        wallOrigin = Self.now()
        self.stop = stop
    }

    public func wait(until time: Timestamp) {
        let target = wallOrigin + (time.microseconds - origin.microseconds) * 1000
        while !stop.isSet {
            let remaining = target - Self.now()
            guard remaining > 0 else { return }
            var request = timespec(tv_sec: Int(remaining / 1_000_000_000), tv_nsec: Int(remaining % 1_000_000_000))
            // EINTR (a signal arrived) loops back to check the stop flag.
            _ = clock_nanosleep(CLOCK_MONOTONIC, 0, &request, nil)
        }
    }

    /// `clock_gettime(CLOCK_MONOTONIC)` in nanoseconds.
    static func now() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}

/// A flag a signal handler sets (SIGTERM, SIGINT) and the input loop polls.
public final class StopFlag: Sendable {
    private let flag = Atomic<Bool>(false)

    public init() {}

    public var isSet: Bool { flag.load(ordering: .relaxed) }

    public func set() { flag.store(true, ordering: .relaxed) }
}
