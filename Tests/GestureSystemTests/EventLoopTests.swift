#if canImport(Glibc)
import Glibc
#endif
import GestureSystem
import Testing

@Suite("Event loop on epoll")
struct EventLoopTests {
    @Test func readableDescriptorRunsItsHandlerAndStopEndsTheLoop() throws {
        let loop = try EventLoop()
        var fds: [Int32] = [0, 0]
        #expect(pipe(&fds) == 0)
        defer { close(fds[0]); close(fds[1]) }
        var received: [UInt8] = []
        try loop.watch(fds[0]) { readiness in
            #expect(readiness.contains(.readable))
            var byte: UInt8 = 0
            _ = read(fds[0], &byte, 1)
            received.append(byte)
            loop.stop()
        }
        var byte: UInt8 = 42
        _ = write(fds[1], &byte, 1)
        try loop.run()
        #expect(received == [42])
    }

    @Test func deadlineInThePastFiresAtOnce() throws {
        let loop = try EventLoop()
        var fired = 0
        loop.setDeadline(MonotonicClock.microseconds() - 1000) {
            fired += 1
            loop.stop()
        }
        try loop.run()
        #expect(fired == 1)
    }

    @Test func signalsArriveThroughTheLoop() throws {
        let loop = try EventLoop()
        var received: [Int32] = []
        try loop.handleSignals([SIGUSR1]) { signal in
            received.append(signal)
            loop.stop()
        }
        // Directed at this thread: swift-testing runs tests on several threads, and the mask that
        // routes the signal to the signalfd is per thread.
        pthread_kill(pthread_self(), SIGUSR1)
        try loop.run()
        #expect(received == [SIGUSR1])
    }

    @Test func systemErrorsNameTheCallTheSubjectAndErrno() {
        #expect(throws: SystemError(call: "open", errno: ENOENT, subject: "/nonexistent")) {
            try retryingInterrupts("open", subject: "/nonexistent") { open("/nonexistent", O_RDONLY) }
        }
        #expect(SystemError(call: "open", errno: ENOENT, subject: "/dev/input/event9").description
                == "open failed on /dev/input/event9: No such file or directory (errno 2)")
    }
}
