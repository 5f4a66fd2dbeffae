import GestureCore
import GestureSystem
import Synchronization
import Logging
import SystemPackage

/// The socket side of the daemon (docs/protocol.md), on one ``EventLoop`` with non-blocking
/// sockets. This file is its connections: accepting on a ``ListeningSocket`` (up to the client
/// limit, and without spinning when descriptors run out), reading bytes into each client's
/// ``LineFramer``, answering their lines a bounded number per turn of the loop, writing its
/// ``OutputQueue``, closing with a last line and a linger time. Requests are answered in
/// `EventServer+Requests.swift`; the event stream is fanned out in `EventServer+Publishing.swift`.
///
/// Every cost is bounded (``ServerLimits``): clients connected, bytes of unfinished request
/// lines and of queued output over all clients, request lines answered per turn. A client
/// that pipelines requests is answered a few lines at a time, and the panel and the other
/// clients are served between; one that shuts down its sending side (a half-close) gets the
/// answers to what it asked and, if subscribed, its events until `bye`.
///
/// The engine and the event stream belong to the ``owner`` (the live daemon, a socket
/// replay): the server neither encodes nor numbers events; it filters the owner's encoded
/// batches per subscriber. Time is the ``LoopClock`` it is given, so tests run it on a
/// ``ManualClock``.
public final class EventServer {
    /// The protocol named in `hello`.
    public static let protocolName = "gestured/1"

    /// Limits and switches; the defaults are ``ServerLimits``.
    public struct Options: Sendable {
        /// The version named in `hello` and `status`.
        public var version: String
        /// This start's id, in `hello` and `status` (``StartID``): made with the options, once
        /// per daemon start; tests give a fixed one.
        public var startID = StartID.random()
        /// A longer request line is an error and closes the connection.
        public var maxLineLength = ServerLimits.maximumLineLength
        /// Bytes a client may have queued, events and replies alike; one more and it is dropped
        /// as a slow consumer.
        public var queueLimit = ServerLimits.queueLimit
        /// A client's queue shrinking below this wakes a replay that waits for its readers.
        public var lowWater = 1 << 16
        /// How long a closing connection may take to receive its last lines (`bye`,
        /// `slow_consumer`, `line_too_long`) before it is closed regardless.
        public var lingerMicroseconds: Int64 = 5_000_000
        /// The daemon runs with `--trace`: every subscriber receives the trace-only events.
        public var traceAll = false
        /// Clients connected at once; lowered at ``EventServer/start()`` to what `RLIMIT_NOFILE`
        /// leaves after ``ServerLimits/reservedDescriptors``.
        public var maxClients = ServerLimits.maximumClients
        /// Bytes of unfinished request lines over all clients.
        public var requestBufferBudget = ServerLimits.requestBufferBudget
        /// Bytes queued for all clients together.
        public var outputBudget = ServerLimits.outputBudget
        /// Request lines answered per turn of the loop, and per visit of one client.
        public var requestsPerTurn = ServerLimits.requestsPerTurn
        public var requestsPerVisit = ServerLimits.requestsPerVisit
        /// Request bytes parsed on the loop per turn (the line that reaches it is finished).
        public var requestBytesPerTurn = ServerLimits.requestBytesPerTurn
        /// Longer lines are parsed on the worker thread.
        public var inlineLineLength = ServerLimits.inlineLineLength
        /// `SO_SNDBUF` of client sockets; `nil` leaves the kernel's default.
        public var socketSendBuffer: Int32? = ServerLimits.socketSendBuffer

        public init(version: String) {
            self.version = version
        }
    }

    /// What `status` counts.
    public struct Counters: Sendable {
        public var connections = 0, eventsPublished = 0, requests = 0, errorReplies = 0, slowConsumers = 0
        /// Connections told `overloaded` and closed at once: over the client limit, or while
        /// no descriptor was left.
        public var refused = 0
    }

