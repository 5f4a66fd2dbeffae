#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureCore
import GestureSystem
import Logging

/// The socket side of the daemon (SPEC 9): accepts clients on a ``ListeningSocket``, reads
/// their requests, and fans the event stream out to subscribers, all on one ``EventLoop``
/// with non-blocking sockets. Every event is encoded once (one `seq` for the whole stream)
/// and shared by the queues of the subscribers it matches. A client that does not keep up
/// fills its bounded queue and is dropped with `slow_consumer`; the input path never waits
/// for a client.
///
/// The engine belongs to the ``delegate`` (the live runner or a socket replay); the server
/// calls it for `layout.set`, `view.update`, `hitTest`, `status` and `reload`.
public final class EventServer {
    /// The protocol named in `hello`.
    public static let protocolName = "gestured/1"

    /// Limits and switches.
    public struct Options: Sendable {
        /// The version named in `hello` and `status`.
        public var version: String
        /// A longer request line is an error and closes the connection (SPEC 9: 1 MiB).
        public var maxLineLength = 1 << 20
        /// Bytes a client may have queued; one more event and it is dropped as a slow consumer.
        /// 1 MiB holds several seconds of a ten-finger pan.
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

    public weak var delegate: EventServerDelegate?
    /// Sends `RELOADING=1`/`READY=1` around a reload when set.
    public var notifier: ServiceNotifier?
    /// The `STATUS=` line after a reload.
    public var statusLine: () -> String = { "serving clients" }
    /// Called when the number of subscribed clients changes (a replay waits for N of them).
    public var onSubscribersChanged: ((Int) -> Void)?
    /// Called when a backlog shrank below the low-water mark or a client left: a replay that
    /// waits for its readers may go on.
    public var onDrain: (() -> Void)?
    /// Called once after ``shutdown(reason:message:)`` when every connection is closed.
    public var onClosed: (() -> Void)?

    public private(set) var options: Options
    public private(set) var counters = Counters()
    public private(set) var policy: ControlPolicy
    public var socketPath: String { listener.path }

    private let loop: EventLoop
    private let listener: ListeningSocket
    private let logger: Logger
    private var listenToken: EventLoop.Token?
    private var clients: [Int: ClientSession] = [:]
    private var nextSerial = 1
    private var encoder = EventEncoder()
    private var lingerTimer: DeadlineTimer?
    private var tracingWanted = false
    private var lastSubscriberCount = 0
    private var shuttingDown = false
    private var pendingWarnings: [String] = []
    private var publishing = false
    private var readBuffer = [UInt8](repeating: 0, count: 1 << 16)

    public init(loop: EventLoop, listener: ListeningSocket, policy: ControlPolicy, options: Options,
                logger: Logger) {
        self.loop = loop
        self.listener = listener
        self.policy = policy
        self.options = options
        self.logger = logger
    }

    /// Starts accepting clients.
    public func start() throws(SystemError) {
        lingerTimer = try DeadlineTimer(loop: loop) { [unowned self] in self.closeLingering() }
        listenToken = try loop.watch(listener.fd) { [unowned self] _ in self.acceptClients() }
        for name in policy.unresolved {
            logger.warning("a name allowed to control gestured does not exist on this system; check socket.controlUsers and socket.controlGroup",
                           metadata: ["name": "\(name)"])
        }
    }

    /// Connected clients, subscribed or not.
    public var clientCount: Int { clients.count }

    /// Clients that subscribed and are not being closed.
    public var subscriberCount: Int { clients.values.reduce(0) { $0 + ($1.isSubscribed ? 1 : 0) } }

    /// Bytes queued for all clients.
    public var queuedBytes: Int { clients.values.reduce(0) { $0 + $1.output.byteCount } }

    // MARK: Publishing

    /// Sends an event to every subscriber whose filters it matches.
    public func publish(_ event: OutputEvent) {
        publish(CollectionOfOne(event))
    }

    /// Sends events in order to every subscriber whose filters they match, then writes what
    /// the sockets take at once; the rest waits for `.writable`.
    public func publish(_ events: some Sequence<OutputEvent>) {
        publishing = true
        var touched: [ClientSession] = []
        for event in events {
            counters.eventsPublished += 1
            guard !clients.isEmpty else { continue }
            let summary = EventSummary(event)
            var line: [UInt8]?
            for client in clients.values where client.isSubscribed
                && client.subscription!.matches(summary, traceAll: options.traceAll) {
                if line == nil {
                    var bytes: [UInt8] = []
                    encoder.encode(event, into: &bytes)
                    line = bytes
                }
                if client.output.isEmpty { touched.append(client) }
                enqueue(line!, to: client)
            }
        }
        publishing = false
        for client in touched where clients[client.serial] != nil { flush(client) }
        publishPendingWarnings()
    }

