#if canImport(Glibc)
import Glibc
#endif
import GestureServer
import GestureSystem
import Logging
import SystemPackage

/// How `gestured run` ends on a configuration it cannot use: the problems and what to do on
/// stderr (the journal), then exit status 78 (`EX_CONFIG`, sysexits.h), on which the unit
/// does not restart (`RestartPreventExitStatus=78`). Started by its socket, it first holds the
/// socket for ``holdMicroseconds``, telling every client that connects why it is not served
/// (`bye`, reason `configuration`): the backlog is empty when it exits, so systemd does not
/// start it again at once for a connection nobody took, and a client retrying in a loop
/// starts it at most once per hold (docs/service.md, "Configuration errors").
enum ConfigurationRefusal {
    /// sysexits.h's `EX_CONFIG`: "something was found in an unconfigured or misconfigured state".
    static let exitStatus: Int32 = 78

    /// How long a socket-activated daemon answers clients before it exits: 2 s, so the unit
    /// starts at most once every 2 s however fast clients retry, far under systemd's trigger
    /// limit on the socket (20 starts in 2 s, `TriggerLimitBurst=`), which would stop the
    /// socket, and short against `TimeoutStartSec=` (90 s). docs/limits.md, "Service".
    static let holdMicroseconds: Int64 = 2_000_000

    /// Logs `problems` (the loader's text, each naming the file and key path) and the way back,
    /// answers the clients of a socket passed by systemd, and returns the failure that makes
    /// the process exit with ``exitStatus``.
    static func refuse(_ problems: String, configurationPath: String, logLevel: Logger.Level) -> CommandFailure {
        // The problems as check-config prints them, one line each; then one error with its
        // MESSAGE_ID (JournalMessageID) that says what to do.
        printError(problems)
        JournalLogHandler.bootstrap(level: logLevel)
        Logger(label: "gestured").error("not started: the configuration has errors", metadata: [
            "file": "\(configurationPath)",
            "fix": .string("correct the problems above, check the file with `gestured check-config \(configurationPath)`, "
                + "then `systemctl restart gestured` or let the next client's connection start it"),
            "exitStatus": "\(exitStatus) (EX_CONFIG): systemd does not restart gestured on it, and gestured.socket stays up",
        ])
        if let listener = SocketActivation.takeDescriptors().first {
            let summary = problems.split(separator: "\n").first.map(String.init) ?? problems
            let message = "gestured cannot start: \(configurationPath) has errors (\(summary)); fix it, check it with "
                + "gestured check-config, and connect again"
            answerClients(of: listener, message: message)
        }
        return CommandFailure(status: exitStatus)
    }

    /// Accepts every connection that arrives on `listener` for ``holdMicroseconds`` and tells
    /// it `message` (`bye`) before closing it.
    private static func answerClients(of listener: FileDescriptor, message: String) {
        // Non-blocking, so an accept never waits; a socket that refuses it is left as it is.
        guard (try? listener.makeNonBlockingAndCloseOnExec(subject: "the socket passed by systemd")) != nil else { return }
        let bye = ReplyEncoder.encode(.bye(reason: "configuration", message: message))
        let end = MonotonicClock.microseconds() + holdMicroseconds
        var remaining = holdMicroseconds
        while remaining > 0 {
            var entry = pollfd(fd: listener.rawValue, events: Int16(POLLIN), revents: 0)
            let ready = poll(&entry, 1, Int32((remaining + 999) / 1000))
            if ready < 0 && errno != EINTR { return }
            if ready > 0 {
                // Every pending connection, until accept says there is none.
                while let client = try? listener.acceptConnection(subject: "the socket passed by systemd") {
                    _ = try? client.sendNonBlocking(bye)
                    // A request the client sent already is read and dropped: closing a Unix
                    // socket with unread data makes the client's next read ECONNRESET instead
                    // of the end after the bye.
                    var discard = [UInt8](repeating: 0, count: 4096)
                    var reads = 0
                    while reads < 16, recv(client.rawValue, &discard, discard.count, Int32(MSG_DONTWAIT)) > 0 { reads += 1 }
                    client.closeReleasing()
                }
            }
            remaining = end - MonotonicClock.microseconds()
        }
    }
}
