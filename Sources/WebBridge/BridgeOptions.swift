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
    /// Bytes a browser may have waiting; one more event and it is dropped with
    /// `slow_consumer`, as the daemon drops a slow socket client (its queue is 1 MiB too).
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
