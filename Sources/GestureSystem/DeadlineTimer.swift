import CLinux
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// A `timerfd` on `CLOCK_MONOTONIC` (timerfd_create(2), timerfd_settime(2), read(2) of its
/// expiration count): the one wrapper both the loop's deadline and ``DeadlineTimer`` use.
struct TimerDescriptor {
    let descriptor: FileDescriptor

    /// timerfd_create(2), non-blocking and close-on-exec.
    init() throws(SystemError) {
        descriptor = FileDescriptor(rawValue: try systemCall("timerfd_create") {
            timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
        })
    }

    /// timerfd_settime(2) with `TFD_TIMER_ABSTIME`: fires once at `monotonicMicroseconds`
    /// (a time already past fires at once), or disarms with `nil`.
    func arm(at monotonicMicroseconds: Int64?) throws(SystemError) {
        var spec = itimerspec()
        if let target = monotonicMicroseconds.map({ max($0, 0) }) {
            spec.it_value = timespec(tv_sec: Int(target / 1_000_000), tv_nsec: Int(target % 1_000_000) * 1000)
            // Zero would disarm: the earliest instant is 1 ns.
            if target == 0 { spec.it_value.tv_nsec = 1 }
        }
        let fd = descriptor.rawValue
        try systemCall("timerfd_settime") { timerfd_settime(fd, Int32(TFD_TIMER_ABSTIME), &spec, nil) }
    }

    /// timerfd_settime(2), relative and periodic: fires every `intervalMicroseconds` from now.
    func armRepeating(every intervalMicroseconds: Int64) throws(SystemError) {
        let interval = timespec(tv_sec: Int(intervalMicroseconds / 1_000_000), tv_nsec: Int(intervalMicroseconds % 1_000_000) * 1000)
        var spec = itimerspec(it_interval: interval, it_value: interval)
        let fd = descriptor.rawValue
        try systemCall("timerfd_settime") { timerfd_settime(fd, 0, &spec, nil) }
    }

    /// Takes the expiration count (read(2) of 8 bytes): true when the timer fired, false when
    /// it was re-armed in between and so has not (`EAGAIN`).
    func takeExpirations() throws(SystemError) -> Bool {
        try descriptor.readRecord(UInt64.self, call: "read(timerfd)") != nil
    }
}

/// A one-shot or periodic timer of its own on an ``EventLoop``, for the edges that need one
/// besides the loop's single deadline (which belongs to the engine): the watchdog, the pacing
/// of a replay, the linger of closing clients. Disarmed, it costs nothing: the loop never
/// wakes for it. It is the ``LoopTimer`` of ``SystemClock``.
public final class DeadlineTimer: LoopTimer {
    private let timer: TimerDescriptor
    private let loop: EventLoop
    private var token: EventLoop.Token?
    private var handler: () -> Void
    /// The armed one-shot deadline, if any.
    public private(set) var deadline: Int64?

    public init(loop: EventLoop, handler: @escaping () -> Void) throws(SystemError) {
        self.loop = loop
        self.handler = handler
        timer = try TimerDescriptor()
        // Every property is set from here: if `watch` throws, deinit runs and closes the
        // descriptor (closing it here too would close its number twice, perhaps someone else's).
        token = try loop.watch(timer.descriptor) { [unowned self] _ in self.fire() }
    }

    deinit {
        if let token { loop.unwatch(token) }
        timer.descriptor.closeReleasing()
    }

    /// Fires once at `monotonicMicroseconds` (``MonotonicClock``; a time already past fires at
    /// once), or disarms with `nil`. timerfd_settime fails only for a bad descriptor or value,
    /// neither of which this type can make: a failure is a bug, and says so.
    public func arm(at monotonicMicroseconds: Int64?) {
        deadline = monotonicMicroseconds
        do {
            try timer.arm(at: monotonicMicroseconds)
        } catch {
            preconditionFailure("bug: \(error)")
        }
    }

    /// Fires every `intervalMicroseconds` from now on (the watchdog).
    public func armRepeating(every intervalMicroseconds: Int64) {
        deadline = nil
        do {
            try timer.armRepeating(every: intervalMicroseconds)
        } catch {
            preconditionFailure("bug: \(error)")
        }
    }

    private func fire() {
        do {
            guard try timer.takeExpirations() else { return }
        } catch {
            // A failed read of a timerfd we own is as impossible as a failed arm.
            preconditionFailure("bug: \(error)")
        }
        deadline = nil
        handler()
    }
}