    private func publishPendingWarnings() {
        guard !pendingWarnings.isEmpty, !publishing else { return }
        let time = Timestamp(microseconds: delegate?.inputStatus().time ?? 0)
        let warnings = pendingWarnings.map { OutputEvent.warning(time: time, message: $0) }
        pendingWarnings.removeAll()
        publish(warnings)
    }

    private func enqueue(_ line: [UInt8], to client: ClientSession) {
        guard !client.isClosing else { return }
        if client.output.byteCount + line.count > options.queueLimit {
            dropSlowConsumer(client)
            return
        }
        if client.output.isEmpty { client.lastProgress = MonotonicClock.microseconds() }
        client.output.append(line)
    }

    private func dropSlowConsumer(_ client: ClientSession) {
        counters.slowConsumers += 1
        logger.warning("dropping a client that does not read its events fast enough", metadata: [
            "client": "\(client.serial)", "peer": "\(client.peer.map(\.description) ?? "unknown")",
            "queued": "\(client.output.byteCount)", "limit": "\(options.queueLimit)",
        ])
        client.output.dropUnstarted()
        let message = "client bug: this connection did not read its events fast enough and more than "
            + "\(options.queueLimit) bytes were waiting; read continuously (a thread or an event loop of its own) and reconnect"
        close(client, after: ReplyEncoder.error(ProtocolError(.slowConsumer, message)))
        pendingWarnings.append("dropped client \(client.serial) (\(client.peer.map(\.description) ?? "unknown peer")): "
            + "it did not read its events fast enough")
    }

    // MARK: Back-pressure for replays

    /// Whether a replay in virtual time should wait for its readers: some subscriber has at
    /// least the low-water mark queued and took bytes within the last `stallMicroseconds`.
    /// A subscriber that took nothing for that long no longer holds the replay back, and is
    /// dropped when its queue overflows. `recheckAt` is when the answer changes by itself.
    public func holdsBack(now: Int64, stallMicroseconds: Int64) -> (held: Bool, recheckAt: Int64?) {
        var recheck: Int64?
        for client in clients.values where client.isSubscribed && client.output.byteCount >= options.lowWater {
            let stallsAt = client.lastProgress + stallMicroseconds
            if stallsAt > now { recheck = min(recheck ?? stallsAt, stallsAt) }
        }
        return (recheck != nil, recheck)
    }

    // MARK: Shutting down

