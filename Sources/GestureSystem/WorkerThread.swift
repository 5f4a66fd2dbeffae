import CLinux
#if canImport(Glibc)
import Glibc
#endif
import Synchronization
import SystemPackage

/// A thread of its own for pure work too long for a turn of an ``EventLoop``: parsing a request
/// line of a megabyte took the loop 0.4 s, in which the panel was not read. Work goes in with
/// ``submit(urgent:_:completion:)``; it runs on the thread, at a lower priority than the loop
/// (`SCHED_BATCH`, nice 10) and with every signal blocked (they belong to the loop's signalfd); its result
/// comes back to the loop's thread, where `completion` runs as the handler of an eventfd.
///
/// Jobs run one at a time, urgent ones first, each group in the order submitted. The thread
/// is started with the first job, so a daemon that never needs it has none. Wraps
/// pthread_create(3), eventfd(2), pthread_setschedparam(3), setpriority(2) and
/// pthread_sigmask(3).
public final class WorkerThread {
    /// What the two threads share: the jobs, the results, the eventfds that wake each side.
    private final class Shared: Sendable {
        struct Job: Sendable {
            let id: UInt64
            let work: @Sendable () -> any Sendable
        }

        struct Queues {
            var urgent: [Job] = []
            var normal: [Job] = []
            var stopping = false
        }

        let queues = Mutex(Queues())
        let results = Mutex<[(id: UInt64, value: any Sendable)]>([])
        /// The worker blocks reading it; the loop adds to it for each job.
        let wake: FileDescriptor
        /// The loop watches it; the worker adds to it for each result.
        let done: FileDescriptor

        init(wake: FileDescriptor, done: FileDescriptor) {
            (self.wake, self.done) = (wake, done)
        }

        func run() {
            var all = sigset_t()
            sigfillset(&all)
            pthread_sigmask(SIG_BLOCK, &all, nil)
            // Best effort: the loop wins the CPU whenever it wants it, also when the daemon
            // runs with a real-time policy, which a thread would otherwise inherit (sched(7)).
            var parameters = sched_param()
            _ = pthread_setschedparam(pthread_self(), gestured_sched_batch, &parameters)
            _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), id_t(gestured_thread_id()), 10)
            while true {
                let job = queues.withLock { queues -> Job?? in
                    if queues.stopping { return .some(nil) }
                    if !queues.urgent.isEmpty { return queues.urgent.removeFirst() }
                    if !queues.normal.isEmpty { return queues.normal.removeFirst() }
                    return nil
                }
                switch job {
                case .some(nil):
                    return
                case .some(let job?):
                    let value = job.work()
                    results.withLock { $0.append((job.id, value)) }
                    Self.signal(done)
                case nil:
                    Self.waitFor(wake)
                }
            }
        }

        /// Adds one to an eventfd (write(2) of 8 bytes); an eventfd's counter cannot overflow
        /// at one per job.
        static func signal(_ descriptor: FileDescriptor) {
            var one: UInt64 = 1
            while write(descriptor.rawValue, &one, 8) < 0 && errno == EINTR {}
        }

        /// Blocks until an eventfd's counter is not zero and takes it (read(2)).
        static func waitFor(_ descriptor: FileDescriptor) {
            var count: UInt64 = 0
            while read(descriptor.rawValue, &count, 8) < 0 && errno == EINTR {}
        }
    }

    private let loop: EventLoop
    private let shared: Shared
    private var token: EventLoop.Token?
    private var thread: pthread_t?
    private var nextID: UInt64 = 1
    private var completions: [UInt64: (any Sendable) -> Void] = [:]

    public init(loop: EventLoop) throws(SystemError) {
        self.loop = loop
        let wake = FileDescriptor(rawValue: try systemCall("eventfd") { eventfd(0, Int32(EFD_CLOEXEC)) })
        let done: FileDescriptor
        do {
            done = FileDescriptor(rawValue: try systemCall("eventfd") { eventfd(0, Int32(EFD_CLOEXEC | EFD_NONBLOCK)) })
        } catch {
            wake.closeReleasing()
            throw error
        }
        shared = Shared(wake: wake, done: done)
    }

    deinit {
        if let thread {
            shared.queues.withLock { $0.stopping = true }
            Shared.signal(shared.wake)
            pthread_join(thread, nil)
        }
        if let token { loop.unwatch(token) }
        shared.wake.closeReleasing()
        shared.done.closeReleasing()
    }

    /// Jobs submitted whose completion has not run yet.
    public var pending: Int { completions.count }

    /// Runs `work` on the thread (before the jobs that are not `urgent`), then `completion`
    /// with its result on the loop's thread. Throws when the thread or the loop's watch of its
    /// results cannot be set up; the work is not run then.
    public func submit<Value: Sendable>(urgent: Bool = false, _ work: @escaping @Sendable () -> Value,
                                        completion: @escaping (Value) -> Void) throws(SystemError) {
        try startIfNeeded()
        let id = nextID
        nextID += 1
        completions[id] = { value in
            // The worker hands back exactly what `work` returned.
            if let value = value as? Value { completion(value) }
        }
        let job = Shared.Job(id: id, work: work)
        shared.queues.withLock { queues in
            if urgent { queues.urgent.append(job) } else { queues.normal.append(job) }
        }
        Shared.signal(shared.wake)
    }

    private func startIfNeeded() throws(SystemError) {
        guard thread == nil else { return }
        if token == nil {
            token = try loop.watch(shared.done) { [unowned self] _ in self.deliver() }
        }
        let context = Unmanaged.passRetained(shared).toOpaque()
        var created = pthread_t()
        let status = pthread_create(&created, nil, { context in
            Unmanaged<Shared>.fromOpaque(context!).takeRetainedValue().run()
            return nil
        }, context)
        guard status == 0 else {
            Unmanaged<Shared>.fromOpaque(context).release()
            throw SystemError(call: "pthread_create", errno: Errno(rawValue: status))
        }
        thread = created
    }

    /// On the loop: runs the completions of the results there are.
    private func deliver() {
        var count: UInt64 = 0
        _ = read(shared.done.rawValue, &count, 8)
        let results = shared.results.withLock { results in
            defer { results.removeAll() }
            return results
        }
        for result in results {
            completions.removeValue(forKey: result.id)?(result.value)
        }
    }
}

@available(*, unavailable, message: "a WorkerThread is driven from its event loop's thread")
extension WorkerThread: Sendable {}
