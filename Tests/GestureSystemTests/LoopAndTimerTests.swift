#if canImport(Glibc)
import Glibc
#endif
import GestureSystem
import SystemPackage
import Testing

/// The event loop's turns, its descriptors and deadlines, and the timers of both clocks, driven
/// as the socket server's tests drive it: ``EventLoop/runReady()`` handles what is ready and
/// returns without waiting, and time moves only where a test moves it (a ``ManualClock``, or a
/// `CLOCK_MONOTONIC` deadline an hour away or already past). No test sleeps.
@Suite("Event loop turns, descriptors, deadlines and timers")
struct LoopAndTimerTests {
    // MARK: The manual clock

    @Test func timersDueAtTheSameInstantFireInTheOrderTheyWereArmed() throws {
        let clock = ManualClock()
        var log: [String] = []
        let a = try clock.makeTimer { log.append("a") }
        let b = try clock.makeTimer { log.append("b") }
        let c = try clock.makeTimer { log.append("c") }
        c.arm(at: 100)
        a.arm(at: 100)
        b.arm(at: 50)
        clock.advance(to: 100)
        #expect(log == ["b", "c", "a"])
    }

    @Test func aDisarmedOrRearmedTimerFiresOnlyAtItsLastDeadline() throws {
        let clock = ManualClock()
        var fired: [Int64] = []
        let cancelled = try clock.makeTimer { fired.append(-1) }
        let moved = try clock.makeTimer { fired.append(clock.now) }
        cancelled.arm(at: 10)
        cancelled.arm(at: nil)
        moved.arm(at: 10)
        moved.arm(at: 30)
        clock.advance(to: 20)
        #expect(fired.isEmpty)
        #expect(cancelled.deadline == nil && moved.deadline == 30)
        clock.advance(to: 40)
        #expect(fired == [30])
        #expect(clock.now == 40)
    }

    /// A handler that re-arms its own timer within the span fires again, each time at its own
    /// deadline: time seen by the handlers never jumps past a deadline.
    @Test func aTimerRearmedByItsHandlerFiresAgainWithinTheSpan() throws {
        let clock = ManualClock(now: 0)
        var times: [Int64] = []
        var timer: (any LoopTimer)?
        timer = try clock.makeTimer {
            times.append(clock.now)
            if times.count < 4 { timer?.arm(at: clock.now + 25) }
        }
        timer?.arm(at: 25)
        clock.advance(to: 1_000)
        #expect(times == [25, 50, 75, 100])
    }

    /// A timer whose owner let it go never fires; the clock does not keep it alive.
    @Test func aTimerItsOwnerDroppedNeverFires() throws {
        let clock = ManualClock()
        var fired = false
        do {
            let timer = try clock.makeTimer { fired = true }
            timer.arm(at: 5)
        }
        clock.advance(to: 10)
        #expect(!fired)
    }

    @Test func timeNeverGoesBackwards() {
        let clock = ManualClock(now: 500)
        clock.advance(to: 100)
        #expect(clock.now == 500)
        clock.advance(by: 0)
        #expect(clock.now == 500)
    }

    // MARK: The loop's one deadline

    /// Re-arming the deadline replaces it: a past deadline moved an hour ahead, or disarmed,
    /// does not fire; the latest handler is the one called.
    @Test func theLoopDeadlineIsReplacedAndCanBeCancelled() throws {
        let loop = try EventLoop()
        var log: [String] = []
        let past = MonotonicClock.microseconds() - 1_000
        loop.setDeadline(past) { log.append("first") }
        loop.setDeadline(MonotonicClock.microseconds() + 3_600_000_000) { log.append("moved") }
        #expect(try loop.runReady() == 0)
        loop.setDeadline(past) { log.append("cancelled") }
        loop.setDeadline(nil) { log.append("cancelled") }
        #expect(try loop.runReady() == 0)
        loop.setDeadline(past) { log.append("old handler") }
        loop.setDeadline(past) { log.append("new handler") }
        #expect(try loop.runReady() == 1)
        #expect(log == ["new handler"])
        // Fired once: nothing is due any more.
        #expect(try loop.runReady() == 0)
    }

    /// A `DeadlineTimer` (a `timerfd` of its own on the loop) beside the loop's deadline:
    /// each fires its own handler once, a cancelled one not at all, and a released one
    /// leaves the loop with nothing to watch.
    @Test func deadlineTimersFireOnceAndCancel() throws {
        let loop = try EventLoop()
        var log: [String] = []
        let past = MonotonicClock.microseconds() - 1_000
        let due = try DeadlineTimer(loop: loop) { log.append("due") }
        let cancelled = try DeadlineTimer(loop: loop) { log.append("cancelled") }
        let later = try DeadlineTimer(loop: loop) { log.append("later") }
        due.arm(at: past)
        cancelled.arm(at: past)
        cancelled.arm(at: nil)
        later.arm(at: MonotonicClock.microseconds() + 3_600_000_000)
        loop.setDeadline(past) { log.append("loop deadline") }
        #expect(try loop.runReady() == 2)
        #expect(log.sorted() == ["due", "loop deadline"])
        #expect(due.deadline == nil && cancelled.deadline == nil && later.deadline != nil)
        #expect(try loop.runReady() == 0)
        withExtendedLifetime((due, cancelled, later)) {}
    }