    /// Stops accepting, tells every client why (`bye`), writes what is queued within the
    /// linger time and closes; then calls ``onClosed``.
    public func shutdown(reason: String, message: String) {
        guard !shuttingDown else { return }
        shuttingDown = true
        stopAccepting()
        let bye = ReplyEncoder.bye(reason: reason, message: message)
        for client in Array(clients.values) where !client.isClosing {
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
        guard shuttingDown, clients.isEmpty, let onClosed else { return }
        self.onClosed = nil
        onClosed()
    }

    // MARK: Reload

    /// Re-reads the configuration through the delegate (SIGHUP, or a `reload` request),
    /// telling the service manager; an invalid configuration is logged and the running one kept.
    @discardableResult
    public func reload(origin: String) -> Result<ReloadReport, ConfigurationError>? {
        guard let delegate else { return nil }
        notifier?.reloading()
        let result = delegate.reload()
        switch result {
        case .success(let report):
            policy = ControlPolicy(socket: report.socket)
            logger.info("configuration reloaded", metadata: [
                "origin": "\(origin)", "revision": "\(report.revision)", "layoutChanged": "\(report.layoutChanged)",
            ])
            for note in report.needsRestart {
                logger.notice("a configuration change takes effect only after a restart", metadata: ["change": "\(note)"])
            }
        case .failure(let error):
            logger.error("the new configuration is invalid; the running one is kept", metadata: [
                "origin": "\(origin)", "problems": "\(error.description)",
            ])
        }
        notifier?.ready(status: statusLine())
        return result
    }

    // MARK: Connections

    private func acceptClients() {
        while true {
            let fd: Int32
            do {
                guard let accepted = try listener.accept() else { return }
                fd = accepted
            } catch {
                // EMFILE and friends: say so once per wake-up; the connection stays pending.
                logger.error("cannot accept a client", metadata: ["error": "\(error)"])
                return
            }
            let peer = try? PeerCredentials.of(fd)
            let client = ClientSession(serial: nextSerial, fd: fd, peer: peer)
            nextSerial += 1
            counters.connections += 1
            do {
                client.token = try loop.watch(fd, for: .readable) { [unowned self, unowned client] readiness in
                    self.handle(readiness, of: client)
                }
            } catch {
                logger.error("cannot watch a client socket", metadata: ["error": "\(error)"])
                Glibc.close(fd)
                continue
            }
            clients[client.serial] = client
            let canControl = peer.map(policy.allows) ?? false
            logger.info("client connected", metadata: [
                "client": "\(client.serial)", "peer": "\(peer.map(\.description) ?? "unknown")", "control": "\(canControl)",
            ])
            send(ReplyEncoder.hello(version: options.version, canControl: canControl), to: client)
            if shuttingDown {
                close(client, after: ReplyEncoder.bye(reason: "stopping", message: "gestured is stopping"))
            }
        }
    }

    private func handle(_ readiness: EventLoop.Readiness, of client: ClientSession) {
        if readiness.contains(.writable) {
            flush(client)
            guard clients[client.serial] != nil else { return }
        }
        if readiness.contains(.readable) || !readiness.isDisjoint(with: .hangUp) {
            readRequests(from: client)
        }
    }

    private func readRequests(from client: ClientSession) {
        let count = readBuffer.withUnsafeMutableBytes { read(client.fd, $0.baseAddress, $0.count) }
        if count < 0 {
            if errno == EAGAIN || errno == EINTR { return }
            remove(client, why: "read failed: \(String(cString: strerror(errno)))")
            return
        }
        if count == 0 {
            remove(client, why: "the client closed the connection")
            return
        }
        // A closing connection's requests are not answered any more.
        guard !client.isClosing else { return }
        client.input.append(contentsOf: readBuffer[0..<count])
        var start = 0
        while let newline = client.input[(start + client.scanned)...].firstIndex(of: 0x0A) {
            let line = client.input[start..<newline]
            start = newline + 1
            client.scanned = 0
            if line.count > options.maxLineLength {
                lineTooLong(client)
                return
            }
            handleLine(line, from: client)
            if client.isClosing || clients[client.serial] == nil { return }
        }
        client.input.removeFirst(start)
        client.scanned = client.input.count
        if client.input.count > options.maxLineLength { lineTooLong(client) }
    }

    private func lineTooLong(_ client: ClientSession) {
        counters.errorReplies += 1
        client.input = []
        logger.warning("closing a client that sent an over-long line", metadata: ["client": "\(client.serial)"])
        let error = ProtocolError(.lineTooLong, "client bug: a request line is longer than \(options.maxLineLength) bytes; "
            + "end every request with a newline and keep it under the limit (send large layouts as compact JSON)")
        close(client, after: ReplyEncoder.error(error))
    }

    /// Queues `line` regardless of the limit (replies are few and the client asked for them).
    private func send(_ line: [UInt8], to client: ClientSession) {
        guard !client.isClosing else { return }
        if client.output.isEmpty { client.lastProgress = MonotonicClock.microseconds() }
        client.output.append(line)
        flush(client)
    }

    /// Marks the connection as closing: no more reading or events, `last` is the final line.
    private func close(_ client: ClientSession, after last: [UInt8]) {
        guard !client.isClosing else { return }
        if client.output.isEmpty { client.lastProgress = MonotonicClock.microseconds() }
        client.output.append(last)
        let deadline = MonotonicClock.microseconds() + options.lingerMicroseconds
        client.closingDeadline = deadline
        subscriptionsChanged()
        if lingerTimer?.deadline == nil || deadline < lingerTimer!.deadline! { lingerTimer?.arm(at: deadline) }
        flush(client)
    }

    private func flush(_ client: ClientSession) {
        let before = client.output.byteCount
        let result = client.output.write(to: client.fd)
        if client.output.byteCount < before { client.lastProgress = MonotonicClock.microseconds() }
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
            remove(client, why: "write failed: \(String(cString: strerror(error)))")
            return
        }
        if before >= options.lowWater && client.output.byteCount < options.lowWater { onDrain?() }
    }

    private func setWritableInterest(_ client: ClientSession, _ wanted: Bool) {
        guard client.watchesWritable != wanted, let token = client.token else { return }
        client.watchesWritable = wanted
        try? loop.modify(token, interest: wanted ? [.readable, .writable] : .readable)
    }

