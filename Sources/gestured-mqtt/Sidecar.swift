#if canImport(Glibc)
import Glibc
#endif
import CMosquitto
import FleetBridge
import GestureConfig
import GestureServer
import GestureSystem
import Logging
import SystemPackage

/// `gestured-mqtt`'s event loop (docs/fleet.md): gestured's socket and the broker's on one
/// epoll loop on one thread, a one-second tick for libmosquitto's keep-alive, retries, health
/// and the metrics file. The daemon's lines are read as soon as they come and turned into
/// messages in the bounded queue; the broker takes them at its pace.
final class Sidecar {
    private let settings: FleetSettings
    private let socketPath: String
    private let logger: Logger
    private let loop: EventLoop
    private let client: MosquittoClient
    private var tracker: FleetTracker
    private var queue: OutboundQueue
    /// Retained state (availability, layout, health, discovery) for the broker, sent before the
    /// queue's events and made again at each connection rather than queued through an outage.
    private var stateMessages: [OutboundMessage] = []
    private var discovery: [OutboundMessage]
    /// ``discovery``'s topics: a retained configuration of this kiosk outside them is removed.
    private var discoveryTopics: Set<String>
    private let version: String

    // The broker.
    private enum BrokerState { case waiting(until: Int64), connecting, connected }
    private var broker: BrokerState = .waiting(until: 0)
    private var brokerToken: EventLoop.Token?
    private var brokerFD: Int32 = -1
    private var connectedOnce = false
    private var backoff = FleetLimits.reconnectInitialMicroseconds
    private var inFlight = 0
    private var published: UInt64 = 0
    private var attempts: UInt64 = 0
    /// The last failure logged and how many identical ones followed it unlogged.
    private var lastFailure: String?
    private var failuresSinceLogged = 0

    // The daemon.
    private var daemon: DaemonConnection?
    private var daemonToken: EventLoop.Token?
    private var daemonRetryAt: Int64 = 0
    private var daemonFailure: String?
    private enum Pending { case status, subscribe, command(type: String, id: [UInt8]) }
    private var pending: [Pending] = []
    private var pendingCommands = 0

    private var nextHealth: Int64 = 0
    private var nextMetrics: Int64 = 0
    private var metricsFailure: String?
    private let notifier: ServiceNotifier
    private var stopping = false

    init(settings: FleetSettings, socketPath: String, discoveryViews: [Discovery.ViewEvents], client: MosquittoClient,
         logger: Logger, version: String) throws(SystemError) {
        self.settings = settings
        self.socketPath = socketPath
        self.logger = logger
        self.client = client
        self.version = version
        loop = try EventLoop()
        let now = MonotonicClock.microseconds()
        tracker = FleetTracker(settings: settings, startedAt: now)
        queue = OutboundQueue(limit: settings.queueLimit)
        discovery = Discovery.messages(for: discoveryViews, settings: settings, version: version)
        discoveryTopics = Set(discovery.map(\.topic))
        notifier = ServiceNotifier()
        nextHealth = now + Int64(settings.healthInterval) * 1_000_000
        nextMetrics = now
        client.onConnect = { [unowned self] code in connected(code) }
        client.onDisconnect = { [unowned self] code in brokerLost("the broker closed the connection: "
                                                                    + MosquittoClient.describe(code)) }
        client.onPublish = { [unowned self] _ in inFlight = max(0, inFlight - 1) }
        client.onMessage = { [unowned self] topic, payload, retained in message(topic: topic, payload: payload,
                                                                                   retained: retained) }
    }

    /// New discovery (SIGHUP re-read the configuration's layout): sent at once when connected,
    /// and the kiosk's discovery topics subscribed to again, which makes the broker send their
    /// retained configurations again (MQTT 3.1.1, 3.8.4): those of views that left the layout
    /// are removed as they come (``message(topic:payload:retained:)``).
    func replaceDiscovery(_ views: [Discovery.ViewEvents]) {
        discovery = Discovery.messages(for: views, settings: settings, version: version)
        discoveryTopics = Set(discovery.map(\.topic))
        guard case .connected = broker else { return }
        stateMessages += discovery
        subscribeToOwnDiscovery()
        pump()
    }

