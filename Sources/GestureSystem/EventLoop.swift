import CLinux
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// A single-threaded event loop on `epoll`: file descriptors with readiness handlers, one
/// deadline timer (`timerfd`, `CLOCK_MONOTONIC`), signals (`signalfd`) and deferred work. It
/// sleeps in `epoll_wait` with no timeout, so a daemon with nothing to do never wakes up (no
/// polling, no periodic timer); every wake-up is an fd, the deadline or a signal.
///
/// One turn: wait for readiness (not at all while work is deferred), run the handlers of what
/// is ready, then the work deferred before the turn began (``runSoon(_:)``). A handler that
/// has more to do than one turn should take (a client that pipelined many requests) defers
/// the rest, and the descriptors that become ready meanwhile (the panel) are served first.
///
/// Wraps epoll_create1(2), epoll_ctl(2), epoll_wait(2), timerfd (``TimerDescriptor``) and
/// signalfd(2). Not thread-safe and not `Sendable`: one thread owns the loop and every handler
/// runs on it.
public final class EventLoop {
    /// What a watched descriptor is ready for.
    public struct Readiness: OptionSet, Sendable {
        public let rawValue: UInt32
        public init(rawValue: UInt32) { self.rawValue = rawValue }
        public static let readable = Readiness(rawValue: EPOLLIN.rawValue)
        public static let writable = Readiness(rawValue: EPOLLOUT.rawValue)
        /// Hang-up or error: the peer closed, or the device went away.
        public static let hangUp = Readiness(rawValue: EPOLLHUP.rawValue | EPOLLERR.rawValue | EPOLLRDHUP.rawValue)
        /// The peer shut down its sending side (`EPOLLRDHUP`, reported only while `.readable`
        /// is watched): reading ends, writing may go on.
        public static let readHangUp = Readiness(rawValue: EPOLLRDHUP.rawValue)
        /// Both directions are closed or the descriptor failed (`EPOLLHUP`, `EPOLLERR`, always
        /// reported): nothing more can be read or written.
        public static let closed = Readiness(rawValue: EPOLLHUP.rawValue | EPOLLERR.rawValue)
    }

    /// Identifies one registration.
    public struct Token: Hashable, Sendable {
        fileprivate let id: UInt64
    }

    private struct Watch {
        let descriptor: FileDescriptor
        let handler: (Readiness) -> Void
    }

    // Unchecked exclusivity on what every wake-up touches: the loop and its handlers run on
    // one thread, and no access to these spans a handler's call (a handler that watches,
    // unwatches, re-arms or stops changes them between the loop's own accesses), so the
    // dynamic check a class property otherwise costs on each access guarded nothing.
    private let epoll: FileDescriptor
    private let timer: TimerDescriptor
    private var signals: FileDescriptor?
    @exclusivity(unchecked) private var watches: [UInt64: Watch] = [:]
    private var nextID: UInt64 = 2
    private static let timerID: UInt64 = 0
    private static let signalID: UInt64 = 1
    @exclusivity(unchecked) private var deadlineHandler: (() -> Void)?
    private var signalHandler: ((Int32) -> Void)?
    @exclusivity(unchecked) private var armedDeadline: Int64?
    @exclusivity(unchecked) private var running = false
    @exclusivity(unchecked) private var events = [epoll_event](repeating: epoll_event(), count: 64)
    /// Work for the end of this turn (``runSoon(_:)``), and the list being run, swapped so
    /// that neither allocates once grown.
    @exclusivity(unchecked) private var deferred: [() -> Void] = []
    @exclusivity(unchecked) private var runningDeferred: [() -> Void] = []
    /// Counts the turns: handlers that share a budget per turn (bytes read from clients) tell
    /// a new turn by it.
    public private(set) var turns: UInt64 = 0

    public init() throws(SystemError) {
        epoll = FileDescriptor(rawValue: try systemCall("epoll_create1") { epoll_create1(Int32(EPOLL_CLOEXEC)) })
        do {
            timer = try TimerDescriptor()
        } catch {
            epoll.closeReleasing()
            throw error
        }
        try add(timer.descriptor, id: Self.timerID, interest: .readable)
    }

    deinit {
        timer.descriptor.closeReleasing()
        signals?.closeReleasing()
        epoll.closeReleasing()
    }

    /// Calls `handler` on this loop whenever `descriptor` is ready for `interest` (hang-ups and
    /// errors are always reported). The caller keeps owning `descriptor`; unwatch it before
    /// closing it.
    @discardableResult
    public func watch(_ descriptor: FileDescriptor, for interest: Readiness = .readable,
                      handler: @escaping (Readiness) -> Void) throws(SystemError) -> Token {
        let id = nextID
        nextID += 1
        try add(descriptor, id: id, interest: interest)
        watches[id] = Watch(descriptor: descriptor, handler: handler)
        return Token(id: id)
    }

    /// Runs `work` on this loop after the handlers of the descriptors ready in the current
    /// turn (or of the next one, when called from deferred work), without sleeping in between:
    /// while work is deferred, the loop polls epoll without waiting. For work too long for one
    /// turn: do a part, defer the rest, and what became ready meanwhile runs first.
    public func runSoon(_ work: @escaping () -> Void) {
        deferred.append(work)
    }

    /// Changes what a registration waits for (a client socket wants `.writable` only while it
    /// has queued output).
    public func modify(_ token: Token, interest: Readiness) throws(SystemError) {
        guard let watch = watches[token.id] else { return }
        try control(EPOLL_CTL_MOD, watch.descriptor, id: token.id, interest: interest, call: "epoll_ctl(EPOLL_CTL_MOD)")
    }

