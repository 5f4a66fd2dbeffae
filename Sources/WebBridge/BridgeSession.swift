import GestureServer
import Logging
import NIOCore
import NIOPosix
import NIOWebSocket

/// One browser's WebSocket and its own session on the daemon's socket (docs/web.md, "The bridge,
/// `gestured-web`"): the daemon's lines go to the browser one text message each, the browser's messages go to
/// the daemon one line each. Both channels live on one event loop, so the session needs no lock.
///
/// Flow control is the daemon's: while more than ``BridgeOptions/pauseAbove`` bytes wait for
/// the browser, the bridge stops reading the daemon session, so the daemon sees this browser
/// as the slow (or stalled) socket client it is and applies its own rules — a live daemon
/// drops it with `slow_consumer` once its queue overflows, a replay in virtual time waits for
/// it while it still reads. The bridge's own queue limit (``BridgeOptions/queueLimit``,
/// dropping the browser with `slow_consumer` as well) is the safety net for what arrives while
/// reading is paused, such as the rest of a closing session.
///
/// What the bridge answers itself (a page's binary message, a request the gate refuses, a
/// pong) is bounded the same way (issue 25): every byte queued for the page counts against
/// the queue limit, the bridge stops reading a page while more than
/// ``BridgeOptions/pauseAbove`` bytes wait for it (so its requests wait in its own socket),
/// and pongs are coalesced: only the latest ping is answered, once the page's socket takes
/// it (RFC 6455 §5.5.3 allows that). A page's memory in the bridge is therefore bounded
/// whatever it sends (docs/limits.md § Web bridge).
final class BridgeSession {
    /// Why the session ends, and what the browser is told.
    enum Ending {
        /// The browser closed, or its connection broke: nothing more to send.
        case browserGone(String)
        /// The daemon closed our session (after `bye`, or it stopped).
        case daemonClosed
        /// The daemon's socket cannot be reached.
        case daemonUnavailable(String)
        /// The browser did not read its events fast enough.
        case slowConsumer
        /// A message longer than the limit.
        case messageTooLong
        /// A frame that breaks RFC 6455.
        case protocolError(String)
        /// The browser answered no ping.
        case vanished
        /// The bridge is stopping.
        case stopping
    }

    let serial: Int
    private let browser: Channel
    private let options: BridgeOptions
    private let gate: RequestGate
    /// The page's `Origin`, for the log.
    private let origin: String
    private let logger: Logger
    private let refusals: RefusalLog
    private let onEnd: (BridgeSession) -> Void

    private var daemon: Channel?
    /// Browser messages (already lines) that arrived before the daemon connection was up.
    private var early: [ByteBuffer] = []
    private var earlyBytes = 0
    /// Lines waiting for the browser's socket, in order, and their payload bytes.
    private var queue = CircularBuffer<ByteBuffer>()
    private var queuedBytes = 0
    /// The daemon's bytes cut into lines (the shared ``LineFramer``): a daemon line can be no
    /// longer than the browser's queue could ever hold.
    private var daemonLines: LineFramer
    private var sawHello = false
    /// Set once the session is ending: no more reading; the queue drains, then a close frame.
    private var ending: Ending?
    private var closeCode: WebSocketErrorCode = .normalClosure
    private var lingerTask: Scheduled<Void>?
    private var pingTask: RepeatedTask?
    private var awaitingPong = false
    private var receivedSincePing = false
    private var closeSent = false
    /// Reading the daemon session is paused because the browser has a backlog.
    private var daemonPaused = false
    /// The daemon's socket is full: the browser's requests must wait in the browser's socket.
    private var daemonBlocked = false
    /// More than ``BridgeOptions/pauseAbove`` bytes wait for the browser: it is not read until
    /// fewer than ``BridgeOptions/resumeBelow`` do.
    private var browserBacklogged = false
    /// Reading the browser is paused, for either reason above.
    private var browserPaused = false
    /// The payload of the latest ping not yet answered (at most 125 bytes, RFC 6455 §5.5).
    private var pendingPong: ByteBuffer?