    private func subscribeToOwnDiscovery() {
        for filter in Discovery.ownedFilters(settings: settings) { _ = client.subscribe(filter, qos: 1) }
    }

    func run(stopSignals: [Int32], reloadSignal: Int32, reload: @escaping () -> [Discovery.ViewEvents]?) throws(SystemError) {
        try loop.handleSignals(stopSignals + [reloadSignal]) { [unowned self] signal in
            if signal == reloadSignal {
                if let views = reload() { replaceDiscovery(views) }
            } else {
                stop()
            }
        }
        notifier.ready(status: "publishing gestured on \(settings.prefix)/\(settings.node)")
        tick()
        try loop.run()
    }

    private func stop() {
        stopping = true
        logger.info("stopping", metadata: ["queued": "\(queue.count)"])
        if case .connected = broker {
            // A clean disconnect does not trigger the last will: say offline ourselves.
            _ = client.publish(tracker.availability(false))
            _ = client.write()
            _ = client.disconnect()
            _ = client.write()
        }
        writeMetrics()
        loop.stop()
    }

    // MARK: The tick

    private func tick() {
        let now = MonotonicClock.microseconds()
        if case .waiting(let until) = broker, now >= until { connectBroker(now: now) }
        if daemon == nil, now >= daemonRetryAt { connectDaemon(now: now) }
        if brokerToken != nil {
            let code = client.misc()
            syncBrokerSocket()
            if code != MOSQ_ERR_SUCCESS.rawValue, code != MOSQ_ERR_NO_CONN.rawValue, case .connected = broker {
                brokerLost(MosquittoClient.describe(code))
            }
        }
        if now >= nextHealth {
            nextHealth = now + Int64(settings.healthInterval) * 1_000_000
            // With the daemon, health follows its status reply (its counters); without, now.
            if daemon != nil {
                request(.status, Array("{\"type\":\"status\",\"id\":\"gestured-mqtt status\"}\n".utf8))
            } else {
                publishHealth(now: now)
            }
        }
        if settings.metricsDirectory != nil, now >= nextMetrics {
            nextMetrics = now + Int64(settings.metricsInterval) * 1_000_000
            writeMetrics()
        }
        if notifier.watchdogMicroseconds != nil { notifier.watchdog() }
        pump()
        loop.setDeadline(now + 1_000_000) { [unowned self] in tick() }
    }

    private func publishHealth(now: Int64) {
        let health = tracker.health(now: now, queueDropped: queue.dropped, reconnects: attempts > 0 ? attempts - 1 : 0)
        if case .connected = broker { stateMessages.append(health) }
    }

    private func writeMetrics() {
        guard let directory = settings.metricsDirectory else { return }
        let connected: Bool
        if case .connected = broker { connected = true } else { connected = false }
        let figures = MetricsText.SidecarFigures(queueLength: queue.count, queueDropped: queue.dropped,
                                                 published: published, brokerConnected: connected,
                                                 brokerReconnects: attempts > 0 ? attempts - 1 : 0)
        let failure = TextfileWriter.write(MetricsText.render(tracker, figures), directory: directory)
        if let failure, failure != metricsFailure {
            logger.warning("the metrics file was not written", metadata: ["reason": "\(failure)"])
        }
        metricsFailure = failure
    }

    // MARK: The broker

    private func connectBroker(now: Int64) {
        attempts += 1
        client.clearLastError()
        let code = client.connect(settings.broker, keepalive: settings.keepalive, first: !connectedOnce)
        connectedOnce = true
        guard code == MOSQ_ERR_SUCCESS.rawValue else {
            brokerFailed(MosquittoClient.describe(code), now: now)
            return
        }
        broker = .connecting
        syncBrokerSocket()
    }

