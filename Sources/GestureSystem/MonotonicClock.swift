#if canImport(Glibc)
import Glibc
#endif

/// `CLOCK_MONOTONIC`, the clock evdev events are stamped with once
/// `libevdev_set_clock_id(CLOCK_MONOTONIC)` is set (docs/input.md, "Devices"), so live input, deadlines and
/// timers share one timeline. Only the edges read it; the engine never does. Wraps
/// clock_gettime(2) and clock_nanosleep(2), which cannot fail for this clock and valid
/// arguments (the only errors are `EINVAL`/`EFAULT`, and `EINTR` for the sleep).
public enum MonotonicClock {
    /// Now, in microseconds.
    public static func microseconds() -> Int64 {
        nanoseconds() / 1000
    }

    /// Now, in nanoseconds.
    public static func nanoseconds() -> Int64 {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Int64(spec.tv_sec) * 1_000_000_000 + Int64(spec.tv_nsec)
    }

    /// Sleeps until `target` (nanoseconds, `TIMER_ABSTIME`); false when a signal cut the sleep
    /// short (`EINTR`), so the caller can look at what the signal asked before sleeping again.
    public static func sleep(untilNanoseconds target: Int64) -> Bool {
        let clamped = max(target, 0)
        var request = timespec(tv_sec: Int(clamped / 1_000_000_000), tv_nsec: Int(clamped % 1_000_000_000))
        return clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &request, nil) == 0
    }
}