    init(serial: Int, browser: Channel, options: BridgeOptions, mayChange: Bool, origin: String, logger: Logger,
         refusals: RefusalLog, onEnd: @escaping (BridgeSession) -> Void) {
        self.serial = serial
        self.browser = browser
        self.options = options
        gate = RequestGate(mayChange: mayChange)
        daemonLines = LineFramer(maxLineLength: options.queueLimit)
        self.origin = origin
        self.logger = logger
        self.refusals = refusals
        self.onEnd = onEnd
    }

    // MARK: Starting

    /// How the session reaches the daemon: a connection to its Unix socket
    /// (``connectToSocket()``), which ends in ``daemonConnected(_:)``. Tests give the session a
    /// channel of their own (an `EmbeddedChannel` with a ``DaemonHandler``) instead.
    var connectDaemon: (BridgeSession) -> Void = { $0.connectToSocket() }

    /// Opens the daemon session; the browser's messages wait (bounded) until it is up.
    func start() {
        connectDaemon(self)
        let bound = NIOLoopBound(self, eventLoop: browser.eventLoop)
        let interval = TimeAmount.seconds(options.pingIntervalSeconds)
        pingTask = browser.eventLoop.scheduleRepeatedTask(initialDelay: interval, delay: interval) { _ in bound.value.pingTick() }
    }

