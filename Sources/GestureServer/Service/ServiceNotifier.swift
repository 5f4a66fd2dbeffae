#if canImport(Glibc)
import Glibc
#endif
import GestureSystem
import SystemPackage

/// Tells the service manager how the daemon is doing (sd_notify(3)): one datagram per state
/// change to the socket named by `NOTIFY_SOCKET` (a path, or an abstract name written with a
/// leading `@`). No libsystemd: the protocol is a datagram of `KEY=value` lines. Without
/// `NOTIFY_SOCKET` (not started by systemd) every call does nothing.
public final class ServiceNotifier {
    private let address: UnixSocketAddress?
    private let socket: FileDescriptor?
    private let clock: () -> Int64
    /// The watchdog interval systemd asked for (`WATCHDOG_USEC`), when it is for this process
    /// (`WATCHDOG_PID`, if set, is our pid).
    public let watchdogMicroseconds: Int64?

    /// - Parameters:
    ///   - clock: `CLOCK_MONOTONIC` in µs, for `MONOTONIC_USEC`.
    public init(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } },
                clock: @escaping () -> Int64 = MonotonicClock.microseconds) {
        self.clock = clock
        // A NOTIFY_SOCKET that is not a usable address, or a socket that cannot be made, means
        // no service manager can be told: as sd_notify does, carry on without one.
        if let name = environment("NOTIFY_SOCKET"), name.hasPrefix("/") || name.hasPrefix("@"),
           let address = try? UnixSocketAddress(name), let socket = try? UnixSocket.open(.datagram) {
            self.address = address
            self.socket = socket
        } else {
            address = nil
            socket = nil
        }
        let pidMatches = environment("WATCHDOG_PID").flatMap { Int32($0) }.map { $0 == getpid() } ?? true
        if pidMatches, let usec = environment("WATCHDOG_USEC").flatMap({ Int64($0) }), usec > 0 {
            watchdogMicroseconds = usec
        } else {
            watchdogMicroseconds = nil
        }
    }

    deinit {
        socket?.closeReleasing()
    }

    /// Whether a service manager listens.
    public var isActive: Bool { socket != nil }

    /// `READY=1` with a status line: the socket (and, live, the device) is ready.
    public func ready(status: String) { send("READY=1\nSTATUS=\(status)") }

    /// `STATUS=`: one line for `systemctl status`.
    public func status(_ text: String) { send("STATUS=\(text)") }

    /// `RELOADING=1` with the monotonic time, as `Type=notify-reload` requires; follow with ``ready(status:)``.
    public func reloading() {
        send("RELOADING=1\nMONOTONIC_USEC=\(clock())\nSTATUS=reloading the configuration")
    }

    /// `STOPPING=1`.
    public func stopping(status: String) { send("STOPPING=1\nSTATUS=\(status)") }

    /// `WATCHDOG=1`: the input loop is alive.
    public func watchdog() { send("WATCHDOG=1") }

    /// Sends one datagram of `KEY=value` lines; failures are ignored, as sd_notify's callers do
    /// (the manager may be gone during shutdown).
    public func send(_ message: String) {
        guard let address, let socket else { return }
        _ = try? socket.send(Array(message.utf8), to: address)
    }

    /// Feeds the watchdog from `loop` at half the interval systemd asked for (sd_watchdog_enabled(3)
    /// advises feeding well within it). Because the timer fires on the same loop that reads
    /// the input, a stuck input loop stops feeding it and systemd restarts the daemon.
    /// Returns the timer (keep it alive), or `nil` when no watchdog was asked for.
    public func startWatchdog(on loop: EventLoop) throws(SystemError) -> DeadlineTimer? {
        guard let interval = watchdogMicroseconds, isActive else { return nil }
        let timer = try DeadlineTimer(loop: loop) { [weak self] in self?.watchdog() }
        timer.armRepeating(every: max(interval / 2, 1))
        watchdog()
        return timer
    }
}
