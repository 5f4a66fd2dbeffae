import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// A single-threaded event loop on `epoll`: file descriptors with readiness handlers, one
/// deadline timer (`timerfd`, `CLOCK_MONOTONIC`) and signals (`signalfd`). It sleeps in
/// `epoll_wait` with no timeout, so a daemon with nothing to do never wakes up (no polling,
/// no periodic timer); every wake-up is an fd, the deadline or a signal.
///
/// Not thread-safe and not `Sendable`: one thread owns the loop and every handler runs on it.
public final class EventLoop {
    /// What a watched descriptor is ready for.
    public struct Readiness: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let readable = Readiness(rawValue: EPOLLIN.rawValue)
        public static let writable = Readiness(rawValue: EPOLLOUT.rawValue)
        /// Hang-up or error: the peer closed, or the device went away.
        public static let hangUp = Readiness(rawValue: EPOLLHUP.rawValue | EPOLLERR.rawValue | EPOLLRDHUP.rawValue)
    }

    /// Identifies one registration.
    public struct Token: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Watch {
        let fd: Int32
        let handler: (Readiness) -> Void
    }

    private let epoll: Int32
    private let timer: Int32
    private var signalDescriptor: Int32 = -1
    private var watches: [UInt64: Watch] = [:]
    private var nextID: UInt64 = 2
    private static let timerID: UInt64 = 0
    private static let signalID: UInt64 = 1
    private var deadlineHandler: (() -> Void)?
    private var signalHandler: ((Int32) -> Void)?
    private var armedDeadline: Int64?
    private var running = false

    public init() throws(SystemError) {
        epoll = try retryingInterrupts("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) }
        do {
            timer = try retryingInterrupts("timerfd_create") {
                timerfd_create(CLOCK_MONOTONIC, Int32(TFD_CLOEXEC | TFD_NONBLOCK))
            }
        } catch {
            close(epoll)
            throw error
        }
        try add(timer, id: Self.timerID, interest: .readable)
    }

    deinit {
        close(timer)
        if signalDescriptor >= 0 { close(signalDescriptor) }
        close(epoll)
    }

    /// Calls `handler` on this loop whenever `fd` is ready for `interest` (hang-ups and errors
    /// are always reported). The caller keeps owning `fd`; unwatch it before closing it.
    @discardableResult
    public func watch(_ fd: Int32, for interest: Readiness = .readable,
                      handler: @escaping (Readiness) -> Void) throws(SystemError) -> Token {
        let id = nextID
        nextID += 1
        try add(fd, id: id, interest: interest)
        watches[id] = Watch(fd: fd, handler: handler)
        return Token(id: id)
    }

    /// Changes what a registration waits for (a client socket wants `.writable` only while it
    /// has queued output).
    public func modify(_ token: Token, interest: Readiness) throws(SystemError) {
        guard let watch = watches[token.id] else { return }
        var event = epoll_event(events: interest.rawValue | EPOLLRDHUP.rawValue, data: epoll_data_t(u64: token.id))
        try retryingInterrupts("epoll_ctl(EPOLL_CTL_MOD)") { epoll_ctl(epoll, EPOLL_CTL_MOD, watch.fd, &event) }
    }

    /// Stops watching; safe to call from inside a handler, and for a token already removed.
    public func unwatch(_ token: Token) {
        guard let watch = watches.removeValue(forKey: token.id) else { return }
        _ = epoll_ctl(epoll, EPOLL_CTL_DEL, watch.fd, nil)
    }

    /// Arms the single deadline timer at `monotonicMicroseconds` (``MonotonicClock``), or
    /// disarms it with `nil`. `handler` runs when it expires.
    public func setDeadline(_ monotonicMicroseconds: Int64?, handler: @escaping () -> Void) {
        deadlineHandler = handler
        guard armedDeadline != monotonicMicroseconds else { return }
        armedDeadline = monotonicMicroseconds
        var spec = itimerspec()
        if let deadline = monotonicMicroseconds {
            // A deadline already past fires at once: timerfd treats zero as "disarm", so use 1 ns.
            let target = max(deadline, 0)
            spec.it_value = timespec(tv_sec: Int(target / 1_000_000), tv_nsec: Int(target % 1_000_000) * 1000)
            if spec.it_value.tv_sec == 0 && spec.it_value.tv_nsec == 0 { spec.it_value.tv_nsec = 1 }
        }
        timerfd_settime(timer, Int32(TFD_TIMER_ABSTIME), &spec, nil)
    }

    /// Delivers `signals` through the loop instead of asynchronously (blocks them for the
    /// process and reads them from a `signalfd`).
    public func handleSignals(_ signals: [Int32], handler: @escaping (Int32) -> Void) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for signal in signals { sigaddset(&mask, signal) }
        pthread_sigmask(SIG_BLOCK, &mask, nil)
        let fd = try retryingInterrupts("signalfd") { signalfd(signalDescriptor, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) }
        if signalDescriptor < 0 {
            signalDescriptor = fd
            try add(fd, id: Self.signalID, interest: .readable)
        }
        signalHandler = handler
    }

    /// Runs until ``stop()`` is called from a handler.
    public func run() throws(SystemError) {
        running = true
        var events = [epoll_event](repeating: epoll_event(), count: 64)
        while running {
            let count = try retryingInterrupts("epoll_wait") { epoll_wait(epoll, &events, Int32(events.count), -1) }
            for index in 0..<Int(count) where running {
                let id = events[index].data.u64
                let readiness = Readiness(rawValue: events[index].events)
                switch id {
                case Self.timerID:
                    var expirations: UInt64 = 0
                    _ = read(timer, &expirations, 8)
                    armedDeadline = nil
                    deadlineHandler?()
                case Self.signalID:
                    var info = signalfd_siginfo()
                    while read(signalDescriptor, &info, MemoryLayout<signalfd_siginfo>.size) > 0 {
                        signalHandler?(Int32(info.ssi_signo))
                    }
                default:
                    // The handler may unwatch itself or others; look the watch up each time.
                    watches[id]?.handler(readiness)
                }
            }
        }
    }

    /// Makes ``run()`` return after the current handler.
    public func stop() {
        running = false
    }

    private func add(_ fd: Int32, id: UInt64, interest: Readiness) throws(SystemError) {
        var event = epoll_event(events: interest.rawValue | EPOLLRDHUP.rawValue, data: epoll_data_t(u64: id))
        try retryingInterrupts("epoll_ctl(EPOLL_CTL_ADD)") { epoll_ctl(epoll, EPOLL_CTL_ADD, fd, &event) }
    }
}