    /// Watches libmosquitto's socket, which changes with each connection; called after every
    /// libmosquitto call, before any other descriptor is opened, so a number it closed and the
    /// kernel reused is never mistaken for the old socket.
    private func syncBrokerSocket() {
        // While waiting to retry, a socket libmosquitto still holds (a refused connection the
        // broker has not closed yet) is not watched: the retry closes it.
        var fd = client.socket
        if case .waiting = broker { fd = -1 }
        if fd != brokerFD {
            if let brokerToken { loop.unwatch(brokerToken) }
            brokerToken = nil
            brokerFD = fd
            if fd >= 0 {
                brokerToken = try? loop.watch(FileDescriptor(rawValue: fd), for: interest()) { [unowned self] ready in
                    brokerReady(ready)
                }
            }
        } else if let brokerToken {
            try? loop.modify(brokerToken, interest: interest())
        }
    }

    private func interest() -> EventLoop.Readiness {
        client.wantsWrite ? [.readable, .writable] : .readable
    }

    private func brokerReady(_ ready: EventLoop.Readiness) {
        if !ready.intersection([.readable, .hangUp]).isEmpty {
            let code = client.read()
            syncBrokerSocket()
            if code != MOSQ_ERR_SUCCESS.rawValue { brokerLost(MosquittoClient.describe(code)); return }
        }
        if ready.contains(.writable) || client.wantsWrite {
            let code = client.write()
            syncBrokerSocket()
            if code != MOSQ_ERR_SUCCESS.rawValue { brokerLost(MosquittoClient.describe(code)); return }
        }
        pump()
    }

    private func connected(_ code: Int32) {
        guard code == 0 else {
            brokerLost("the broker refused the connection: \(MosquittoClient.describeConnack(code))"
                       + (code == 4 || code == 5 ? " (check the mqtt-username and mqtt-password credentials)" : ""))
            return
        }
        broker = .connected
        backoff = FleetLimits.reconnectInitialMicroseconds
        inFlight = 0
        logger.info("connected to the broker", metadata: ["failedAttempts": "\(failuresSinceLogged + (lastFailure == nil ? 0 : 1))"])
        lastFailure = nil
        failuresSinceLogged = 0
        if settings.commandsEnabled { _ = client.subscribe(tracker.topics.command, qos: 1) }
        if let prefix = settings.discoveryPrefix { _ = client.subscribe("\(prefix)/status", qos: 1) }
        subscribeToOwnDiscovery()
        let now = MonotonicClock.microseconds()
        stateMessages = [tracker.availability(true), tracker.layout(),
                         tracker.health(now: now, queueDropped: queue.dropped, reconnects: attempts - 1)] + discovery
    }

    /// The connection failed or ended: log it (once per distinct reason), retry after the back-off.
    private func brokerLost(_ reason: String) {
        guard !stopping else { return }
        if case .waiting = broker { return }
        brokerFailed(reason, now: MonotonicClock.microseconds())
    }

    private func brokerFailed(_ reason: String, now: Int64) {
        var sentence = reason
        if let detail = client.lastError, !sentence.contains(detail) { sentence += " (libmosquitto: \(detail))" }
        if sentence != lastFailure {
            logger.error("cannot publish to the MQTT broker", metadata: ["broker": "\(settings.broker)",
                                                                         "reason": "\(sentence)",
                                                                         "retryInSeconds": "\(backoff / 1_000_000)"])
            lastFailure = sentence
            failuresSinceLogged = 0
        } else {
            failuresSinceLogged += 1
        }
        broker = .waiting(until: now + backoff)
        backoff = min(backoff * 2, FleetLimits.reconnectMaximumMicroseconds)
        if let brokerToken { loop.unwatch(brokerToken) }
        brokerToken = nil
        brokerFD = -1
    }

    /// Hands messages to libmosquitto while fewer than ``FleetLimits/inFlightLimit`` are
    /// unsent or unacknowledged: state first, then the queue's events, oldest first.
    private func pump() {
        guard case .connected = broker else { return }
        while inFlight < FleetLimits.inFlightLimit {
            let message: OutboundMessage
            if !stateMessages.isEmpty {
                message = stateMessages.removeFirst()
            } else if let next = queue.pop() {
                message = next
            } else {
                break
            }
            switch client.publish(message) {
            case .success:
                inFlight += 1
                published += 1
            case .failure(let code):
                logger.warning("a message was not published", metadata: ["topic": "\(message.topic)",
                                                                         "reason": "\(code)"])
            }
        }
        syncBrokerSocket()
    }

