import GestureCore
import GestureSystem
import Logging
import SystemPackage

/// The socket side of the daemon (SPEC 9), on one ``EventLoop`` with non-blocking sockets.
/// This file is its connections: accepting on a ``ListeningSocket``, reading bytes into each
/// client's ``LineFramer``, writing its ``OutputQueue``, closing with a last line and a linger
/// time. Requests are answered in `EventServer+Requests.swift`; the event stream is fanned
/// out in `EventServer+Publishing.swift`.
///
/// The engine and the event stream belong to the ``owner`` (the live daemon, a socket
/// replay): the server neither encodes nor numbers events; it filters the owner's encoded
/// batches per subscriber. Time is the ``LoopClock`` it is given, so tests run it on a
/// ``ManualClock``.
public final class EventServer {
    /// The protocol named in `hello`.
    public static let protocolName = "gestured/1"

    /// Limits and switches.
    public struct Options: Sendable {
        /// The version named in `hello` and `status`.
        public var version: String
        /// A longer request line is an error and closes the connection (SPEC 9: 1 MiB).
        public var maxLineLength = 1 << 20
        /// Bytes a client may have queued, events and replies alike; one more and it is dropped
        /// as a slow consumer. 1 MiB holds several seconds of a ten-finger pan.
        public var queueLimit = 1 << 20
        /// A client's queue shrinking below this wakes a replay that waits for its readers.
        public var lowWater = 1 << 16
        /// How long a closing connection may take to receive its last lines (`bye`,
        /// `slow_consumer`, `line_too_long`) before it is closed regardless.
        public var lingerMicroseconds: Int64 = 5_000_000
        /// The daemon runs with `--trace`: every subscriber receives the trace-only events.
        public var traceAll = false

        public init(version: String) {
            self.version = version
        }
    }

    /// What `status` counts.
    public struct Counters: Sendable {
        public var connections = 0
        public var eventsPublished = 0
        public var requests = 0
        public var errorReplies = 0
        public var slowConsumers = 0
    }

    public weak var owner: EventServerOwner?
    public let options: Options
    public internal(set) var counters = Counters()
    /// Who may control; replaced by a reload.
    public internal(set) var policy: ControlPolicy
    public var socketPath: String { listener.path }

    let loop: EventLoop
    let clock: any LoopClock
    let logger: Logger
    private let listener: ListeningSocket
    private var listenToken: EventLoop.Token?
    var clients: [Int: ClientSession] = [:]
    private var nextSerial = 1
    private var lingerTimer: (any LoopTimer)?
    private var tracingWanted = false
    private var lastSubscriberCount = 0
    private var shuttingDown = false
    private var readBuffer = [UInt8](repeating: 0, count: 1 << 16)

    public init(loop: EventLoop, clock: any LoopClock, listener: ListeningSocket, policy: ControlPolicy,
                options: Options, logger: Logger) {
        self.loop = loop
        self.clock = clock
        self.listener = listener
        self.policy = policy
        self.options = options
        self.logger = logger
    }

    /// Starts accepting clients.
    public func start() throws(SystemError) {
        lingerTimer = try clock.makeTimer { [unowned self] in self.closeLingering() }
        listenToken = try loop.watch(listener.descriptor) { [unowned self] _ in self.acceptClients() }
        for name in policy.unresolved {
            logger.warning("a name allowed to control gestured does not exist on this system; check socket.controlUsers and socket.controlGroup",
                           metadata: ["name": "\(name)"])
        }
    }

    /// Connected clients, subscribed or not.
    public var clientCount: Int { clients.count }

    /// Clients that subscribed and are not being closed.
    public var subscriberCount: Int { clients.values.count { $0.subscription != nil } }

    /// Bytes queued for all clients.
    public var queuedBytes: Int { clients.values.reduce(0) { $0 + $1.output.byteCount } }

    // MARK: Shutting down

    /// Stops accepting, tells every client why (`bye`), writes what is queued within the
    /// linger time and closes; then tells the owner (``ServerChange/closed``).
    public func shutdown(reason: String, message: String) {
        guard !shuttingDown else { return }
        shuttingDown = true
        stopAccepting()
        let bye = ReplyEncoder.encode(.bye(reason: reason, message: message))
        for client in Array(clients.values) {
            close(client, after: bye)
        }
        finishShutdownIfDone()
    }

    /// Stops accepting new connections and removes the socket file (if this process made it).
    public func stopAccepting() {
        if let listenToken { loop.unwatch(listenToken) }
        listenToken = nil
        listener.close()
    }

    private func finishShutdownIfDone() {
        guard shuttingDown, clients.isEmpty else { return }
        shuttingDown = false
        owner?.serverChanged(.closed)
    }

    // MARK: Connections

    private func acceptClients() {
        while true {
            let socket: FileDescriptor
            do {
                guard let accepted = try listener.accept() else { return }
                socket = accepted
            } catch {
                // EMFILE and friends: say so once per wake-up; the connection stays pending.
                logger.error("cannot accept a client", metadata: ["error": "\(error)"])
                return
            }
            let serial = nextSerial
            nextSerial += 1
            counters.connections += 1
            let token: EventLoop.Token
            do {
                token = try loop.watch(socket, for: .readable) { [unowned self] readiness in
                    self.handle(readiness, of: serial)
                }
            } catch {
                logger.error("cannot watch a client socket", metadata: ["error": "\(error)"])
                socket.closeReleasing()
                continue
            }
            let peer: PeerCredentials?
            do {
                peer = try PeerCredentials.of(socket)
            } catch {
                logger.warning("cannot read a client's credentials; it may not control", metadata: ["error": "\(error)"])
                peer = nil
            }
            let client = ClientSession(serial: serial, socket: socket, peer: peer, token: token,
                                       maxLineLength: options.maxLineLength, queueLimit: options.queueLimit, now: clock.now)
            clients[serial] = client
            let canControl = peer.map { policy.allows($0) } ?? false
            logger.info("client connected", metadata: [
                "client": "\(serial)", "peer": "\(client.peerDescription)", "control": "\(canControl)",
            ])
            send(.hello(version: options.version, canControl: canControl), to: client)
            if shuttingDown {
                close(client, after: ReplyEncoder.encode(.bye(reason: "stopping", message: "gestured is stopping")))
            }
        }
    }

