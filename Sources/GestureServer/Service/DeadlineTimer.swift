import CLinux
#if canImport(Glibc)
import Glibc
#endif
import GestureSystem

/// A `timerfd` of its own on an ``EventLoop``, for the edges that need a timer besides the
/// loop's single deadline (which belongs to the engine): the watchdog, the pacing of a replay,
/// the linger of closing clients. Disarmed, it costs nothing: the loop never wakes for it.
public final class DeadlineTimer {
    private let fd: Int32
    private let loop: EventLoop
    private var token: EventLoop.Token?
    private var handler: () -> Void
    /// The armed one-shot deadline, if any.
    public private(set) var deadline: Int64?

    public init(loop: EventLoop, handler: @escaping () -> Void) throws(SystemError) {
        self.loop = loop
        self.handler = handler
        fd = try retryingInterrupts("timerfd_create") { timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK)) }
        do {
            token = try loop.watch(fd) { [unowned self] _ in self.fire() }
        } catch {
            close(fd)
            throw error
        }
    }

    deinit {
        if let token { loop.unwatch(token) }
        close(fd)
    }

    /// Fires once at `monotonicMicroseconds` (``MonotonicClock``; a time already past fires at
    /// once), or disarms with `nil`.
    public func arm(at monotonicMicroseconds: Int64?) {
        deadline = monotonicMicroseconds
        var spec = itimerspec()
        if let target = monotonicMicroseconds.map({ max($0, 0) }) {
            spec.it_value = timespec(tv_sec: Int(target / 1_000_000), tv_nsec: Int(target % 1_000_000) * 1000)
            // Zero would disarm: the earliest instant is 1 ns.
            if target == 0 { spec.it_value.tv_nsec = 1 }
        }
        timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Fires every `intervalMicroseconds` from now on (the watchdog).
    public func armRepeating(every intervalMicroseconds: Int64) {
        deadline = nil
        let interval = timespec(tv_sec: Int(intervalMicroseconds / 1_000_000), tv_nsec: Int(intervalMicroseconds % 1_000_000) * 1000)
        var spec = itimerspec(it_interval: interval, it_value: interval)
        timerfd_settime(fd, 0, &spec, nil)
    }

    private func fire() {
        var expirations: UInt64 = 0
        guard read(fd, &expirations, 8) == 8 else { return }
        deadline = nil
        handler()
    }
}
