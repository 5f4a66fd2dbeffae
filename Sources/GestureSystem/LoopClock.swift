/// Now and timers on the monotonic timeline, in microseconds, for the edges that keep time
/// (the socket server's linger and back-pressure clocks). Live it is ``SystemClock``
/// (`CLOCK_MONOTONIC` and a `timerfd` per timer on the ``EventLoop``); in tests it is a
/// ``ManualClock``, whose time moves only when the test advances it, as SwiftNIO's
/// `EmbeddedEventLoop` does, so no test sleeps or races the wall clock.
public protocol LoopClock: AnyObject {
    /// Now, in microseconds.
    var now: Int64 { get }
    /// A timer that calls `handler` on the loop's thread when it fires; disarmed at first.
    func makeTimer(_ handler: @escaping () -> Void) throws(SystemError) -> any LoopTimer
}

/// A one-shot timer of a ``LoopClock``.
public protocol LoopTimer: AnyObject {
    /// The armed deadline, if any.
    var deadline: Int64? { get }
    /// Fires once at `deadline` (a time already past fires at the next turn), or disarms with `nil`.
    func arm(at deadline: Int64?)
}

/// `CLOCK_MONOTONIC` (``MonotonicClock``) and one ``DeadlineTimer`` per timer on `loop`.
public final class SystemClock: LoopClock {
    private let loop: EventLoop

    public init(loop: EventLoop) {
        self.loop = loop
    }

    public var now: Int64 { MonotonicClock.microseconds() }

    public func makeTimer(_ handler: @escaping () -> Void) throws(SystemError) -> any LoopTimer {
        try DeadlineTimer(loop: loop, handler: handler)
    }
}

/// A clock that stands still until ``advance(to:)`` or ``advance(by:)`` moves it, firing the
/// timers that fall due on the way, in deadline order (ties in the order they were armed).
/// Not thread-safe: one test drives it.
public final class ManualClock: LoopClock {
    public private(set) var now: Int64
    /// Held weakly: a timer its owner let go of never fires.
    private var timers: [WeakTimer] = []
    private var armings = 0

    private struct WeakTimer {
        weak var timer: ManualTimer?
    }

    public init(now: Int64 = 0) {
        self.now = now
    }

    public func makeTimer(_ handler: @escaping () -> Void) throws(SystemError) -> any LoopTimer {
        let timer = ManualTimer(clock: self, handler: handler)
        timers.append(WeakTimer(timer: timer))
        return timer
    }

    /// Moves time forward by `microseconds`.
    public func advance(by microseconds: Int64) {
        advance(to: now + microseconds)
    }

    /// Moves time to `target` (never backwards), firing every timer due by then at its own
    /// deadline. A handler that re-arms its timer within the span fires again; one that keeps
    /// re-arming at the same instant is a bug, stopped after 10,000 firings.
    public func advance(to target: Int64) {
        var firings = 0
        while let next = nextDue(by: target) {
            firings += 1
            precondition(firings <= 10_000, "a timer re-arms itself at \(now) µs forever")
            now = max(now, next.deadline ?? now)
            next.disarmForFiring()
            next.handler()
        }
        now = max(now, target)
    }

    /// The earliest armed timer due by `target`.
    private func nextDue(by target: Int64) -> ManualTimer? {
        timers.removeAll { $0.timer == nil }
        var best: (timer: ManualTimer, key: (Int64, Int))?
        for case let timer? in timers.map(\.timer) {
            guard let deadline = timer.deadline, deadline <= target else { continue }
            let key = (deadline, timer.armedOrder)
            if best.map({ key < $0.key }) ?? true { best = (timer, key) }
        }
        return best?.timer
    }

    fileprivate func nextArming() -> Int {
        armings += 1
        return armings
    }
}

/// A timer of a ``ManualClock``.
final class ManualTimer: LoopTimer {
    private weak var clock: ManualClock?
    let handler: () -> Void
    private(set) var deadline: Int64?
    private(set) var armedOrder = 0

    init(clock: ManualClock, handler: @escaping () -> Void) {
        (self.clock, self.handler) = (clock, handler)
    }

    func arm(at deadline: Int64?) {
        self.deadline = deadline
        armedOrder = clock?.nextArming() ?? 0
    }

    func disarmForFiring() {
        deadline = nil
    }
}
