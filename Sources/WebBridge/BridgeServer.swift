#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOPosix
import NIOWebSocket

/// `gestured-web` (docs/web.md, "The bridge, `gestured-web`"): serves the client module and turns each
/// WebSocket into a session on the daemon's socket. One event loop thread carries every connection, browser
/// and daemon side alike; sessions never share state, so a broken or slow browser touches only its own.
public final class BridgeServer: Sendable {
    /// The client module as `/gestured.js` serves it (``ClientModule``), embedded at build time.
    public static var clientModule: String { ClientModule.module }

    private let options: BridgeOptions
    /// What a new connection gets: ``options`` with what SIGHUP re-read (``reload(web:socketPath:)``).
    private let current: NIOLockedValueBox<BridgeOptions>
    private let logger: Logger
    private let group: MultiThreadedEventLoopGroup
    private let registry: SessionRegistry
    private let serverChannel: NIOLockedValueBox<Channel?> = NIOLockedValueBox(nil)

    public init(options: BridgeOptions, logger: Logger) {
        self.options = options
        current = NIOLockedValueBox(options)
        self.logger = logger
        group = MultiThreadedEventLoopGroup(numberOfThreads: 1)
        let loop = group.next()
        registry = SessionRegistry(eventLoop: loop)
    }

    /// Binds `web.listen` and starts serving; returns the address actually bound as
    /// `host:port` (port 0 picks a free one).
    public func start() throws -> String {
        let options = self.options
        let current = self.current
        let logger = self.logger
        let registry = self.registry
        let loop = registry.eventLoop
        let refusals = RefusalLog(logger: logger)
        // Compressed once here, for every request to come.
        let content = HTTPRequestHandler.Content(
            module: ServedFile(text: ClientModule.module, contentType: "text/javascript; charset=utf-8"),
            sourceMap: ServedFile(text: ClientModule.sourceMap, contentType: "application/json"),
            serverName: "gestured-web/\(options.version)", refusals: refusals)
        let connections = NIOLockedValueBox(0)
        let serial = NIOLockedValueBox(0)

        let upgrader = NIOWebSocketServerUpgrader(
            maxFrameSize: options.maxMessageSize, automaticErrorHandling: false,
            shouldUpgrade: { channel, head in
                let path = head.uri.prefix { $0 != "?" && $0 != "#" }
                let web = current.withLockedValue { $0.web }
                let allowed = path == "/socket" && web.allows(origin: head.headers.first(name: "Origin"))
                // nil leaves the request to HTTPRequestHandler, which says why (403, 426).
                return channel.eventLoop.makeSucceededFuture(allowed ? HTTPHeaders() : nil)
            },
            upgradePipelineHandler: { channel, head in
                let options = current.withLockedValue { $0 }
                let mayChange = options.web.token.map { RequestGate.tokenMatches(uri: head.uri, token: $0) } ?? true
                let number = serial.withLockedValue { $0 += 1; return $0 }
                let origin = head.headers.first(name: "Origin") ?? "none"
                return channel.eventLoop.makeCompletedFuture {
                    let session = BridgeSession(serial: number, browser: channel, options: options, mayChange: mayChange,
                                                origin: origin, logger: logger, refusals: refusals) { registry.remove($0) }
                    registry.add(session)
                    logger.info("browser connected", metadata: [
                        "session": "\(number)", "origin": "\(origin)", "mayChange": "\(mayChange)"])
                    if !mayChange, RequestGate.queryValue("token", in: head.uri) != nil {
                        refusals.refused("a page gave a token that is not web.token: it may observe, not change the layout", [
                            "session": "\(number)", "origin": "\(origin)", "reason": "\(BridgeCheck.tokenRefusal)"])
                    }
                    try channel.pipeline.syncOperations.addHandlers([
                        ClientFrameRules(),
                        NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 1, maxAccumulatedFrameCount: options.maxFragments,
                                                    maxAccumulatedFrameSize: options.maxMessageSize),
                        BrowserHandler(session: session),
                    ])
                }
            })

