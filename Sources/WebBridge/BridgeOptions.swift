import GestureConfig
import GestureServer

/// What `gestured-web` serves and its limits (docs/web.md, "Limits (every structure has one)" lists each with
/// its reason).
public struct BridgeOptions: Sendable {
    /// The daemon's socket: every WebSocket becomes one session on it.
    public var socketPath: String
    /// `web.listen`, `web.origins`, `web.token`.
    public var web: WebConfig
    /// A longer message is refused with `line_too_long` and the connection closed: the
    /// daemon's own line limit (1 MiB), since each message becomes one line.
    public var maxMessageSize = BridgeGate.daemonLineLimit
    /// Fragments one message may come in (each a frame the aggregator keeps until the last).
    public var maxFragments = 1 << 12
    /// Above this many bytes waiting for a browser, the bridge stops reading its daemon
    /// session, so the daemon's own flow control and `slow_consumer` apply to the browser,
    /// and stops reading the browser, so its requests wait in its own socket.
    public var pauseAbove = 1 << 18
    /// ... and reads again below this many.
    public var resumeBelow = 1 << 16
    /// Bytes a browser may have waiting at most (the daemon's own queue size), the daemon's
    /// lines and the bridge's own answers alike; one more and it is dropped with
    /// `slow_consumer`. Reached only by what comes while reading is paused.
    public var queueLimit = 1 << 20
    /// `SO_SNDBUF` of each browser connection (bytes; the kernel doubles it).
    public var socketSendBuffer = 1 << 17
    /// `SO_RCVBUF` of each browser connection (bytes; the kernel doubles it): what a page
    /// sends while the bridge does not read it waits in this buffer and then in the page's own
    /// socket. Without it the kernel's autotuning grows it to megabytes (`tcp_rmem`), charged to
    /// the bridge's cgroup.
    public var socketReceiveBuffer = 1 << 17
    /// Bytes a channel (browser or daemon side) may hold for its socket before it says it is
    /// not writable, and fewer than which make it writable again: the bridge writes while it is.
    public var channelWaterMarks = (low: 1 << 15, high: 1 << 16)
    /// The most one read from a socket takes (NIO's adaptive allocator's maximum).
    public static let readSize = 1 << 16
    /// How long a closing connection may take to receive its last messages.
    public var lingerSeconds: Int64 = 5
    /// Connections at once, HTTP requests and WebSockets alike; more are closed at accept.
    /// Each WebSocket holds a daemon session and up to ``sessionMemoryBound`` bytes, so this
    /// bounds the bridge's memory and descriptors (docs/limits.md § Web bridge; the unit's
    /// `MemoryHigh=` and `LimitNOFILE=` are computed from it). A kiosk shows a few pages.
    public var maxConnections = 64
    /// How long accepting pauses when accept(2) fails for want of descriptors or memory
    /// (`EMFILE` and the like), instead of retrying at once: at most five failed accepts a
    /// second, and a connection waits that long at most once descriptors are free again.
    public var acceptPauseMilliseconds: Int64 = 200
    /// Time a client has to finish its HTTP request before it is closed.
    public var requestTimeoutSeconds: Int64 = 10
    /// A WebSocket that sent nothing for this long is pinged; one that did not answer by the
    /// next time is closed as vanished (a browser whose machine lost power sends no FIN).
    public var pingIntervalSeconds: Int64 = 30
    /// The version named in logs and the `Server` header.
    public var version: String

    /// The most memory one page can make the bridge hold, in bytes, whatever it sends and
    /// however little it reads (docs/limits.md § Web bridge): a message being read (a whole
    /// frame in the decoder's buffer and one read more) and the fragments joined so far;
    /// what waits for the page (the queue, and one message beyond the browser channel's water
    /// mark); the daemon's unfinished line (or, before the daemon session is up, the page's
    /// early lines, never both); one line beyond the daemon channel's water mark.
    public var sessionMemoryBound: Int {
        let reading = (maxMessageSize + Self.readSize) + maxMessageSize
        let towardsPage = queueLimit + (channelWaterMarks.high + queueLimit)
        let fromDaemon = queueLimit
        let towardsDaemon = channelWaterMarks.high + maxMessageSize
        return reading + towardsPage + fromDaemon + towardsDaemon
    }

    /// The kernel's socket buffers of one page, in bytes, charged to the bridge's cgroup: the
    /// browser connection's send and receive buffers (the kernel doubles what is set) and the
    /// daemon connection's (a Unix socket's default, `net.core.wmem_default`, 208 KiB).
    public var sessionKernelBound: Int { 2 * socketSendBuffer + 2 * socketReceiveBuffer + 2 * 212_992 }

    public init(socketPath: String, web: WebConfig, version: String) {
        (self.socketPath, self.web, self.version) = (socketPath, web, version)
    }
}