    /// Connects to the daemon's socket on the browser's event loop.
    fileprivate func connectToSocket() {
        let loop = browser.eventLoop
        let bound = NIOLoopBound(self, eventLoop: loop)
        ClientBootstrap(group: loop)
            .channelOption(ChannelOptions.writeBufferWaterMark,
                           value: ChannelOptions.Types.WriteBufferWaterMark(low: options.channelWaterMarks.low,
                                                                            high: options.channelWaterMarks.high))
            .channelInitializer { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHandler(DaemonHandler(session: bound.value))
                }
            }
            .connect(unixDomainSocketPath: options.socketPath)
            .assumeIsolated()
            .whenComplete { result in
                let session = bound.value
                switch result {
                case .success(let channel):
                    session.daemonConnected(channel)
                case .failure(let error):
                    session.end(.daemonUnavailable(BridgeCheck.describeConnectError(error)))
                }
            }
    }

    /// The daemon session is up: what the browser sent meanwhile goes first.
    func daemonConnected(_ channel: Channel) {
        guard ending == nil else {
            channel.close(promise: nil)
            return
        }
        daemon = channel
        for line in early { channel.write(line, promise: nil) }
        if !early.isEmpty { channel.flush() }
        early = []
        earlyBytes = 0
    }

    // MARK: Browser → daemon

    /// A whole message from the browser (fragments already joined, within the size limit).
    func browserFrame(_ frame: WebSocketFrame) {
        receivedSincePing = true
        awaitingPong = false
        guard ending == nil else { return }
        switch frame.opcode {
        case .text:
            browserText(frame.unmaskedData)
        case .binary:
            enqueue(ReplyEncoder.encode(.error(ProtocolError(.badRequest, "the bridge takes requests as text messages, one JSON "
                + "object each, such as {\"type\":\"status\",\"id\":1}; a binary message was ignored"))))
        case .ping:
            // Only the latest ping is answered (RFC 6455 §5.5.3), when the browser's socket
            // takes it: a page that pings and never reads costs one payload, not a pong each.
            var payload = frame.unmaskedData
            if payload.readableBytes > 125 { payload = payload.getSlice(at: payload.readerIndex, length: 125)! }
            pendingPong = payload
            writeQueued()
        case .pong:
            break
        case .connectionClose:
            switch CloseFrameRule(payload: frame.unmaskedData.readableBytesView) {
            case .answer(let code):
                closeCode = WebSocketErrorCode(codeNumber: Int(code))
                end(.browserGone("the browser closed the WebSocket"))
            case .protocolError(let why):
                end(.protocolError(why))
            }
        default:
            end(.protocolError("an unknown opcode"))
        }
    }

    /// A text message: the gate (``BridgeGate``) decides on exactly the line the daemon would
    /// read, and that line is what is forwarded.
    private func browserText(_ message: ByteBuffer) {
        let line: ByteBuffer
        switch gate.verdict(on: message.readableBytesView) {
        case .forward(let bytes):
            line = ByteBuffer(bytes: bytes)
        case .refuse(let reply):
            refusals.refused("refused a request of a page without the token", [
                "session": "\(serial)", "origin": "\(origin)", "reply": "\(String(decoding: reply, as: UTF8.self))"])
            enqueue(reply)
            return
        case .nothing:
            return
        case .tooLong:
            end(.messageTooLong)
            return
        }
        if let daemon {
            daemon.writeAndFlush(line, promise: nil)
        } else {
            earlyBytes += line.readableBytes
            guard earlyBytes <= options.queueLimit else {
                end(.slowConsumer)
                return
            }
            early.append(line)
        }
    }

    /// The daemon's socket is full (the daemon is not reading): stop reading the browser until
    /// it drains, so the browser's requests pile up in its own socket, not in our memory.
    func daemonWritabilityChanged(_ writable: Bool) {
        guard ending == nil else { return }
        daemonBlocked = !writable
        updateBrowserReading()
    }

    // MARK: Daemon → browser

    /// Bytes from the daemon: complete lines go to the browser, the rest waits for its newline.
    func daemonBytes(_ incoming: ByteBuffer) {
        guard ending == nil else { return }
        daemonLines.append(incoming.readableBytesView)
        while let output = daemonLines.nextRawLine() {
            guard case .line(let line) = output else {
                end(.slowConsumer)
                return
            }
            if !sawHello {
                sawHello = true
                enqueue(ByteBuffer(bytes: gate.hello(Array(line))))
            } else {
                enqueue(ByteBuffer(bytes: line))
            }
            if ending != nil { return }
        }
    }

    func daemonClosed() {
        daemon = nil
        if ending == nil { end(.daemonClosed) }
    }

    /// Queues one message for the browser, a daemon line or the bridge's own answer alike: one
    /// that would take the queue past its limit drops the browser as a slow consumer.
    private func enqueue(_ message: ByteBuffer) {
        guard ending == nil else { return }
        if queuedBytes + message.readableBytes > options.queueLimit {
            end(.slowConsumer)
            return
        }
        queue.append(message)
        queuedBytes += message.readableBytes
        writeQueued()
    }

    private func enqueue(_ line: [UInt8]) {
        enqueue(ByteBuffer(bytes: line.last == 0x0A ? line.dropLast() : line[...]))
    }

    /// The last message of an ending session (its error or `bye`), after the queue was emptied
    /// or with what it holds: one short line beyond the limit at most.
    private func enqueueLast(_ line: [UInt8]) {
        let message = ByteBuffer(bytes: line.last == 0x0A ? line.dropLast() : line[...])
        queue.append(message)
        queuedBytes += message.readableBytes
    }

    /// Hands queued messages to the browser's channel while it takes them (its own buffer is
    /// small: the writability water marks), then flushes.
    func writeQueued() {
        var wrote = false
        if ending == nil, browser.isWritable, let pong = pendingPong {
            pendingPong = nil
            browser.write(WebSocketFrame(fin: true, opcode: .pong, data: pong), promise: nil)
            wrote = true
        }
        while browser.isWritable, let message = queue.popFirst() {
            queuedBytes -= message.readableBytes
            browser.write(WebSocketFrame(fin: true, opcode: .text, data: message), promise: nil)
            wrote = true
        }
        if wrote { browser.flush() }
        if queue.isEmpty, ending != nil { sendCloseFrame() }
        updateDaemonReading()
        updateBrowserReading()
    }

    /// Pauses reading the daemon above the high-water mark, resumes below the low one.
    private func updateDaemonReading() {
        guard let daemon, ending == nil else { return }
        if !daemonPaused, queuedBytes > options.pauseAbove {
            daemonPaused = true
            daemon.setOption(ChannelOptions.autoRead, value: false).whenFailure { _ in }
        } else if daemonPaused, queuedBytes < options.resumeBelow {
            daemonPaused = false
            daemon.setOption(ChannelOptions.autoRead, value: true).whenFailure { _ in }
            daemon.read()
        }
    }

    /// Pauses reading the browser while the daemon's socket is full or while more than
    /// ``BridgeOptions/pauseAbove`` bytes wait for the browser (its own answers piling up
    /// among them), resumes when neither holds (below ``BridgeOptions/resumeBelow``).
    private func updateBrowserReading() {
        guard ending == nil else { return }
        if !browserBacklogged, queuedBytes > options.pauseAbove {
            browserBacklogged = true
        } else if browserBacklogged, queuedBytes < options.resumeBelow {
            browserBacklogged = false
        }
        let pause = daemonBlocked || browserBacklogged
        guard pause != browserPaused else { return }
        browserPaused = pause
        browser.setOption(ChannelOptions.autoRead, value: !pause).whenFailure { _ in }
        if !pause { browser.read() }
    }

    // MARK: Ending

    /// Ends the session: the daemon session is closed at once; the browser gets what is
    /// queued (within the linger time), then a close frame.
    func end(_ reason: Ending) {
        guard ending == nil else { return }
        ending = reason
        pingTask?.cancel()
        pingTask = nil
        daemon?.close(promise: nil)
        daemon = nil
        early = []
        pendingPong = nil
        switch reason {
        case .browserGone(let why):
            logger.info("browser left", metadata: ["session": "\(serial)", "reason": "\(why)"])
            queue.removeAll()
            queuedBytes = 0
        case .daemonClosed:
            closeCode = .normalClosure
        case .daemonUnavailable(let why):
            refusals.refused("closing a page's WebSocket: cannot reach gestured's socket", [
                "session": "\(serial)", "origin": "\(origin)", "socket": "\(options.socketPath)", "error": "\(why)",
                "reason": "\(BridgeCheck.daemonRefusal(socketPath: options.socketPath, error: why))"])
            closeCode = .unknown(1013)  // Try Again Later
            enqueueLast(ReplyEncoder.encode(.bye(reason: "unavailable", message: "gestured is not reachable on \(options.socketPath) "
                + "(\(why)); the bridge runs, the daemon does not: start gestured, then reconnect")))
        case .slowConsumer:
            refusals.refused("dropping a browser that does not read its events fast enough", [
                "session": "\(serial)", "origin": "\(origin)", "queued": "\(queuedBytes)", "limit": "\(options.queueLimit)"])
            queue.removeAll()
            queuedBytes = 0
            closeCode = .policyViolation
            enqueueLast(ReplyEncoder.encode(.error(ProtocolError(.slowConsumer, "client bug: this connection did not read its "
                + "events and answers fast enough and more than \(options.queueLimit) bytes were waiting; read continuously and "
                + "reconnect"))))
        case .messageTooLong:
            refusals.refused("closing a browser that sent an over-long message", [
                "session": "\(serial)", "origin": "\(origin)", "limit": "\(options.maxMessageSize)"])
            closeCode = .messageTooLarge
            enqueueLast(ReplyEncoder.encode(.error(ProtocolError(.lineTooLong, "client bug: a message is longer than "
                + "\(options.maxMessageSize) bytes; keep every request under the limit (send large layouts as compact JSON)"))))
        case .protocolError(let why):
            refusals.refused("closing a browser that broke the WebSocket protocol", [
                "session": "\(serial)", "origin": "\(origin)", "error": "\(why)"])
            queue.removeAll()
            queuedBytes = 0
            closeCode = .protocolError
        case .vanished:
            logger.info("closing a browser that answered no ping", metadata: ["session": "\(serial)"])
            queue.removeAll()
            queuedBytes = 0
            closeCode = .goingAway
        case .stopping:
            closeCode = .goingAway
        }
        let bound = NIOLoopBound(self, eventLoop: browser.eventLoop)
        lingerTask = browser.eventLoop.scheduleTask(in: .seconds(options.lingerSeconds)) {
            bound.value.browser.close(promise: nil)
        }
        writeQueued()
    }

    private func sendCloseFrame() {
        guard !closeSent else { return }
        closeSent = true
        var payload = browser.allocator.buffer(capacity: 2)
        payload.write(webSocketErrorCode: closeCode)
        let bound = NIOLoopBound(self, eventLoop: browser.eventLoop)
        browser.writeAndFlush(WebSocketFrame(fin: true, opcode: .connectionClose, data: payload)).assumeIsolated()
            .whenComplete { _ in bound.value.browser.close(promise: nil) }
    }

    /// The browser's channel closed, whatever the reason: let go of everything.
    func browserClosed() {
        if ending == nil { end(.browserGone("the connection closed")) }
        lingerTask?.cancel()
        lingerTask = nil
        queue.removeAll()
        queuedBytes = 0
        onEnd(self)
    }

    private func pingTick() {
        guard ending == nil else { return }
        if awaitingPong {
            end(.vanished)
            return
        }
        if !receivedSincePing {
            awaitingPong = true
            browser.writeAndFlush(WebSocketFrame(fin: true, opcode: .ping, data: browser.allocator.buffer(capacity: 0)),
                                  promise: nil)
        }
        receivedSincePing = false
    }
}