        let bootstrap = ServerBootstrap(group: loop)
            .serverChannelOption(ChannelOptions.socketOption(.so_reuseaddr), value: 1)
            .serverChannelOption(ChannelOptions.backlog, value: 128)
            // Set on the listening socket so that accepted ones inherit it before their window
            // scale is agreed (tcp(7)): a bounded receive buffer instead of autotuning.
            .serverChannelOption(ChannelOptions.socketOption(.so_rcvbuf), value: options.socketReceiveBuffer)
            // TCP_NODELAY at the TCP level: socketOption(.tcp_nodelay) would be level SOL_SOCKET,
            // where option 1 is SO_DEBUG, which needs CAP_NET_ADMIN. As root that went unnoticed
            // (it set SO_DEBUG); under the unit (DynamicUser, no capabilities) setsockopt failed
            // with EACCES and NIO closed every accepted connection without a word: the resets
            // of issue 16. (NIO also sets TCP_NODELAY on the listening socket, which accepted
            // sockets inherit; this says it for the child channels on purpose.)
            .childChannelOption(ChannelOptions.tcpOption(.tcp_nodelay), value: 1)
            // A fixed send buffer (the kernel doubles it) instead of loopback autotuning, which
            // grows to megabytes: what a browser has not read is then mostly in our bounded
            // queue, where slow_consumer sees it.
            .childChannelOption(ChannelOptions.socketOption(.so_sndbuf), value: options.socketSendBuffer)
            .childChannelOption(ChannelOptions.writeBufferWaterMark,
                                value: ChannelOptions.Types.WriteBufferWaterMark(low: options.channelWaterMarks.low,
                                                                                 high: options.channelWaterMarks.high))
            .childChannelInitializer { channel in
                let count = connections.withLockedValue { $0 += 1; return $0 }
                channel.closeFuture.whenComplete { _ in connections.withLockedValue { $0 -= 1 } }
                guard count <= options.maxConnections else {
                    refusals.refused("refused a connection: too many at once", [
                        "peer": "\(channel.remoteAddress?.description ?? "unknown")", "limit": "\(options.maxConnections)"])
                    return channel.close()
                }
                let (web, socketPath) = current.withLockedValue { ($0.web, $0.socketPath) }
                return channel.eventLoop.makeCompletedFuture {
                    let http = HTTPRequestHandler(web: web, socketPath: socketPath, content: content,
                                                  timeoutSeconds: options.requestTimeoutSeconds)
                    try channel.pipeline.syncOperations.configureHTTPServerPipeline(
                        withServerUpgrade: (upgraders: [upgrader], completionHandler: { context in
                            context.pipeline.removeHandler(name: HTTPRequestHandler.name, promise: nil)
                        }),
                        withErrorHandling: true)
                    try channel.pipeline.syncOperations.addHandler(http, name: HTTPRequestHandler.name)
                }
            }
        let channel = try bootstrap.bind(host: options.web.listen.host, port: options.web.listen.port).wait()
        // After NIO's accept handler (added at bind), so that what it fires is seen: without it
        // a connection NIO could not set up was closed and nothing was logged (issue 16).
        try channel.eventLoop.submit {
            try channel.pipeline.syncOperations.addHandler(
                AcceptErrorLogger(logger: logger, pauseMilliseconds: options.acceptPauseMilliseconds))
        }.wait()
        serverChannel.withLockedValue { $0 = channel }
        let bound = channel.localAddress
        let host = bound?.ipAddress ?? options.web.listen.host
        return ListenAddress(host: host, port: bound?.port ?? options.web.listen.port).description
    }

    /// Takes what SIGHUP re-read for the connections opened from now on: `web.origins`,
    /// `web.token` and the daemon's socket. The bridge keeps listening where it listens (a
    /// changed `web.listen` is reported as needing a restart); open connections keep what
    /// they were opened with. Returns what changed.
    public func reload(web: WebConfig, socketPath: String) -> BridgeReload {
        current.withLockedValue { running in
            let reload = BridgeReload(from: running, web: web, socketPath: socketPath)
            running.web.origins = web.origins
            running.web.token = web.token
            running.socketPath = socketPath
            return reload
        }
    }

    /// Stops accepting, closes every session (the browsers get a close frame, "going away")
    /// and returns once the event loop has stopped.
    public func stop() {
        let channel = serverChannel.withLockedValue { $0 }
        try? channel?.close().wait()
        let registry = self.registry
        try? registry.eventLoop.submit { registry.endAll() }.wait()
        // Give the close frames a moment to leave before the loop goes away.
        try? registry.eventLoop.scheduleTask(in: .milliseconds(200)) {}.futureResult.wait()
        try? group.syncShutdownGracefully()
    }

    /// Runs `body` on the event loop every `seconds` with `state` (the systemd watchdog and
    /// its notifier): the state is sent to the loop once and used on it only.
    public func every<State>(seconds: Int64, with state: sending State, _ body: @escaping @Sendable (State) -> Void) {
        let loop = registry.eventLoop
        let state = NIOLoopBoundBox.makeBoxSendingValue(state, as: State.self, eventLoop: loop)
        loop.scheduleRepeatedTask(initialDelay: .seconds(seconds), delay: .seconds(seconds)) { _ in body(state.value) }
    }

    /// Sessions now (for logs and tests).
    public var sessionCount: Int {
        let registry = self.registry
        return (try? registry.eventLoop.submit { registry.count }.wait()) ?? 0
    }
}

