#if canImport(Glibc)
import Glibc
#endif
import GestureServer
import Logging

/// What every signal a service can receive means to `gestured run` and `gestured replay
/// --socket` (docs/service.md, *Signals*). Each one whose default action would end the
/// daemon is taken through the loop's signalfd and given a meaning here, so nothing a
/// `kill` or a stray `systemctl kill -s …` sends ends it without clients being told:
///
/// | signal | meaning |
/// |---|---|
/// | `SIGTERM`, `SIGINT`, `SIGQUIT` | stop: touches down are cancelled, clients get `bye`, exit 0 |
/// | `SIGHUP` | re-read the configuration |
/// | `SIGUSR1` | log one line of status (input, clients, counters) |
/// | `SIGUSR2`, `SIGALRM`, `SIGVTALRM`, `SIGPROF`, `SIGIO`, `SIGPWR`, `SIGSTKFLT`, `SIGXCPU`, `SIGXFSZ`, `SIGRTMIN`…`SIGRTMAX` | ignored, with a log line naming the signal |
///
/// `SIGPIPE` is ignored for the whole process (`Signals.ignoreBrokenPipe()`): a vanished
/// peer is an `EPIPE` to handle. The signals of a fault (`SIGSEGV`, `SIGBUS`, `SIGFPE`,
/// `SIGILL`, `SIGTRAP`, `SIGSYS`) and `SIGABRT` (systemd's watchdog kill) keep their default
/// action, a core dump, after which systemd restarts the unit; so do the job-control stops
/// (`SIGTSTP`, `SIGTTIN`, `SIGTTOU`) for a daemon run by hand at a terminal.
enum DaemonSignal {
    case stop
    case reload
    case logStatus
    case ignore

    /// The signals with a meaning other than the real-time ones, by name.
    private static let named: [(number: Int32, name: String, meaning: DaemonSignal)] = [
        (SIGTERM, "SIGTERM", .stop), (SIGINT, "SIGINT", .stop), (SIGQUIT, "SIGQUIT", .stop),
        (SIGHUP, "SIGHUP", .reload),
        (SIGUSR1, "SIGUSR1", .logStatus),
        (SIGUSR2, "SIGUSR2", .ignore), (SIGALRM, "SIGALRM", .ignore), (SIGVTALRM, "SIGVTALRM", .ignore),
        (SIGPROF, "SIGPROF", .ignore), (SIGIO, "SIGIO", .ignore), (SIGPWR, "SIGPWR", .ignore),
        (SIGSTKFLT, "SIGSTKFLT", .ignore), (SIGXCPU, "SIGXCPU", .ignore), (SIGXFSZ, "SIGXFSZ", .ignore),
    ]

    /// The real-time signals the C library leaves to programs (it keeps the first two for
    /// its threads): they end a process by default.
    private static var realTime: ClosedRange<Int32> { __libc_current_sigrtmin()...__libc_current_sigrtmax() }

    /// Every signal the loop takes (``EventLoop/handleSignals(_:handler:)``).
    static var handled: [Int32] { named.map(\.number) + Array(realTime) }

    /// What `signal` means; one the loop does not take is ignored.
    static func meaning(of signal: Int32) -> DaemonSignal {
        named.first { $0.number == signal }?.meaning ?? .ignore
    }

    /// `SIGUSR2`, `SIGRTMIN+3`: how logs name it.
    static func name(of signal: Int32) -> String {
        if let entry = named.first(where: { $0.number == signal }) { return entry.name }
        if realTime.contains(signal) { return signal == realTime.lowerBound ? "SIGRTMIN" : "SIGRTMIN+\(signal - realTime.lowerBound)" }
        return "signal \(signal)"
    }
}

extension DaemonSignal {
    /// Carries out `signal` for the owner of `server`, which stops with `stop` (given the
    /// signal's name) and whose status line is `status`.
    static func handle(_ signal: Int32, server: EventServer, logger: Logger, status: @autoclosure () -> String,
                       stop: (String) -> Void) {
        let name = name(of: signal)
        switch meaning(of: signal) {
        case .stop:
            stop(name)
        case .reload:
            server.reload(origin: name)
        case .logStatus:
            let counters = server.counters
            logger.notice("status", metadata: [
                "signal": "\(name)", "status": "\(status())", "clients": "\(server.clientCount)",
                "connections": "\(counters.connections)", "events": "\(counters.eventsPublished)",
                "requests": "\(counters.requests)", "errors": "\(counters.errorReplies)",
                "slowConsumers": "\(counters.slowConsumers)", "refused": "\(counters.refused)",
                "queued": "\(server.queuedBytes)", "buffered": "\(server.bufferedRequestBytes)",
            ])
        case .ignore:
            logger.notice("ignoring a signal that means nothing to gestured", metadata: ["signal": "\(name)"])
        }
    }
}