@available(*, unavailable, message: "a BridgeSession lives on its event loop")
extension BridgeSession: Sendable {}

/// The browser's end of a session: whole WebSocket messages in, writability and closing.
final class BrowserHandler: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    private let session: BridgeSession

    init(session: BridgeSession) {
        self.session = session
    }

    func handlerAdded(context: ChannelHandlerContext) {
        session.start()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        session.browserFrame(Self.unwrapInboundIn(data))
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        if context.channel.isWritable { session.writeQueued() }
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        session.browserClosed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        switch error {
        case NIOWebSocketError.invalidFrameLength, NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            session.end(.messageTooLong)
        case let error as NIOWebSocketError:
            session.end(.protocolError("\(error)"))
        case let error as NIOWebSocketFrameAggregator.Error:
            session.end(.protocolError("\(error)"))
        case let error as ClientFrameRules.Violation:
            session.end(.protocolError(error.description))
        default:
            // A broken connection (ECONNRESET and the like): nothing more can reach the browser.
            session.end(.browserGone("\(error)"))
            context.close(promise: nil)
        }
    }
}

/// RFC 6455 rules NIO's frame decoder leaves to the server: every frame from a client is
/// masked (5.1: "the server MUST close the connection upon receiving a frame that is not
/// masked"), and no reserved bit is set without an extension that defines it (5.2). Checked
/// before fragments are joined, since a joined message no longer shows them.
final class ClientFrameRules: ChannelInboundHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    /// Raised into the pipeline; the session closes with 1002.
    struct Violation: Error, CustomStringConvertible {
        var description: String
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = Self.unwrapInboundIn(data)
        if frame.maskKey == nil {
            context.fireErrorCaught(Violation(description: "an unmasked frame"))
        } else if frame.rsv1 || frame.rsv2 || frame.rsv3 {
            context.fireErrorCaught(Violation(description: "a reserved bit set"))
        } else {
            context.fireChannelRead(data)
        }
    }
}

/// The daemon's end of a session: JSON Lines in, writability and closing.
final class DaemonHandler: ChannelInboundHandler {
    typealias InboundIn = ByteBuffer

    private let session: BridgeSession

    init(session: BridgeSession) {
        self.session = session
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        session.daemonBytes(Self.unwrapInboundIn(data))
    }

    func channelWritabilityChanged(context: ChannelHandlerContext) {
        session.daemonWritabilityChanged(context.channel.isWritable)
        context.fireChannelWritabilityChanged()
    }

    func channelInactive(context: ChannelHandlerContext) {
        session.daemonClosed()
        context.fireChannelInactive()
    }

    func errorCaught(context: ChannelHandlerContext, error: Error) {
        context.close(promise: nil)
    }
}
