#if canImport(Glibc)
import Glibc
#endif
import GestureSystem
import SystemPackage
import Testing

/// The loop is driven with ``EventLoop/runReady()``, which handles what is ready and returns
/// without waiting: a test whose event never comes sees nothing ready and fails, it cannot
/// hang. Everything a test makes ready (a pipe written, a past deadline, a pending signal) is
/// ready before the call, because the kernel completes it synchronously.
@Suite("Event loop on epoll, clocks and system calls")
struct EventLoopTests {
    @Test func aReadableDescriptorRunsItsHandler() throws {
        let loop = try EventLoop()
        let pipe = try FileDescriptor.pipe()
        defer { pipe.readEnd.closeReleasing(); pipe.writeEnd.closeReleasing() }
        var received: [UInt8] = []
        try loop.watch(pipe.readEnd) { readiness in
            #expect(readiness.contains(.readable))
            var byte = [UInt8](repeating: 0, count: 1)
            #expect(try! pipe.readEnd.readAvailable(into: &byte) == 1)
            received += byte
        }
        #expect(try loop.runReady() == 0)
        try pipe.writeEnd.writeAll([42], subject: "pipe")
        #expect(try loop.runReady() == 1)
        #expect(received == [42])
        // Drained: nothing more is ready.
        #expect(try loop.runReady() == 0)
    }

    @Test func aDeadlineInThePastFiresAtOnceAndOneInTheFutureDoesNot() throws {
        let loop = try EventLoop()
        var fired = 0
        loop.setDeadline(MonotonicClock.microseconds() + 3_600_000_000) { fired += 1 }
        #expect(try loop.runReady() == 0)
        loop.setDeadline(MonotonicClock.microseconds() - 1000) { fired += 1 }
        #expect(try loop.runReady() == 1)
        #expect(fired == 1)
    }

    @Test func signalsArriveThroughTheLoop() throws {
        let loop = try EventLoop()
        var received: [Int32] = []
        try loop.handleSignals([SIGUSR1]) { signal in received.append(signal) }
        // Directed at this thread: swift-testing runs tests on several threads, and the mask that
        // routes the signal to the signalfd is per thread. Blocked, it is pending at once.
        pthread_kill(pthread_self(), SIGUSR1)
        try loop.runReady()
        #expect(received == [SIGUSR1])
    }

    @Test func aManualClockFiresTimersInDeadlineOrderOnlyWhenAdvanced() throws {
        let clock = ManualClock(now: 1_000)
        var log: [String] = []
        let late = try clock.makeTimer { log.append("late at \(clock.now)") }
        let early = try clock.makeTimer { log.append("early at \(clock.now)") }
        late.arm(at: 5_000)
        early.arm(at: 2_000)
        clock.advance(by: 999)
        #expect(log.isEmpty)
        clock.advance(to: 10_000)
        #expect(log == ["early at 2000", "late at 5000"])
        #expect(clock.now == 10_000 && late.deadline == nil)
        // A timer armed in the past fires at the next advance, at the current time.
        early.arm(at: 0)
        clock.advance(by: 0)
        #expect(log.last == "early at 10000")
    }

    @Test func systemErrorsNameTheCallTheSubjectAndErrno() throws {
        #expect(throws: SystemError(call: "open", errno: .noSuchFileOrDirectory, subject: "/nonexistent")) {
            try FileDescriptor.open(path: "/nonexistent", .readOnly)
        }
        #expect(SystemError(call: "open", errno: .noSuchFileOrDirectory, subject: "/dev/input/event9").description
                == "open failed on /dev/input/event9: No such file or directory (errno 2)")
        #expect(throws: SystemError(call: "write", errno: .noSpace, subject: "/dev/full")) {
            let full = try FileDescriptor.open(path: "/dev/full", .writeOnly)
            defer { full.closeReleasing() }
            try full.writeAll([1, 2, 3], subject: "/dev/full")
        }
    }

    @Test func socketAddressesSayWhatIsWrongWithAPath() {
        #expect(throws: UnixSocketAddress.Problem.empty) { try UnixSocketAddress("") }
        let long = "/tmp/" + String(repeating: "x", count: 120)
        #expect(throws: UnixSocketAddress.Problem.tooLong(name: long, bytes: 125)) { try UnixSocketAddress(long) }
        #expect(UnixSocketAddress.Problem.tooLong(name: long, bytes: 125).description.contains("at most 107"))
    }

    /// Issue 25: work too long for one turn is split; the loop runs what became ready before
    /// the rest, and does not sleep while work is deferred.
    @Test func deferredWorkRunsAfterTheReadyHandlersAndTheRestOnTheNextTurn() throws {
        let loop = try EventLoop()
        let pipe = try FileDescriptor.pipe()
        defer { pipe.readEnd.closeReleasing(); pipe.writeEnd.closeReleasing() }
        var log: [String] = []
        try loop.watch(pipe.readEnd) { _ in
            var byte = [UInt8](repeating: 0, count: 1)
            _ = try? pipe.readEnd.readAvailable(into: &byte)
            log.append("ready \(byte[0])")
        }
        loop.runSoon {
            log.append("deferred")
            loop.runSoon { log.append("deferred again") }
        }
        try pipe.writeEnd.writeAll([1], subject: "pipe")
        #expect(try loop.runReady() == 2, "one descriptor, one piece of deferred work")
        #expect(log == ["ready 1", "deferred"])
        try pipe.writeEnd.writeAll([2], subject: "pipe")
        #expect(try loop.runReady() == 2)
        #expect(log == ["ready 1", "deferred", "ready 2", "deferred again"])
        #expect(try loop.runReady() == 0)
    }

    /// A socket whose peer shut down its sending side is "read hang-up" for good: watched
    /// without `.readable`, it must not wake the loop (a half-closed subscriber spun it), and
    /// a peer gone altogether is still reported.
    @Test func aHalfClosedSocketWakesTheLoopOnlyWhileItIsRead() throws {
        let loop = try EventLoop()
        let (ours, theirs) = try UnixSocket.pair()
        defer { ours.closeReleasing() }
        var seen: [EventLoop.Readiness] = []
        let token = try loop.watch(ours, for: .readable) { seen.append($0) }
        #expect(shutdown(theirs.rawValue, Int32(SHUT_WR)) == 0)
        #expect(try loop.runReady() == 1)
        #expect(seen.last?.contains(.readHangUp) == true && seen.last?.isDisjoint(with: .closed) == true)
        try loop.modify(token, interest: [])
        #expect(try loop.runReady() == 0)
        theirs.closeReleasing()
        #expect(try loop.runReady() == 1)
        #expect(seen.last?.isDisjoint(with: .closed) == false)
    }

    /// Issue 25: pure work too long for a turn runs on a thread of its own; the results come
    /// back to the loop's thread, in the order submitted.
    @Test func workOnTheWorkerThreadComesBackToTheLoopInOrder() throws {
        let loop = try EventLoop()
        let worker = try WorkerThread(loop: loop)
        var results: [Int] = []
        for index in 0..<5 {
            try worker.submit({ (0...(index * 100_000)).reduce(0, &+) }) { results.append($0) }
        }
        #expect(worker.pending == 5)
        for _ in 0..<100 where worker.pending > 0 { try loop.runReady(waitingAtMost: 10_000) }
        #expect(results == (0..<5).map { (0...($0 * 100_000)).reduce(0, &+) })
        #expect(worker.pending == 0)
    }
}