/// Handles what the listening channel's pipeline reports: a connection NIO accepted but could
/// not set up (a child channel option or the initializer failed; NIO closes it) or a failed
/// accept(2). When accept fails for want of a resource (`EMFILE`, `ENFILE`, `ENOBUFS`,
/// `ENOMEM`), NIO would retry at once, hundreds of thousands of times a second, serving no one
/// (issue 25): accepting pauses for ``BridgeOptions/acceptPauseMilliseconds`` instead (the
/// connections wait in the kernel's backlog) and resumes by itself once descriptors are free.
/// At most one log line a second, with the number left out, so a storm cannot flood the
/// journal.
final class AcceptErrorLogger: ChannelInboundHandler {
    typealias InboundIn = Any

    private let logger: Logger
    private let pause: TimeAmount
    private var lastLogged: NIODeadline?
    private var suppressed = 0
    private var paused = false

    init(logger: Logger, pauseMilliseconds: Int64) {
        self.logger = logger
        pause = .milliseconds(pauseMilliseconds)
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if let error = error as? IOError, [EMFILE, ENFILE, ENOBUFS, ENOMEM].contains(error.errnoCode), !paused {
            paused = true
            let channel = context.channel
            channel.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
            context.eventLoop.assumeIsolated().scheduleTask(in: pause) {
                self.paused = false
                channel.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
                channel.read()
            }
        }
        let now = NIODeadline.now()
        if let lastLogged, now - lastLogged < .seconds(1) {
            suppressed += 1
            return
        }
        lastLogged = now
        var metadata: Logger.Metadata = ["error": "\(error)"]
        if suppressed > 0 { metadata["alsoSinceLastLine"] = "\(suppressed)" }
        suppressed = 0
        logger.warning("a connection could not be accepted or set up", metadata: metadata)
    }
}

/// The open sessions, so that stopping can close them all. The sessions live on the event
/// loop: the dictionary is an `NIOLoopBoundBox`, so every access is checked to be on that
/// loop, and the registry itself holds only `Sendable` values.
final class SessionRegistry: Sendable {
    let eventLoop: EventLoop
    private let sessions: NIOLoopBoundBox<[Int: BridgeSession]>

    init(eventLoop: EventLoop) {
        self.eventLoop = eventLoop
        sessions = .makeBoxSendingValue([:], as: [Int: BridgeSession].self, eventLoop: eventLoop)
    }

    var count: Int { sessions.value.count }

    func add(_ session: BridgeSession) {
        sessions.value[session.serial] = session
    }

    func remove(_ session: BridgeSession) {
        sessions.value[session.serial] = nil
    }

    func endAll() {
        for session in Array(sessions.value.values) { session.end(.stopping) }
    }
}