    private func closeLingering() {
        let now = MonotonicClock.microseconds()
        var next: Int64?
        for client in Array(clients.values) {
            guard let deadline = client.closingDeadline else { continue }
            if deadline <= now {
                remove(client, why: "it did not take its last lines within the linger time")
            } else {
                next = min(next ?? deadline, deadline)
            }
        }
        lingerTimer?.arm(at: next)
    }

    private func remove(_ client: ClientSession, why: String?) {
        guard clients.removeValue(forKey: client.serial) != nil else { return }
        if let token = client.token { loop.unwatch(token) }
        client.token = nil
        Glibc.close(client.fd)
        if let why {
            logger.info("client disconnected", metadata: ["client": "\(client.serial)", "reason": "\(why)"])
        } else {
            logger.debug("client closed", metadata: ["client": "\(client.serial)"])
        }
        subscriptionsChanged()
        onDrain?()
        finishShutdownIfDone()
    }

    private func subscriptionsChanged() {
        let count = subscriberCount
        let wanted = clients.values.contains { $0.isSubscribed && $0.subscription!.trace }
        if wanted != tracingWanted {
            tracingWanted = wanted
            delegate?.tracingDemandChanged(wanted)
        }
        if count != lastSubscriberCount {
            lastSubscriberCount = count
            onSubscribersChanged?(count)
        }
    }

    // MARK: Requests

    private func handleLine(_ line: ArraySlice<UInt8>, from client: ClientSession) {
        var line = line
        while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line.removeLast() }
        guard line.contains(where: { $0 != 0x20 && $0 != 0x09 }) else { return }
        counters.requests += 1
        do throws(ProtocolError) {
            let (id, request) = try Request.parse(line)
            if request.changesLayout, !(client.peer.map(policy.allows) ?? false) {
                throw ProtocolError(.forbidden, forbiddenMessage(request, client), requestID: id)
            }
            send(try answer(request, id: id, from: client), to: client)
            // After the reply, so a replay that a subscription starts sends its first event
            // after the client learnt it is subscribed.
            subscriptionsChanged()
        } catch {
            counters.errorReplies += 1
            logger.debug("request refused", metadata: ["client": "\(client.serial)", "code": "\(error.code.rawValue)",
                                                       "message": "\(error.message)"])
            send(ReplyEncoder.error(error), to: client)
        }
    }

    private func forbiddenMessage(_ request: Request, _ client: ClientSession) -> String {
        let who = client.peer.map { "uid \($0.uid), gid \($0.gid)" } ?? "an unknown peer"
        return "this connection (\(who)) may not change the layout; run the client as root, as a user in "
            + "socket.controlUsers or as a member of socket.controlGroup in gestured's configuration"
    }

