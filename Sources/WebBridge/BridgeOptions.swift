import GestureConfig

/// What `gestured-web` serves and its limits (SPEC 13; `docs/web.md` lists each with its reason).
public struct BridgeOptions: Sendable {
    /// The daemon's socket: every WebSocket becomes one session on it.
    public var socketPath: String
    /// `web.listen`, `web.origins`, `web.token`.
    public var web: WebConfig
    /// A longer message is refused with `line_too_long` and the connection closed: the
    /// daemon's own line limit (SPEC 9: 1 MiB), since each message becomes one line.
    public var maxMessageSize = 1 << 20
    /// Above this many bytes waiting for a browser, the bridge stops reading its daemon
    /// session, so the daemon's own flow control and `slow_consumer` apply to the browser.
    public var pauseAbove = 1 << 18
    /// ... and reads again below this many.
    public var resumeBelow = 1 << 16
    /// Bytes a browser may have waiting at most (the daemon's own queue size); one more and it
    /// is dropped with `slow_consumer`. Reached only by what comes while reading is paused.
    public var queueLimit = 1 << 20
    /// `SO_SNDBUF` of each browser connection (bytes; the kernel doubles it).
    public var socketSendBuffer = 1 << 17
    /// How long a closing connection may take to receive its last messages.
    public var lingerSeconds: Int64 = 5
    /// Connections at once; more are closed at accept (each one holds a daemon session).
    public var maxConnections = 256
    /// Time a client has to finish its HTTP request before it is closed.
    public var requestTimeoutSeconds: Int64 = 10
    /// A WebSocket that sent nothing for this long is pinged; one that did not answer by the
    /// next time is closed as vanished (a browser whose machine lost power sends no FIN).
    public var pingIntervalSeconds: Int64 = 30
    /// The version named in logs and the `Server` header.
    public var version: String

    public init(socketPath: String, web: WebConfig, version: String) {
        self.socketPath = socketPath
        self.web = web
        self.version = version
    }
}