    public weak var owner: EventServerOwner?
    public let options: Options
    public internal(set) var counters = Counters()
    /// Who may control; replaced by a reload.
    public internal(set) var policy: ControlPolicy
    public var socketPath: String { listener.path }
    /// Clients served at once: ``Options/maxClients``, or less when `RLIMIT_NOFILE` is low.
    public private(set) var clientLimit: Int

    let loop: EventLoop
    let clock: any LoopClock
    let logger: Logger
    private let listener: ListeningSocket
    private var listenToken: EventLoop.Token?
    /// False once ``stopAccepting()`` closed the listener.
    private var listening = false
    var clients: [Int: ClientSession] = [:]
    /// Per screen (its index in the owner's ``EventServerOwner/screenIDs``), the client whose
    /// `layout.set` set the layout in force (its serial), until a reload replaces that layout:
    /// the one told `superseded` when another client's replaces it.
    var layoutSetters: [Int: Int] = [:]
    /// A `superseded` notice a request made, sent after that request's reply.
    var pendingSuperseded: (serial: Int, notice: Reply)?
    private var nextSerial = 1
    private var lingerTimer: (any LoopTimer)?
    private var tracingWanted = false
    private var contactsWanted = false
    private var lastSubscriberCount = 0
    private var shuttingDown = false
    private var readBuffer = [UInt8](repeating: 0, count: 1 << 16)
    /// Bytes read from clients in the loop's turn `readTurn` (``ServerLimits/readBytesPerTurn``).
    private var bytesReadThisTurn = 0
    private var readTurn: UInt64 = 0
    /// Bytes in every client's framer (``ServerLimits/requestBufferBudget``).
    public internal(set) var bufferedRequestBytes = 0
    /// Bytes in every client's queue (``ServerLimits/outputBudget``).
    public internal(set) var queuedBytes = 0
    /// Clients with request lines to answer, in the order they get their turn.
    private var serviceQueue: [Int] = []
    private var serviceHead = 0
    private var serviceScheduled = false
    private var serviceWork: (() -> Void)?
    /// A descriptor held in reserve: given back when accept(2) fails for want of descriptors,
    /// so the pending connections can be accepted, told why and closed instead of left
    /// pending (the listener would stay readable and the loop spin on it).
    private var reserve: FileDescriptor?
    /// Accepting failed and has not succeeded since: said once, and once when it recovers.
    private var acceptFailing = false
    /// Connections are being refused at the client limit: said once, until one is served.
    private var atClientLimit = false
    private var acceptTimer: (any LoopTimer)?
    /// Clients whose queues a publish filled since the last flush, and the list being flushed
    /// (swapped, so neither allocates once grown).
    var clientsToFlush: [ClientSession] = []
    var clientsFlushing: [ClientSession] = []
    var flushScheduled = false
    private var flushWork: (() -> Void)?
    /// Parses long lines off the loop; started with the first one.
    private var worker: WorkerThread?
    private var workerFailed = false

    public init(loop: EventLoop, clock: any LoopClock, listener: ListeningSocket, policy: ControlPolicy,
                options: Options, logger: Logger) {
        (self.loop, self.clock, self.listener, self.policy, self.options, self.logger) =
            (loop, clock, listener, policy, options, logger)
        clientLimit = options.maxClients
    }

    /// Starts accepting clients, as many as ``Options/maxClients`` and `RLIMIT_NOFILE` allow.
    public func start() throws(SystemError) {
        lingerTimer = try clock.makeTimer { [unowned self] in self.closeLingering() }
        acceptTimer = try clock.makeTimer { [unowned self] in self.resumeAccepting() }
        serviceWork = { [unowned self] in self.serveRequests() }
        flushWork = { [unowned self] in self.flushPublished() }
        let descriptors = try ResourceLimits.openFiles().soft
        clientLimit = max(1, min(options.maxClients, descriptors - ServerLimits.reservedDescriptors))
        if clientLimit < options.maxClients {
            logger.notice("serving fewer clients at once than the default: the descriptor limit is low", metadata: [
                "clients": "\(clientLimit)", "RLIMIT_NOFILE": "\(descriptors)",
                "reserved": "\(ServerLimits.reservedDescriptors)",
            ])
        }
        do {
            reserve = try FileDescriptor.open(path: "/dev/null", .readOnly)
        } catch {
            logger.warning("cannot hold a descriptor in reserve; when descriptors run out, accepting pauses instead",
                           metadata: ["error": "\(error)"])
        }
        listening = true
        listenToken = try loop.watch(listener.descriptor) { [unowned self] _ in self.acceptClients() }
        for name in policy.unresolved {
            logger.warning("a name allowed to control gestured does not exist on this system; check socket.controlUsers and socket.controlGroup",
                           metadata: ["name": "\(name)"])
        }
    }