    private func enqueue(_ messages: [OutboundMessage]) {
        for message in messages {
            if message.retain {
                // State replaces state: while connected it goes out next; otherwise the
                // connection sends the state of that moment.
                if case .connected = broker { stateMessages.append(message) }
            } else {
                queue.push(message)
            }
        }
    }

    private func message(topic: String, payload: [UInt8], retained: Bool) {
        if let prefix = settings.discoveryPrefix, topic == "\(prefix)/status" {
            if payload == Array("online".utf8) {
                logger.info("Home Assistant announced itself: discovery sent again")
                stateMessages += discovery
                pump()
            }
            return
        }
        if Discovery.isOwned(topic, settings: settings) {
            // A view that left the layout (this run's or an earlier run's): its entity goes.
            if let removal = Discovery.removal(topic: topic, payload: payload, current: discoveryTopics, settings: settings) {
                logger.info("a discovery configuration of a view no longer in the layout is removed", metadata: ["topic": "\(topic)"])
                stateMessages.append(removal)
                pump()
            }
            return
        }
        guard topic == tracker.topics.command else { return }
        // A retained command would run again at every connection: refused.
        if retained {
            answerCommand(id: nil, type: nil, code: "bad_command", message: "retained commands are not executed")
            return
        }
        switch FleetCommand.parse(payload) {
        case .failure(let problem):
            tracker.commandRejected()
            logger.warning("a command from MQTT was refused", metadata: ["reason": "\(problem.message)"])
            answerCommand(id: nil, type: nil, code: "bad_command", message: problem.message)
        case .success(let command):
            guard daemon != nil else {
                answerCommand(id: command.id, type: command.type, code: "unavailable",
                              message: "gestured-mqtt is not connected to gestured's socket (\(socketPath))")
                return
            }
            guard pendingCommands < FleetLimits.pendingCommandLimit else {
                answerCommand(id: command.id, type: command.type, code: "busy",
                              message: "\(FleetLimits.pendingCommandLimit) commands are waiting for the daemon already")
                return
            }
            pendingCommands += 1
            request(.command(type: command.type, id: command.id), command.line)
        }
        pump()
    }

    private func answerCommand(id: [UInt8]?, type: String?, code: String, message: String) {
        var error = JSONText()
        error.string("code", code)
        error.string("message", message)
        var text = JSONText()
        text.raw("re", id ?? Array("null".utf8))
        text.optionalString("command", type)
        text.bool("ok", false)
        text.object("error", error)
        queue.push(OutboundMessage(topic: tracker.topics.commandResult, payload: text.finished, qos: 1, retain: false))
    }

    // MARK: The daemon

    private func connectDaemon(now: Int64) {
        do {
            let connection = try DaemonConnection(path: socketPath)
            daemon = connection
            daemonToken = try loop.watch(connection.descriptor, for: .readable) { [unowned self] ready in
                daemonReady(ready)
            }
            if daemonFailure != nil { logger.info("connected to gestured's socket again", metadata: ["socket": "\(socketPath)"]) }
            daemonFailure = nil
        } catch {
            daemonRetryAt = now + FleetLimits.daemonRetryMicroseconds
            let reason = "\(error)"
            if reason != daemonFailure {
                logger.warning("cannot connect to gestured's socket; retrying every second",
                               metadata: ["socket": "\(socketPath)", "reason": "\(reason)"])
            }
            daemonFailure = reason
        }
    }

    private func request(_ kind: Pending, _ line: [UInt8]) {
        guard let daemon else { return }
        pending.append(kind)
        daemon.send(line)
        if !daemon.flush() { daemonLost("writing to gestured's socket failed"); return }
        if daemon.wantsWrite, let daemonToken { try? loop.modify(daemonToken, interest: [.readable, .writable]) }
    }