    private func answer(_ request: Request, id: RequestID?, from client: ClientSession) throws(ProtocolError) -> [UInt8] {
        var reply = ReplyEncoder.reply(to: id)
        switch request {
        case .subscribe(let subscription):
            client.subscription = subscription
            logger.debug("client subscribed", metadata: ["client": "\(client.serial)"])
            reply.writer.key("subscription")
            reply.writer.beginObject()
            reply.writer.key("kinds")
            if let kinds = subscription.kinds { strings(kinds.sorted(), into: &reply.writer) } else { reply.writer.null() }
            reply.writer.key("views")
            if let views = subscription.views { strings(views.map(\.pattern), into: &reply.writer) } else { reply.writer.null() }
            reply.writer.key("recognizers")
            if let recognizers = subscription.recognizers {
                strings(recognizers.map(\.pattern), into: &reply.writer)
            } else {
                reply.writer.null()
            }
            reply.writer.key("trace"); reply.writer.bool(subscription.trace || options.traceAll)
            reply.writer.endObject()
        case .unsubscribe:
            client.subscription = nil
        case .layoutSet(let value):
            let delegate = try requireDelegate(id)
            let layout: ViewSpec
            do {
                layout = try ConfigurationLoader.decodeLayout(value, file: "layout.set")
            } catch {
                throw Self.invalidLayout(error, id: id)
            }
            let revision = delegate.replaceLayout(layout, reason: "layout.set by \(client.peer.map(\.description) ?? "a client")")
            reply.writer.key("revision"); reply.writer.int(revision)
        case .viewUpdate(let view, let changes):
            let delegate = try requireDelegate(id)
            let result: ViewSpec?
            do {
                result = try ConfigurationLoader.updateView(view, with: changes, in: delegate.currentLayout, file: "view.update")
            } catch {
                throw Self.invalidLayout(error, id: id)
            }
            guard let updated = result else {
                throw ProtocolError(.unknownView, "the layout has no view \"\(view)\"; send the id of one of its views",
                                    requestID: id)
            }
            let revision = delegate.replaceLayout(updated, reason: "view.update of \(view) by \(client.peer.map(\.description) ?? "a client")")
            reply.writer.key("revision"); reply.writer.int(revision)
        case .hitTest(let x, let y):
            let delegate = try requireDelegate(id)
            let result = delegate.hitTest(Point(x: x, y: y))
            reply.writer.key("x"); reply.writer.number(x)
            reply.writer.key("y"); reply.writer.number(y)
            reply.writer.key("view")
            if let view = result.view { reply.writer.string(result.tree.id(of: view)) } else { reply.writer.null() }
            reply.writer.key("trace")
            strings(result.trace.lines(in: result.tree), into: &reply.writer)
        case .status:
            writeStatus(into: &reply.writer)
        case .reload:
            switch reload(origin: "reload request of \(client.peer.map(\.description) ?? "a client")") {
            case nil:
                throw ProtocolError(.badRequest, "this gestured has no configuration to reload", requestID: id)
            case .success(let report)?:
                reply.writer.key("revision"); reply.writer.int(report.revision)
                reply.writer.key("layoutChanged"); reply.writer.bool(report.layoutChanged)
                reply.writer.key("needsRestart"); strings(report.needsRestart, into: &reply.writer)
            case .failure(let error)?:
                throw ProtocolError(.invalidConfig,
                                    "the configuration has \(Self.count(error.problems.count, "problem")); the running one is kept. "
                                        + error.problems.map(\.description).joined(separator: "; "),
                                    requestID: id, problems: error.layoutProblems.map { ($0.path, $0.message) })
            }
        }
        return reply.finish()
    }

    private func requireDelegate(_ id: RequestID?) throws(ProtocolError) -> EventServerDelegate {
        guard let delegate else {
            throw ProtocolError(.badRequest, "gestured is stopping; try again when it is back", requestID: id)
        }
        return delegate
    }

    private static func invalidLayout(_ error: ConfigurationError, id: RequestID?) -> ProtocolError {
        let problems = error.layoutProblems
        return ProtocolError(.invalidLayout,
                             "the layout has \(count(problems.count, "problem")) and was not applied: "
                                 + problems.map(\.description).joined(separator: "; "),
                             requestID: id, problems: problems.map { ($0.path, $0.message) })
    }

    private static func count(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }

    private func strings(_ values: [String], into writer: inout JSONWriter) {
        writer.beginArray()
        for value in values { writer.string(value) }
        writer.endArray()
    }

    private func writeStatus(into writer: inout JSONWriter) {
        writer.key("protocol"); writer.string(Self.protocolName)
        writer.key("version"); writer.string(options.version)
        writer.key("pid"); writer.int(Int(getpid()))
        if let input = delegate?.inputStatus() {
            writer.key("input"); writer.beginObject()
            writer.key("source"); writer.string(input.source)
            writer.key("device"); if let device = input.device { writer.string(device) } else { writer.null() }
            writer.key("path"); if let path = input.path { writer.string(path) } else { writer.null() }
            writer.key("activeTouches"); writer.int(input.activeTouches)
            writer.key("frames"); writer.int(input.frames)
            writer.key("time"); writer.int(input.time)
            writer.endObject()
            writer.key("layout"); writer.beginObject()
            writer.key("revision"); writer.int(input.layoutRevision)
            writer.endObject()
            writer.key("screen"); writer.beginObject()
            writer.key("width"); writer.number(input.screen.size.width)
            writer.key("height"); writer.number(input.screen.size.height)
            writer.key("rotation"); writer.int(input.screen.rotation.degrees)
            writer.endObject()
        }
        writer.key("socket"); writer.string(listener.path)
        writer.key("clients"); writer.beginObject()
        writer.key("connected"); writer.int(clients.count)
        writer.key("subscribed"); writer.int(subscriberCount)
        writer.endObject()
        writer.key("counters"); writer.beginObject()
        writer.key("connections"); writer.int(counters.connections)
        writer.key("events"); writer.int(counters.eventsPublished)
        writer.key("requests"); writer.int(counters.requests)
        writer.key("errors"); writer.int(counters.errorReplies)
        writer.key("slowConsumers"); writer.int(counters.slowConsumers)
        writer.endObject()
    }
}