    /// Connected clients, subscribed or not.
    public var clientCount: Int { clients.count }

    /// Clients that subscribed and are not being closed.
    public private(set) var subscriberCount = 0
    /// Subscribers that asked for traces: kept as clients change state, so that dropping a
    /// crowd of clients costs each drop a count, not a pass over every client.
    private var tracingSubscribers = 0
    /// Subscribers that asked for contacts, kept as ``tracingSubscribers`` is.
    private var contactsSubscribers = 0

    /// Moves `client` to `state` (`nil`: removed), keeping the counts of subscribers.
    func setState(_ client: ClientSession, _ state: ClientSession.State?) {
        if let old = client.subscription {
            subscriberCount -= 1
            if old.trace { tracingSubscribers -= 1 }
            if old.contacts { contactsSubscribers -= 1 }
        }
        guard let state else { return }
        client.state = state
        if let new = client.subscription {
            subscriberCount += 1
            if new.trace { tracingSubscribers += 1 }
            if new.contacts { contactsSubscribers += 1 }
        }
    }

    // MARK: Shutting down

    /// Stops accepting, tells every client why (`bye`), writes what is queued within the
    /// linger time and closes; then tells the owner (``ServerChange/closed``). A client whose
    /// request is on the worker thread (a long line, a layout being prepared) gets its answer
    /// first, then `bye`: a request that came before the stop is answered (within the linger
    /// time; after it, `bye` alone).
    public func shutdown(reason: String, message: String) {
        guard !shuttingDown else { return }
        shuttingDown = true
        stopAccepting()
        let bye = ReplyEncoder.encode(.bye(reason: reason, message: message))
        let deadline = clock.now + options.lingerMicroseconds
        for client in Array(clients.values) {
            if client.parsing {
                client.byeAfterAnswer = (bye, deadline)
                if let lingerTimer, lingerTimer.deadline.map({ deadline < $0 }) ?? true { lingerTimer.arm(at: deadline) }
            } else {
                close(client, after: bye)
            }
        }
        finishShutdownIfDone()
    }

    /// After a request that was off the loop: the `bye` it was waiting for, once nothing of the
    /// client is on the worker any more. True when the client is being closed.
    private func sayByeIfAnswered(_ client: ClientSession) -> Bool {
        guard let (bye, _) = client.byeAfterAnswer, !client.parsing else { return false }
        close(client, after: bye)
        return true
    }

    /// Stops accepting new connections and removes the socket file (if this process made it).
    public func stopAccepting() {
        if let listenToken { loop.unwatch(listenToken) }
        listenToken = nil
        listening = false
        acceptTimer?.arm(at: nil)
        listener.close()
        reserve?.closeReleasing()
        reserve = nil
    }

    private func finishShutdownIfDone() {
        guard shuttingDown, clients.isEmpty else { return }
        shuttingDown = false
        owner?.serverChanged(.closed)
    }

    // MARK: Accepting