    private func daemonReady(_ ready: EventLoop.Readiness) {
        guard let daemon else { return }
        if ready.contains(.writable) {
            if !daemon.flush() { daemonLost("writing to gestured's socket failed"); return }
            if !daemon.wantsWrite, let daemonToken { try? loop.modify(daemonToken, interest: .readable) }
        }
        guard !ready.intersection([.readable, .hangUp]).isEmpty else { return }
        switch daemon.read() {
        case .closed(let reason):
            daemonLost(reason)
        case .lines(let lines):
            let now = MonotonicClock.microseconds()
            for line in lines { handle(line, now: now) }
            pump()
        }
    }

    private func handle(_ line: DaemonLine, now: Int64) {
        switch line {
        case .hello(_, let startID):
            tracker.daemonConnected(true)
            tracker.hello(startID: startID)
            request(.status, Array("{\"type\":\"status\",\"id\":\"gestured-mqtt status\"}\n".utf8))
            request(.subscribe, subscription())
        case .answer(let ok, let object, let raw):
            guard !pending.isEmpty else {
                logger.warning("daemon bug: an answer to no request", metadata: ["line": "\(String(decoding: raw, as: UTF8.self))"])
                return
            }
            switch pending.removeFirst() {
            case .status:
                if ok { tracker.status(object) }
                enqueue([tracker.layout(), tracker.health(now: now, queueDropped: queue.dropped,
                                                          reconnects: attempts > 0 ? attempts - 1 : 0)])
            case .subscribe:
                if !ok {
                    logger.error("the daemon refused the subscription", metadata: ["reply": "\(String(decoding: raw, as: UTF8.self))"])
                }
            case .command(let type, let id):
                pendingCommands -= 1
                tracker.commandAnswered(type: type, ok: ok)
                if !ok {
                    let error = object.object("error")
                    logger.warning("the daemon refused a command from MQTT",
                                   metadata: ["command": "\(type)", "code": "\(error?.string("code") ?? "?")",
                                              "message": "\(error?.string("message") ?? "")"])
                }
                var text = JSONText()
                text.raw("re", id)
                text.string("command", type)
                text.bool("ok", ok)
                text.raw("reply", raw)
                queue.push(OutboundMessage(topic: tracker.topics.commandResult, payload: text.finished, qos: 1,
                                           retain: false))
            }
        case .event(let type, let object):
            enqueue(tracker.event(type: type, object, now: now))
        case .bye(let reason, let message):
            logger.info("the daemon said goodbye", metadata: ["reason": "\(reason)", "message": "\(message)"])
        case .unreadable(let problem):
            logger.warning("daemon bug: a line that is not an event", metadata: ["problem": "\(problem)"])
        }
    }

    private func subscription() -> [UInt8] {
        var text = JSONText()
        text.string("type", "subscribe")
        text.string("id", "gestured-mqtt")
        text.strings("kinds", ["touches", "gesture", "control", "device", "layout"])
        text.strings("views", settings.views)
        text.strings("recognizers", settings.recognizers)
        return text.finished + [0x0A]
    }

    private func daemonLost(_ reason: String) {
        if let daemonToken { loop.unwatch(daemonToken) }
        daemonToken = nil
        daemon?.close()
        daemon = nil
        // Commands the daemon will never answer now.
        for case .command(let type, let id) in pending {
            answerCommand(id: id, type: type, code: "unavailable", message: "the connection to gestured closed: \(reason)")
        }
        pending.removeAll()
        pendingCommands = 0
        tracker.daemonConnected(false)
        daemonFailure = reason
        logger.warning("lost gestured's socket; retrying every second", metadata: ["socket": "\(socketPath)", "reason": "\(reason)"])
        daemonRetryAt = MonotonicClock.microseconds() + FleetLimits.daemonRetryMicroseconds
        enqueue([tracker.health(now: MonotonicClock.microseconds(), queueDropped: queue.dropped,
                                reconnects: attempts > 0 ? attempts - 1 : 0)])
    }
}
