#if canImport(Glibc)
import Glibc
#endif

/// What each signal a service may be sent means to `gestured-web` (docs/web.md § Signals).
/// The signals in ``waited`` are blocked in every thread and taken one at a time by
/// `sigwaitinfo(2)` on the main thread, so none runs a handler on the event loop.
public enum BridgeSignals {
    /// What the bridge does on a signal.
    public enum Meaning: Equatable, Sendable {
        /// Close every page with 1001 ("going away") and exit 0 (`SIGTERM`, `SIGINT`).
        case stop
        /// Re-read the configuration's `web` section for new connections (`SIGHUP`).
        case reload
        /// Log a line naming the signal and its sender, and carry on: a signal that would
        /// otherwise end the bridge and that nothing sends it on purpose.
        case ignore
    }

    /// Every signal the main thread waits for: those with a meaning, and the others whose
    /// default action would end the process and that only a mistake sends a service
    /// (`kill -USR1`, a stray `SIGALRM`, a real-time signal). Not here: the faults a thread
    /// raises itself (`SIGSEGV`, `SIGBUS`, `SIGILL`, `SIGFPE`, `SIGTRAP`, `SIGSYS`) and
    /// `SIGABRT` and `SIGQUIT`, which keep their meaning (a crash report and a core: systemd
    /// sends `SIGABRT` when the watchdog expires) under Swift's crash handler; `SIGPIPE`, which
    /// is ignored (a browser that vanished is an `EPIPE`); and `SIGPROF`, which must stay
    /// open in every thread (``ignoreProfilingSignal()``).
    public static var waited: [Int32] {
        [SIGHUP, SIGINT, SIGTERM, SIGUSR1, SIGUSR2, SIGALRM, SIGVTALRM, SIGIO, SIGPWR, SIGSTKFLT, SIGXCPU, SIGXFSZ]
            + Array(realtimeSignals)
    }

    /// `SIGRTMIN` … `SIGRTMAX` as glibc hands them to programs (it keeps the first two for
    /// itself).
    public static var realtimeSignals: ClosedRange<Int32> { __libc_current_sigrtmin()...__libc_current_sigrtmax() }

    /// The meaning of a signal of ``waited``.
    public static func meaning(of signal: Int32) -> Meaning {
        switch signal {
        case SIGTERM, SIGINT: .stop
        case SIGHUP: .reload
        default: .ignore
        }
    }

    /// The signal's name as `kill -l` writes it: `SIGHUP`, `SIGRTMIN+3`, `SIGRTMAX-1`.
    public static func name(of signal: Int32) -> String {
        let names: [Int32: String] = [
            SIGHUP: "SIGHUP", SIGINT: "SIGINT", SIGQUIT: "SIGQUIT", SIGILL: "SIGILL", SIGTRAP: "SIGTRAP",
            SIGABRT: "SIGABRT", SIGBUS: "SIGBUS", SIGFPE: "SIGFPE", SIGKILL: "SIGKILL", SIGUSR1: "SIGUSR1",
            SIGSEGV: "SIGSEGV", SIGUSR2: "SIGUSR2", SIGPIPE: "SIGPIPE", SIGALRM: "SIGALRM", SIGTERM: "SIGTERM",
            SIGSTKFLT: "SIGSTKFLT", SIGCHLD: "SIGCHLD", SIGCONT: "SIGCONT", SIGSTOP: "SIGSTOP", SIGTSTP: "SIGTSTP",
            SIGTTIN: "SIGTTIN", SIGTTOU: "SIGTTOU", SIGURG: "SIGURG", SIGXCPU: "SIGXCPU", SIGXFSZ: "SIGXFSZ",
            SIGVTALRM: "SIGVTALRM", SIGPROF: "SIGPROF", SIGWINCH: "SIGWINCH", SIGIO: "SIGIO", SIGPWR: "SIGPWR",
            SIGSYS: "SIGSYS",
        ]
        if let name = names[signal] { return name }
        let realtime = realtimeSignals
        if realtime.contains(signal) {
            // kill -l's names: SIGRTMIN, SIGRTMIN+1 … up to the middle, then … SIGRTMAX-1, SIGRTMAX.
            let fromMin = signal - realtime.lowerBound, fromMax = realtime.upperBound - signal
            if fromMin == 0 { return "SIGRTMIN" }
            if fromMax == 0 { return "SIGRTMAX" }
            return fromMin <= fromMax ? "SIGRTMIN+\(fromMin)" : "SIGRTMAX-\(fromMax)"
        }
        return "signal \(signal)"
    }

    /// `SIGPROF` is ignored with a line on stderr from a handler instead of being waited for:
    /// Swift's crash handler suspends the other threads with `SIGUSR1`, `SIGUSR2` or `SIGPROF`,
    /// whichever a thread has not blocked, and the bridge blocks the first two. Only
    /// async-signal-safe `write(2)` runs in the handler; the line is the journal's form when
    /// stderr is the journal (as ``JournalLogHandler`` writes).
    public static func ignoreProfilingSignal() {
        var action = sigaction()
        sigemptyset(&action.sa_mask)
        action.sa_flags = SA_RESTART
        if getenv("JOURNAL_STREAM") != nil {
            action.__sigaction_handler.sa_handler = { _ in
                let line: StaticString = "<4>a signal with no meaning for gestured-web was ignored signal=SIGPROF\n"
                _ = write(2, line.utf8Start, line.utf8CodeUnitCount)
            }
        } else {
            action.__sigaction_handler.sa_handler = { _ in
                let line: StaticString = "gestured-web: warning: a signal with no meaning for gestured-web was ignored signal=SIGPROF\n"
                _ = write(2, line.utf8Start, line.utf8CodeUnitCount)
            }
        }
        sigaction(SIGPROF, &action, nil)
    }
}