    private func acceptClients() {
        // The listener is level-triggered: what is left pending wakes the next turn.
        for _ in 0..<ServerLimits.acceptsPerTurn where listenToken != nil {
            let socket: FileDescriptor
            do {
                guard let accepted = try listener.accept() else { return }
                socket = accepted
            } catch {
                acceptFailed(error)
                return
            }
            if acceptFailing {
                acceptFailing = false
                logger.notice("accepting clients again", metadata: ["clients": "\(clients.count)"])
            }
            guard clients.count < clientLimit else {
                if !atClientLimit {
                    atClientLimit = true
                    logger.warning("refusing clients: as many are connected as the limit allows", metadata: [
                        "limit": "\(clientLimit)",
                    ])
                }
                refuse(socket, "gestured serves at most \(clientLimit) clients at once and that many are connected; "
                    + "try again later, or close the connections your programs no longer use")
                continue
            }
            atClientLimit = false
            admit(socket)
        }
    }

    /// accept(2) failed (`EMFILE`, `ENFILE`, `ENOMEM`): say so once for the episode, then give
    /// back the reserve descriptor to accept, tell and close what is pending; if that cannot be
    /// done, stop watching the listener for ``ServerLimits/acceptPauseMicroseconds``. Either
    /// way the level-triggered loop does not come straight back to a listener it cannot serve.
    private func acceptFailed(_ error: SystemError) {
        if !acceptFailing {
            acceptFailing = true
            logger.error("cannot accept clients; refusing new connections until descriptors are free again", metadata: [
                "error": "\(error)", "clients": "\(clients.count)",
            ])
        }
        var cleared = false
        if let spare = reserve {
            spare.closeReleasing()
            reserve = nil
            draining: while true {
                do {
                    guard let pending = try listener.accept() else {
                        cleared = true
                        break draining
                    }
                    refuse(pending, "gestured has no file descriptor left for this connection; try again later")
                } catch {
                    // Even the reserve did not help: another process took the descriptor (ENFILE).
                    break draining
                }
            }
            reserve = try? FileDescriptor.open(path: "/dev/null", .readOnly)
        }
        if !cleared { pauseAccepting() }
    }

    private func pauseAccepting() {
        if let listenToken { loop.unwatch(listenToken) }
        listenToken = nil
        acceptTimer?.arm(at: clock.now + ServerLimits.acceptPauseMicroseconds)
    }

    private func resumeAccepting() {
        guard listening, listenToken == nil else { return }
        do {
            listenToken = try loop.watch(listener.descriptor) { [unowned self] _ in self.acceptClients() }
        } catch {
            // Watching needs no new descriptor; if epoll cannot take it now, try again later.
            acceptTimer?.arm(at: clock.now + ServerLimits.acceptPauseMicroseconds)
        }
    }

    /// Tells a connection why it is not served (`bye`, reason `overloaded`) and closes it.
    private func refuse(_ socket: FileDescriptor, _ message: String) {
        counters.refused += 1
        _ = try? socket.sendNonBlocking(ReplyEncoder.encode(.bye(reason: "overloaded", message: message)))
        socket.closeReleasing()
    }

