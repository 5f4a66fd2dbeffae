#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC`, the clock evdev events are stamped with once
/// `libevdev_set_clock_id(CLOCK_MONOTONIC)` is set (SPEC 6), so live input, deadlines and
/// timers share one timeline. Only the edges read it; the engine never does.
public enum MonotonicClock {
    /// Now, in microseconds.
    public static func microseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000 + Int64(spec.tv_nsec) / 1000
    }

    /// Now, in nanoseconds.
    public static func nanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }
}
