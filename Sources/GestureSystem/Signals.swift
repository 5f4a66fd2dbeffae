#if canImport(Glibc)
import Glibc
#endif

/// Process-wide signal dispositions (sigaction(2)); the signals a loop handles itself go
/// through ``EventLoop/handleSignals(_:handler:)`` instead.
public enum Signals {
    /// Ignores `SIGPIPE`, so a peer that vanished is an `EPIPE` to handle, never a signal that
    /// kills the process (writes to stdout, to a pipe or to a socket).
    public static func ignoreBrokenPipe() throws(SystemError) {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = SIG_IGN
        sigemptyset(&action.sa_mask)
        try systemCall("sigaction(SIGPIPE)") { sigaction(SIGPIPE, &action, nil) }
    }
}