    private func admit(_ socket: FileDescriptor) {
        let serial = nextSerial
        nextSerial += 1
        counters.connections += 1
        if let size = options.socketSendBuffer {
            // Best effort: the kernel's default is only larger.
            try? socket.setSendBufferSize(size)
        }
        let token: EventLoop.Token
        do {
            token = try loop.watch(socket, for: .readable) { [unowned self] readiness in
                self.handle(readiness, of: serial)
            }
        } catch {
            logger.error("cannot watch a client socket", metadata: ["error": "\(error)"])
            socket.closeReleasing()
            return
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
        // With several screens the hello lists them; with one it is as it always was.
        let screens = (owner?.screenIDs.count ?? 1) > 1 ? owner?.inputStatus().screens ?? [] : []
        announce(send(.hello(version: options.version, startID: options.startID, screens: screens, canControl: canControl), to: client))
        if shuttingDown {
            close(client, after: ReplyEncoder.encode(.bye(reason: "stopping", message: "gestured is stopping")))
        }
    }

    // MARK: Reading

    private func handle(_ readiness: EventLoop.Readiness, of serial: Int) {
        guard let client = clients[serial] else { return }
        // Both directions closed, or an error: nothing can reach the client any more.
        if !readiness.isDisjoint(with: .closed) {
            remove(client, why: "the client closed the connection")
            return
        }
        if readiness.contains(.writable) {
            flush(client)
            guard clients[serial] === client else { return }
        }
        if readiness.contains(.readable) || readiness.contains(.readHangUp) {
            readRequests(from: client)
        }
    }

    /// Reads one chunk (at most 64 KiB) and queues the client for its lines to be answered.
    private func readRequests(from client: ClientSession) {
        guard client.readsInput else { return }
        if readTurn != loop.turns {
            readTurn = loop.turns
            bytesReadThisTurn = 0
        }
        // The turn's reading is done: the socket stays readable, and is read in a later turn.
        guard bytesReadThisTurn < ServerLimits.readBytesPerTurn else { return }
        let count: Int?
        do {
            count = try client.socket.readAvailable(into: &readBuffer)
        } catch {
            remove(client, why: "read failed: \(error.reason)")
            return
        }
        guard let count else { return }
        guard count > 0 else {
            // A half-close (socat at the end of its input): answer what it asked; a subscriber
            // keeps its events until `bye` or a failed write.
            client.inputEnded = true
            updateInterest(client)
            awaitService(client)
            return
        }
        bytesReadThisTurn += count
        // A closing client's requests are not answered any more: its bytes are dropped.
        guard !client.isClosing else { return }
        client.framer.append(readBuffer[0..<count])
        bufferedRequestBytes += count
        enforceRequestBudget()
        guard clients[client.serial] === client, !client.isClosing else { return }
        awaitService(client)
    }

    /// Over the budget of unfinished request lines: closes the client holding the most
    /// (`overloaded`) until under it again.
    private func enforceRequestBudget() {
        while bufferedRequestBytes > options.requestBufferBudget {
            var largest: ClientSession?
            for client in clients.values where !client.isClosing
                && client.framer.bufferedCount > (largest?.framer.bufferedCount ?? 0) {
                largest = client
            }
            guard let largest else { return }
            counters.errorReplies += 1
            logger.warning("closing the client with the most unfinished request bytes: the budget over all clients is spent",
                           metadata: ["client": "\(largest.serial)", "peer": "\(largest.peerDescription)",
                                      "buffered": "\(largest.framer.bufferedCount)",
                                      "budget": "\(options.requestBufferBudget)"])
            let error = ProtocolError(.overloaded, "gestured holds at most \(options.requestBufferBudget) bytes of unfinished "
                + "request lines over all clients and this connection held the most (\(largest.framer.bufferedCount)); "
                + "send each request whole, with its newline, and promptly")
            close(largest, after: ReplyEncoder.encode(.error(error)))
        }
    }

    // MARK: Answering, a few lines per turn

    private func awaitService(_ client: ClientSession) {
        guard !client.awaitingService, !client.parsing else { return }
        client.awaitingService = true
        serviceQueue.append(client.serial)
        scheduleService()
    }

    /// Has the queues that publishing filled written at the end of the turn (at once before
    /// the server started).
    func scheduleFlush() {
        guard !clientsToFlush.isEmpty, !flushScheduled else { return }
        guard let flushWork else { return flushPublished() }
        flushScheduled = true
        loop.runSoon(flushWork)
    }

    private func scheduleService() {
        guard !serviceScheduled, let serviceWork else { return }
        serviceScheduled = true
        loop.runSoon(serviceWork)
    }

    /// After the handlers of a turn: answers the waiting clients' lines in turn, at most
    /// ``Options/requestsPerVisit`` each per visit and ``Options/requestsPerTurn`` lines or
    /// ``Options/requestBytesPerTurn`` bytes in all; the rest waits for the next turn, after
    /// the panel and the other descriptors, and those clients are not read meanwhile.
    private func serveRequests() {
        serviceScheduled = false
        var lines = 0, bytes = 0
        // Each visit answers a line or takes the client out of the queue: this ends.
        while serviceHead < serviceQueue.count, lines < options.requestsPerTurn, bytes < options.requestBytesPerTurn {
            let serial = serviceQueue[serviceHead]
            serviceHead += 1
            guard let client = clients[serial], !client.isClosing else { continue }
            var answered = 0
            var done = false
            while answered < options.requestsPerVisit, lines < options.requestsPerTurn, bytes < options.requestBytesPerTurn,
                  clients[serial] === client, !client.isClosing {
                guard let line = takeLine(from: client) else {
                    done = true
                    break
                }
                answered += 1
                lines += 1
                switch line {
                case .line(let line) where line.count > options.inlineLineLength:
                    if parseOffLoop(line, from: client) { break } // its visit ends: the rest waits for the result
                    bytes += line.count
                    handleLine(line, from: client)
                case .line(let line):
                    bytes += line.count
                    handleLine(line, from: client)
                case .tooLong:
                    lineTooLong(client)
                }
                if client.parsing { break }
            }
            guard clients[serial] === client, !client.isClosing else { continue }
            if client.parsing {
                client.awaitingService = false
                continue
            }
            if done {
                client.awaitingService = false
                if client.inputEnded {
                    // Its last line is answered: one that is not subscribed is closed once its
                    // replies are written.
                    if client.subscription == nil { close(client, after: []) }
                } else if client.readPaused {
                    client.readPaused = false
                    updateInterest(client)
                }
            } else {
                serviceQueue.append(serial)
            }
        }
        // Compact the queue now and then, and stop reading who still waits.
        if serviceHead > 64 && serviceHead * 2 > serviceQueue.count {
            serviceQueue.removeFirst(serviceHead)
            serviceHead = 0
        }
        for serial in serviceQueue[serviceHead...] {
            guard let client = clients[serial], !client.readPaused, !client.isClosing else { continue }
            client.readPaused = true
            updateInterest(client)
        }
        if serviceHead == serviceQueue.count {
            serviceQueue.removeAll(keepingCapacity: true)
            serviceHead = 0
        } else {
            scheduleService()
        }
    }

    /// Hands a long line to the worker thread and stops reading the client until its answer
    /// is given (``parsedOffLoop(_:serial:bytes:)``): false when no thread can be had, and the
    /// line is read on the loop as before. Clients allowed to control go first, and their
    /// `layout.set` is decoded and validated there too: a layout is not kept waiting behind a
    /// crowd's megabytes, nor does it stall the loop.
    private func parseOffLoop(_ line: ArraySlice<UInt8>, from client: ClientSession) -> Bool {
        guard !workerFailed else { return false }
        let bytes = Array(line)
        let serial = client.serial
        let controls = client.peer.map { policy.allows($0) } ?? false
        let bases = controls ? owner.map { owner in
            owner.screenIDs.indices.map { (id: owner.screenIDs[$0], basis: owner.layoutBasis(screen: $0)) }
        } : nil
        do {
            if worker == nil { worker = try WorkerThread(loop: loop) }
            try worker?.submit(urgent: controls, { ParsedLine(bytes, preparingFor: bases) }) {
                [unowned self] parsed in self.parsedOffLoop(parsed, serial: serial, bytes: bytes.count)
            }
        } catch {
            workerFailed = true
            logger.error("cannot start a thread to read long requests; they are read on the loop", metadata: [
                "error": "\(error)",
            ])
            return false
        }
        bufferedRequestBytes += bytes.count
        client.parsing = true
        client.readPaused = true
        updateInterest(client)
        return true
    }

    /// A long line read on the worker thread: answered now, then the client's next lines
    /// (unless answering it went to the worker in turn).
    private func parsedOffLoop(_ parsed: ParsedLine, serial: Int, bytes: Int) {
        bufferedRequestBytes -= bytes
        guard let client = clients[serial], !client.isClosing else { return }
        client.parsing = false
        handle(parsed, from: client)
        guard clients[serial] === client, !client.isClosing, !sayByeIfAnswered(client), !client.parsing else { return }
        awaitService(client)
    }

    /// Runs `work` on the worker thread, before the lines of clients not allowed to control,
    /// and `completion` with its result on the loop: false, and nothing done, when no thread
    /// can be had.
    func runOffLoop<Value: Sendable>(_ work: @escaping @Sendable () -> Value, completion: @escaping (Value) -> Void) -> Bool {
        guard !workerFailed else { return false }
        do {
            if worker == nil { worker = try WorkerThread(loop: loop) }
            try worker?.submit(urgent: true, work, completion: completion)
            return true
        } catch {
            workerFailed = true
            logger.error("cannot start a thread to read long requests; they are read on the loop", metadata: [
                "error": "\(error)",
            ])
            return false
        }
    }

    /// Stops reading `client` while its request is answered off the loop
    /// (``resumeAfterWork(_:)`` reads it again): its later lines wait, in order.
    func pauseForWork(_ client: ClientSession) {
        client.parsing = true
        client.readPaused = true
        updateInterest(client)
    }

    /// The request of `serial` that went off the loop is answered: its next lines.
    func resumeAfterWork(_ serial: Int) {
        guard let client = clients[serial], !client.isClosing else { return }
        client.parsing = false
        if sayByeIfAnswered(client) { return }
        awaitService(client)
    }

    /// Releases `storage` on the worker thread (an urgent job: what waits there is memory),
    /// taking it over: `storage` is left empty, so the value handed over is the only one
    /// and its last reference goes on that thread. On the loop when no thread can be had.
    public func release(_ storage: inout ReleasedStorage) {
        guard !storage.isEmpty else { return }
        let parcel = ReleaseParcel()
        parcel.storage.withLock { swap(&$0, &storage) }
        guard !workerFailed else { return }
        do {
            if worker == nil { worker = try WorkerThread(loop: loop) }
            try worker?.submit(urgent: true, { parcel.storage.withLock { $0 = ReleasedStorage() } }) { _ in }
        } catch {
            workerFailed = true
            logger.error("cannot start a thread to read long requests; they are read on the loop", metadata: [
                "error": "\(error)",
            ])
        }
    }

    /// Jobs on the worker thread not answered yet (tests wait for them): long lines being
    /// read, layouts being prepared, storage being released.
    public var linesBeingParsed: Int { worker?.pending ?? 0 }

    /// The client's next line, with the budget of buffered bytes kept; at the end of its
    /// input, what follows its last newline.
    private func takeLine(from client: ClientSession) -> LineFramer.Output? {
        let before = client.framer.bufferedCount
        defer { bufferedRequestBytes -= before - client.framer.bufferedCount }
        if let line = client.framer.nextLine() { return line }
        guard client.inputEnded, let last = client.framer.takeUnterminated() else { return nil }
        return .line(last)
    }

    private func lineTooLong(_ client: ClientSession) {
        counters.errorReplies += 1
        logger.warning("closing a client that sent an over-long line", metadata: ["client": "\(client.serial)"])
        let error = ProtocolError(.lineTooLong, "client bug: a request line is longer than \(options.maxLineLength) bytes; "
            + "end every request with a newline and keep it under the limit (send large layouts as compact JSON)")
        close(client, after: ReplyEncoder.encode(.error(error)))
    }

    // MARK: Writing

    /// Queues one of the server's own lines for `client`; it counts against the client's
    /// queue like its events, so a client that asks and never reads is dropped all the same.
    /// Returns the notices of clients dropped on the way, for the owner's stream.
    @discardableResult
    func send(_ reply: Reply, to client: ClientSession) -> [ServerNotice] {
        guard clients[client.serial] === client, !client.isClosing else { return [] }
        let line = ReplyEncoder.encode(reply)
        let wasEmpty = client.output.isEmpty
        guard client.output.append(line, line.indices) else { return [dropSlowConsumer(client)] }
        queuedBytes += line.count
        if wasEmpty { client.lastProgress = clock.now }
        flush(client)
        return enforceOutputBudget()
    }

    /// Marks the connection as closing: no more reading or events, `last` is the final line
    /// (none for a client that ended its input: its replies are its last lines).
    func close(_ client: ClientSession, after last: [UInt8]) {
        guard !client.isClosing else { return }
        // Closed for whatever reason: no `bye` waits for its answer any more.
        client.byeAfterAnswer = nil
        if client.output.isEmpty { client.lastProgress = clock.now }
        client.output.appendLast(last)
        queuedBytes += last.count
        bufferedRequestBytes -= client.framer.bufferedCount
        client.framer.reset()
        let deadline = clock.now + options.lingerMicroseconds
        setState(client, .closing(deadline: deadline))
        subscriptionsChanged()
        if let lingerTimer, lingerTimer.deadline.map({ deadline < $0 }) ?? true { lingerTimer.arm(at: deadline) }
        updateInterest(client)
        flush(client)
    }

    func flush(_ client: ClientSession) {
        let before = client.output.byteCount
        let result = client.output.write(to: client.socket)
        let written = before - client.output.byteCount
        queuedBytes -= written
        if written > 0 { client.lastProgress = clock.now }
        switch result {
        case .drained:
            if client.isClosing {
                remove(client, why: nil)
                return
            }
            client.wantsWritable = false
        case .wouldBlock:
            client.wantsWritable = true
        case .failed(let error):
            remove(client, why: "write failed: \(error.reason)")
            return
        }
        updateInterest(client)
        if before >= options.lowWater && client.output.byteCount < options.lowWater { owner?.serverChanged(.drained) }
    }

    /// Watches the socket for what the client needs now: reading while it ``ClientSession/readsInput``,
    /// writing while its queue holds what the socket did not take.
    func updateInterest(_ client: ClientSession) {
        guard clients[client.serial] === client else { return }
        var wanted: EventLoop.Readiness = []
        if client.readsInput { wanted.insert(.readable) }
        if client.wantsWritable { wanted.insert(.writable) }
        guard wanted != client.interest else { return }
        do {
            try loop.modify(client.token, interest: wanted)
            client.interest = wanted
        } catch {
            remove(client, why: "cannot watch the socket: \(error)")
        }
    }

    private func closeLingering() {
        let now = clock.now
        var next: Int64?
        for client in Array(clients.values) {
            if let (bye, deadline) = client.byeAfterAnswer {
                // Its answer did not come within the linger time: bye alone.
                if deadline <= now {
                    close(client, after: bye)
                    if case .closing(let lingers) = client.state { next = min(next ?? lingers, lingers) }
                } else {
                    next = min(next ?? deadline, deadline)
                }
                continue
            }
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
        setState(client, nil)
        loop.unwatch(client.token)
        client.socket.closeReleasing()
        queuedBytes -= client.output.byteCount
        bufferedRequestBytes -= client.framer.bufferedCount
        if let why {
            logger.info("client disconnected", metadata: ["client": "\(client.serial)", "reason": "\(why)"])
        } else {
            logger.debug("client closed", metadata: ["client": "\(client.serial)"])
        }
        subscriptionsChanged()
        owner?.serverChanged(.drained)
        finishShutdownIfDone()
    }

    /// Tells the owner when the number of subscribers or the demand for traces or contacts changed.
    func subscriptionsChanged() {
        let count = subscriberCount
        let wanted = tracingSubscribers > 0
        if wanted != tracingWanted {
            tracingWanted = wanted
            owner?.serverChanged(.tracingDemand(wanted))
        }
        if (contactsSubscribers > 0) != contactsWanted {
            contactsWanted = contactsSubscribers > 0
            owner?.serverChanged(.contactsDemand(contactsWanted))
        }
        if count != lastSubscriberCount {
            lastSubscriberCount = count
            owner?.serverChanged(.subscribers(count))
        }
    }
}

@available(*, unavailable, message: "an EventServer lives on its event loop's thread")
extension EventServer: Sendable {}

/// What ``EventServer/release(_:)`` hands to the worker thread: the storage moves in on the
/// loop and is emptied, freed, on the worker.
private final class ReleaseParcel: Sendable {
    let storage = Mutex(ReleasedStorage())
}