    /// Stops watching; safe to call from inside a handler, and for a token already removed.
    /// epoll_ctl(`EPOLL_CTL_DEL`) can fail only when the descriptor was closed first, which
    /// removed it from the epoll set already: nothing is left to undo either way.
    public func unwatch(_ token: Token) {
        guard let watch = watches.removeValue(forKey: token.id) else { return }
        _ = try? control(EPOLL_CTL_DEL, watch.descriptor, id: token.id, interest: [], call: "epoll_ctl(EPOLL_CTL_DEL)")
    }

    /// Arms the single deadline timer at `monotonicMicroseconds` (``MonotonicClock``), or
    /// disarms it with `nil`. `handler` runs when it expires.
    public func setDeadline(_ monotonicMicroseconds: Int64?, handler: @escaping () -> Void) {
        deadlineHandler = handler
        guard armedDeadline != monotonicMicroseconds else { return }
        armedDeadline = monotonicMicroseconds
        do {
            try timer.arm(at: monotonicMicroseconds)
        } catch {
            // EINVAL or EBADF: impossible for the loop's own timer and a clamped time.
            preconditionFailure("bug: \(error)")
        }
    }

    /// Delivers `signals` through the loop instead of asynchronously (blocks them for the
    /// process with pthread_sigmask(3) and reads them from a signalfd(2)).
    public func handleSignals(_ numbers: [Int32], handler: @escaping (Int32) -> Void) throws(SystemError) {
        var mask = sigset_t()
        sigemptyset(&mask)
        for number in numbers { sigaddset(&mask, number) }
        let status = pthread_sigmask(SIG_BLOCK, &mask, nil)
        guard status == 0 else { throw SystemError(call: "pthread_sigmask", errno: Errno(rawValue: status)) }
        let existing = signals?.rawValue ?? -1
        let fd = try systemCall("signalfd") { signalfd(existing, &mask, Int32(SFD_CLOEXEC | SFD_NONBLOCK)) }
        if signals == nil {
            let descriptor = FileDescriptor(rawValue: fd)
            signals = descriptor
            try add(descriptor, id: Self.signalID, interest: .readable)
        }
        signalHandler = handler
    }

    /// Runs until ``stop()`` is called from a handler.
    public func run() throws(SystemError) {
        running = true
        while running {
            try turn(timeout: -1)
        }
    }

    /// Runs the handlers of what is ready now and the deferred work, without waiting
    /// (epoll_wait with a zero timeout), and returns how many descriptors were ready plus how
    /// much deferred work ran. Tests drive the loop with it, so a test that expects nothing
    /// cannot hang: it sees nothing ready and goes on.
    @discardableResult
    public func runReady() throws(SystemError) -> Int {
        try runReady(waitingAtMost: 0)
    }

    /// ``runReady()`` after waiting at most `milliseconds` for something to be ready (no wait
    /// while work is deferred): for tests that wait on another thread (``WorkerThread``).
    @discardableResult
    public func runReady(waitingAtMost milliseconds: Int32) throws(SystemError) -> Int {
        running = true
        defer { running = false }
        return try turn(timeout: milliseconds)
    }

    /// Makes ``run()`` return after the current handler.
    public func stop() {
        running = false
    }

    @discardableResult
    private func turn(timeout wanted: Int32) throws(SystemError) -> Int {
        let epoll = epoll.rawValue
        let capacity = Int32(events.count)
        let timeout: Int32 = deferred.isEmpty ? wanted : 0
        let count = Int(try systemCall("epoll_wait") { epoll_wait(epoll, &events, capacity, timeout) })
        turns &+= 1
        for index in 0..<count where running {
            let id = events[index].data.u64
            let readiness = Readiness(rawValue: events[index].events)
            switch id {
            case Self.timerID:
                // EAGAIN: a handler before this one re-armed the timer, so it is not due.
                guard try timer.takeExpirations() else { continue }
                armedDeadline = nil
                deadlineHandler?()
            case Self.signalID:
                while let signals, let info = try signals.readRecord(signalfd_siginfo.self, call: "read(signalfd)") {
                    signalHandler?(Int32(info.ssi_signo))
                }
            default:
                // The handler may unwatch itself or others; look the watch up each time.
                watches[id]?.handler(readiness)
            }
        }
        // The work deferred before this turn; what it defers in turn waits for the next one.
        guard running, !deferred.isEmpty else { return count }
        swap(&deferred, &runningDeferred)
        var ran = 0
        while ran < runningDeferred.count && running {
            runningDeferred[ran]()
            ran += 1
        }
        // Stopped on the way: what did not run stays first in line for a later turn.
        if ran < runningDeferred.count { deferred.insert(contentsOf: runningDeferred[ran...], at: 0) }
        runningDeferred.removeAll(keepingCapacity: true)
        return count + ran
    }

    private func add(_ descriptor: FileDescriptor, id: UInt64, interest: Readiness) throws(SystemError) {
        try control(EPOLL_CTL_ADD, descriptor, id: id, interest: interest, call: "epoll_ctl(EPOLL_CTL_ADD)")
    }

    private func control(_ operation: Int32, _ descriptor: FileDescriptor, id: UInt64, interest: Readiness,
                         call: String) throws(SystemError) {
        // EPOLLRDHUP only with reading: a socket whose peer shut down its sending side stays
        // "read hang-up" for good, and level-triggered epoll would report it on every turn.
        let readHangUp = interest.contains(.readable) ? EPOLLRDHUP.rawValue : 0
        var event = epoll_event(events: interest.rawValue | readHangUp, data: epoll_data_t(u64: id))
        let epoll = epoll.rawValue
        try systemCall(call) { epoll_ctl(epoll, operation, descriptor.rawValue, &event) }
    }
}