    private func handle(_ readiness: EventLoop.Readiness, of serial: Int) {
        guard let client = clients[serial] else { return }
        if readiness.contains(.writable) {
            flush(client)
            guard clients[serial] != nil else { return }
        }
        if readiness.contains(.readable) || !readiness.isDisjoint(with: .hangUp) {
            readRequests(from: client)
        }
    }

    private func readRequests(from client: ClientSession) {
        let count: Int?
        do {
            count = try client.socket.readAvailable(into: &readBuffer)
        } catch {
            remove(client, why: "read failed: \(error.reason)")
            return
        }
        guard let count else { return }
        guard count > 0 else {
            remove(client, why: "the client closed the connection")
            return
        }
        // A closing connection's requests are not answered any more.
        guard !client.isClosing else { return }
        client.framer.append(readBuffer[0..<count])
        while clients[client.serial] != nil, !client.isClosing, let output = client.framer.nextLine() {
            switch output {
            case .line(let line): handleLine(line, from: client)
            case .tooLong: lineTooLong(client)
            }
        }
    }

    private func lineTooLong(_ client: ClientSession) {
        counters.errorReplies += 1
        logger.warning("closing a client that sent an over-long line", metadata: ["client": "\(client.serial)"])
        let error = ProtocolError(.lineTooLong, "client bug: a request line is longer than \(options.maxLineLength) bytes; "
            + "end every request with a newline and keep it under the limit (send large layouts as compact JSON)")
        close(client, after: ReplyEncoder.encode(.error(error)))
    }

    /// Queues one of the server's own lines for `client`; it counts against the client's
    /// queue like its events, so a client that asks and never reads is dropped all the same.
    /// Returns the notice of such a drop, for the owner's stream.
    @discardableResult
    func send(_ reply: Reply, to client: ClientSession) -> ServerNotice? {
        guard clients[client.serial] === client, !client.isClosing else { return nil }
        let line = ReplyEncoder.encode(reply)
        let wasEmpty = client.output.isEmpty
        guard client.output.append(line, line.indices) else { return dropSlowConsumer(client) }
        if wasEmpty { client.lastProgress = clock.now }
        flush(client)
        return nil
    }

    /// Marks the connection as closing: no more reading or events, `last` is the final line.
    func close(_ client: ClientSession, after last: [UInt8]) {
        guard !client.isClosing else { return }
        if client.output.isEmpty { client.lastProgress = clock.now }
        client.output.appendLast(last)
        let deadline = clock.now + options.lingerMicroseconds
        client.state = .closing(deadline: deadline)
        subscriptionsChanged()
        if let lingerTimer, lingerTimer.deadline.map({ deadline < $0 }) ?? true { lingerTimer.arm(at: deadline) }
        flush(client)
    }

    func flush(_ client: ClientSession) {
        let before = client.output.byteCount
        let result = client.output.write(to: client.socket)
        if client.output.byteCount < before { client.lastProgress = clock.now }
        switch result {
        case .drained:
            if client.isClosing {
                remove(client, why: nil)
                return
            }
            setWritableInterest(client, false)
        case .wouldBlock:
            setWritableInterest(client, true)
        case .failed(let error):
            remove(client, why: "write failed: \(error.reason)")
            return
        }
        if before >= options.lowWater && client.output.byteCount < options.lowWater { owner?.serverChanged(.drained) }
    }

    private func setWritableInterest(_ client: ClientSession, _ wanted: Bool) {
        guard client.watchesWritable != wanted else { return }
        do {
            try loop.modify(client.token, interest: wanted ? [.readable, .writable] : .readable)
            client.watchesWritable = wanted
        } catch {
            remove(client, why: "cannot watch the socket: \(error)")
        }
    }

    private func closeLingering() {
        let now = clock.now
        var next: Int64?
        for client in Array(clients.values) {
            guard case .closing(let deadline) = client.state else { continue }
            if deadline <= now {
                remove(client, why: "it did not take its last lines within the linger time")
            } else {
                next = min(next ?? deadline, deadline)
            }
        }
        lingerTimer?.arm(at: next)
    }

    func remove(_ client: ClientSession, why: String?) {
        guard clients.removeValue(forKey: client.serial) != nil else { return }
        loop.unwatch(client.token)
        client.socket.closeReleasing()
        if let why {
            logger.info("client disconnected", metadata: ["client": "\(client.serial)", "reason": "\(why)"])
        } else {
            logger.debug("client closed", metadata: ["client": "\(client.serial)"])
        }
        subscriptionsChanged()
        owner?.serverChanged(.drained)
        finishShutdownIfDone()
    }

    /// Tells the owner when the number of subscribers or the demand for traces changed.
    func subscriptionsChanged() {
        let count = subscriberCount
        let wanted = clients.values.contains { $0.subscription?.trace ?? false }
        if wanted != tracingWanted {
            tracingWanted = wanted
            owner?.serverChanged(.tracingDemand(wanted))
        }
        if count != lastSubscriberCount {
            lastSubscriberCount = count
            owner?.serverChanged(.subscribers(count))
        }
    }
}

@available(*, unavailable, message: "an EventServer lives on its event loop's thread")
extension EventServer: Sendable {}