    /// A released timer's descriptor is unwatched: arming and dropping it leaves nothing ready.
    @Test func aReleasedDeadlineTimerIsUnwatched() throws {
        let loop = try EventLoop()
        var fired = false
        do {
            let timer = try DeadlineTimer(loop: loop) { fired = true }
            timer.arm(at: MonotonicClock.microseconds() - 1_000)
        }
        #expect(try loop.runReady() == 0)
        #expect(!fired)
    }

    // MARK: Descriptors

    /// A socket whose peer closes wakes the loop with a hang-up; a handler that unwatches its
    /// descriptor (as the server does with a closed client) is never called again, though the
    /// hang-up stays (level-triggered) until the descriptor is closed.
    @Test func aClosedPeerWakesTheLoopAndAnUnwatchedDescriptorIsRemoved() throws {
        let loop = try EventLoop()
        let (ours, theirs) = try UnixSocket.pair()
        defer { ours.closeReleasing() }
        var seen: [EventLoop.Readiness] = []
        var token: EventLoop.Token?
        token = try loop.watch(ours) { [unowned loop] readiness in
            seen.append(readiness)
            if readiness.contains(.readHangUp), let token { loop.unwatch(token) }
        }
        #expect(try loop.runReady() == 0)
        theirs.closeReleasing()
        #expect(try loop.runReady() == 1)
        #expect(seen.count == 1 && seen[0].contains(.readHangUp))
        #expect(try loop.runReady() == 0)
        #expect(seen.count == 1)
        // Unwatching again, as a second close path would, is harmless.
        loop.unwatch(token!)
    }

    /// Interest can change: a socket is writable at once, but reported only while `.writable`
    /// is watched (the server watches it only while a client has queued output).
    @Test func writabilityIsReportedOnlyWhileWatched() throws {
        let loop = try EventLoop()
        let (ours, theirs) = try UnixSocket.pair()
        defer { ours.closeReleasing(); theirs.closeReleasing() }
        var seen: [EventLoop.Readiness] = []
        let token = try loop.watch(ours, for: .readable) { seen.append($0) }
        #expect(try loop.runReady() == 0)
        try loop.modify(token, interest: [.readable, .writable])
        #expect(try loop.runReady() == 1)
        #expect(seen.last?.contains(.writable) == true)
        try loop.modify(token, interest: .readable)
        #expect(try loop.runReady() == 0)
        #expect(seen.count == 1)
    }

    /// Several descriptors ready in one turn are all handled in that turn, and the turn count
    /// moves once per turn (handlers that share a budget per turn tell turns apart by it).
    @Test func everyReadyDescriptorIsHandledInOneTurn() throws {
        let loop = try EventLoop()
        var pipes: [(readEnd: FileDescriptor, writeEnd: FileDescriptor)] = []
        defer { for pipe in pipes { pipe.readEnd.closeReleasing(); pipe.writeEnd.closeReleasing() } }
        var handled: [Int] = []
        var turnsSeen: Set<UInt64> = []
        for index in 0..<5 {
            let pipe = try FileDescriptor.pipe()
            pipes.append(pipe)
            try loop.watch(pipe.readEnd) { [unowned loop] _ in
                var byte = [UInt8](repeating: 0, count: 1)
                _ = try? pipe.readEnd.readAvailable(into: &byte)
                handled.append(index)
                turnsSeen.insert(loop.turns)
            }
        }
        for pipe in pipes { try pipe.writeEnd.writeAll([1], subject: "pipe") }
        let before = loop.turns
        #expect(try loop.runReady() == 5)
        #expect(handled.sorted() == [0, 1, 2, 3, 4])
        #expect(turnsSeen == [before + 1])
    }

    /// `stop()` from deferred work ends the turn there; the work not yet run stays first in
    /// line and runs, in order, at the next turn.
    @Test func stoppingInDeferredWorkKeepsTheRestForTheNextTurn() throws {
        let loop = try EventLoop()
        var log: [Int] = []
        loop.runSoon { log.append(1) }
        loop.runSoon { [unowned loop] in log.append(2); loop.stop() }
        loop.runSoon { log.append(3) }
        loop.runSoon { log.append(4) }
        try loop.runReady()
        #expect(log == [1, 2])
        try loop.runReady()
        #expect(log == [1, 2, 3, 4])
    }

    /// `run()` sleeps in epoll until something happens: a past deadline wakes it, and its
    /// handler's `stop()` returns from `run()`.
    @Test func runReturnsAfterAHandlerStopsIt() throws {
        let loop = try EventLoop()
        var fired = 0
        loop.setDeadline(MonotonicClock.microseconds() - 1) { [unowned loop] in
            fired += 1
            loop.stop()
        }
        try loop.run()
        #expect(fired == 1)
    }

    /// Two signals sent before the turn both arrive through the loop, each once.
    @Test func severalSignalsArriveInOneTurn() throws {
        let loop = try EventLoop()
        var received: [Int32] = []
        try loop.handleSignals([SIGUSR1, SIGUSR2]) { received.append($0) }
        pthread_kill(pthread_self(), SIGUSR2)
        pthread_kill(pthread_self(), SIGUSR1)
        try loop.runReady()
        #expect(received.sorted() == [SIGUSR1, SIGUSR2].sorted())
        #expect(try loop.runReady() == 0)
    }
}
