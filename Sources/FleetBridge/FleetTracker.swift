import GestureConfig

/// What the sidecar knows of its kiosk, and the messages the daemon's lines turn into: the
/// pure middle of `gestured-mqtt` (docs/fleet.md). The daemon's events and status replies go
/// in with the monotonic time they were read; MQTT messages and the figures of the health
/// message and the metrics file come out. No I/O, no clock.
public struct FleetTracker: Sendable {
    /// A gesture series of the metrics: view, recognizer, kind, state.
    public struct GestureKey: Hashable, Sendable, Comparable {
        public var view, recognizer, kind, state: String
        public static func < (a: Self, b: Self) -> Bool {
            (a.view, a.recognizer, a.kind, a.state) < (b.view, b.recognizer, b.kind, b.state)
        }
    }

    /// A control series: view (the control) and event.
    public struct ControlKey: Hashable, Sendable, Comparable {
        public var view, event: String
        public static func < (a: Self, b: Self) -> Bool { (a.view, a.event) < (b.view, b.event) }
    }

    public let settings: FleetSettings
    public let topics: FleetTopics
    /// The daemon's start id from its `hello` (and `status`): with `seq`, an event's id
    /// (``eventID(seq:)``). Random per start, so it tells the daemon's runs apart exactly.
    public private(set) var daemonStartID: String?
    /// The hash of the daemon's layout in force, from `status` and `layout` events.
    public private(set) var layoutHash: String?
    /// `device`, `replay` or `none` (the status' `input.source`): latency is measured live only.
    public private(set) var source: String?
    public private(set) var daemonConnected = false
    public private(set) var deviceName: String?
    /// The last `device` event's action (`added`, `removed`, `resynchronised`), `nil` before one.
    public private(set) var deviceAction: String?
    public private(set) var layoutRevision: Int64?
    public private(set) var layoutMessage: String?
    public private(set) var layoutChanges: UInt64 = 0
    public private(set) var touches: [String: UInt64] = [:]
    public private(set) var gestures: [GestureKey: UInt64] = [:]
    public private(set) var controls: [ControlKey: UInt64] = [:]
    public private(set) var reloads: [String: UInt64] = [:]
    public private(set) var commands: [String: UInt64] = [:]
    /// The daemon's own counters from `status` (`slowConsumers`: clients whose lines it dropped).
    public private(set) var daemonCounters: [String: Int64] = [:]
    public private(set) var latency = LatencyHistogram()
    private var intervalLatency = LatencyHistogram()
    private var touchWindow = MinuteWindow()
    private var gestureWindow = MinuteWindow()
    private var lastTouchAt: Int64?
    private let startedAt: Int64

    public init(settings: FleetSettings, startedAt: Int64) {
        self.settings = settings
        topics = FleetTopics(prefix: settings.prefix, node: settings.node)
        self.startedAt = startedAt
    }

    /// The id of the event numbered `seq` by this run of the daemon, `<startId>-<seq>`: a
    /// subscriber that sees the same id twice (a QoS 1 redelivery) drops the second.
    public func eventID(seq: Int64) -> String { "\(daemonStartID ?? "0")-\(seq)" }

    // MARK: The daemon's side

    public mutating func daemonConnected(_ connected: Bool) {
        daemonConnected = connected
    }

    /// The daemon's `hello`: its start id (a new connection may be to a new run of it).
    public mutating func hello(startID: String?) {
        daemonStartID = startID
    }

    /// A `status` reply (docs/protocol.md): pid, input source, device, layout revision, counters.
    public mutating func status(_ reply: [String: JSONValue]) {
        daemonStartID = reply.string("startId") ?? daemonStartID
        if let input = reply.object("input") {
            source = input.string("source")
            // A sidecar that connects after the panel came has seen no device event: the
            // status says whether the daemon has one (its name, or null while it waits).
            if case .string(let name)? = input["device"] {
                deviceName = name
                if deviceAction == nil || deviceAction == "removed" { deviceAction = "added" }
            } else {
                deviceAction = "removed"
            }
        }
        if let layout = reply.object("layout") {
            if let revision = layout.integer("revision") { layoutRevision = revision }
            layoutHash = layout.string("hash") ?? layoutHash
        }
        if let counters = reply.object("counters") {
            for key in ["connections", "events", "requests", "errors", "slowConsumers"] {
                if let value = counters.integer(key) { daemonCounters[key] = value }
            }
        }
    }

    /// A command's answer: a `reload` counted by its result.
    public mutating func commandAnswered(type: String, ok: Bool) {
        commands[bounded(commands, "\(type) \(ok ? "ok" : "error")"), default: 0] += 1
        if type == "reload" { reloads[ok ? "ok" : "error", default: 0] += 1 }
    }

    /// A command refused by the sidecar before the daemon saw it (not JSON, not a command).
    public mutating func commandRejected() {
        commands["invalid", default: 0] += 1
    }

    /// An event line read at `now` (monotonic µs): the messages to publish.
    public mutating func event(type: String, _ event: [String: JSONValue], now: Int64) -> [OutboundMessage] {
        switch type {
        case "touches":
            guard event.string("phase") == "began", let view = event.string("view") else { return [] }
            var began: UInt32 = 0
            for touch in event.array("touches") ?? [] {
                if case .object(let members) = touch, members.string("phase") == "began" { began += 1 }
            }
            guard began > 0 else { return [] }
            touches[bounded(touches, view), default: 0] += UInt64(began)
            touchWindow.add(began, at: now)
            lastTouchAt = now
            measure(event, now: now)
            return []
        case "gesture":
            guard let view = event.string("view"), let recognizer = event.string("recognizer"),
                  let kind = event.string("kind"), let state = event.string("state") else { return [] }
            let key = GestureKey(view: view, recognizer: recognizer, kind: kind, state: state)
            gestures[bounded(gestures, key), default: 0] += 1
            if state == "recognized" || state == "began" { gestureWindow.add(at: now) }
            measure(event, now: now)
            guard settings.gestureStates.contains(state) else { return [] }
            return [gestureMessage(event, view: view, recognizer: recognizer, kind: kind, state: state)]
        case "control":
            guard let view = event.string("view"), let name = event.string("event") else { return [] }
            controls[bounded(controls, ControlKey(view: view, event: name)), default: 0] += 1
            measure(event, now: now)
            guard settings.controlEvents.contains(name) else { return [] }
            return [controlMessage(event, view: view, name: name)]
        case "device":
            deviceAction = event.string("action") ?? deviceAction
            if let name = event.string("name") { deviceName = name }
            return [health(now: now)]
        case "layout":
            layoutRevision = event.integer("revision") ?? layoutRevision
            layoutHash = event.string("hash") ?? layoutHash
            layoutMessage = event.string("message")
            layoutChanges += 1
            return [layout()]
        default:
            return []
        }
    }

    /// The key to count under: `key` itself while the family has room for a new series, else
    /// the family's overflow series (``FleetLimits/seriesLimit``).
    private func bounded<Key: OverflowKey>(_ family: [Key: UInt64], _ key: Key) -> Key {
        family[key] != nil || family.count < FleetLimits.seriesLimit ? key : Key.overflow
    }

    private mutating func measure(_ event: [String: JSONValue], now: Int64) {
        guard source == "device", let time = event.integer("time") else { return }
        latency.observe(microseconds: now - time)
        intervalLatency.observe(microseconds: now - time)
    }

    // MARK: Messages

    /// The common head of an event's payload: `event_type` (what Home Assistant's event entity
    /// and device triggers read), the event id, and the daemon's `seq` and `time`.
    private func head(_ event: [String: JSONValue], eventType: String) -> JSONText {
        var text = JSONText()
        text.string("event_type", eventType)
        let seq = event.integer("seq") ?? 0
        text.string("eventId", eventID(seq: seq))
        text.int("seq", seq)
        if let time = event.number("time") { text.raw("time", Array(time.literal.utf8)) }
        if let screen = event.string("screen") { text.string("screen", screen) }
        return text
    }

    /// The event type of a gesture: the recognizer's id for a discrete one's `recognized`,
    /// `<recognizer>_<state>` for a continuous one's states.
    public static func eventType(recognizer: String, state: String) -> String {
        state == "recognized" ? recognizer : "\(recognizer)_\(state)"
    }

    private func gestureMessage(_ event: [String: JSONValue], view: String, recognizer: String, kind: String,
                                state: String) -> OutboundMessage {
        var text = head(event, eventType: Self.eventType(recognizer: recognizer, state: state))
        text.string("view", view)
        text.string("recognizer", recognizer)
        text.string("kind", kind)
        text.string("state", state)
        for key in ["x", "y", "taps", "translationX", "translationY", "scale", "rotation"] {
            if let number = event.number(key) { text.raw(key, Array(number.literal.utf8)) }
        }
        if let direction = event.string("direction") { text.string("direction", direction) }
        return OutboundMessage(topic: topics.view(view), payload: text.finished, qos: 1, retain: false)
    }

    private func controlMessage(_ event: [String: JSONValue], view: String, name: String) -> OutboundMessage {
        var text = head(event, eventType: name)
        text.string("view", view)
        text.string("event", name)
        if let touch = event.number("touch") { text.raw("touch", Array(touch.literal.utf8)) }
        return OutboundMessage(topic: topics.view(view), payload: text.finished, qos: 1, retain: false)
    }

    /// `online` or `offline`, retained (the last will is the `offline` one).
    public func availability(_ online: Bool) -> OutboundMessage {
        OutboundMessage(topic: topics.availability, payload: Array((online ? "online" : "offline").utf8), qos: 1,
                        retain: true)
    }

    /// The layout in force, retained: its revision and the daemon's hash of it (null until the
    /// daemon's `status` answered).
    public func layout() -> OutboundMessage {
        var text = JSONText()
        if let layoutRevision { text.int("revision", layoutRevision) } else { text.raw("revision", Array("null".utf8)) }
        text.optionalString("hash", layoutHash)
        text.optionalString("message", layoutMessage)
        return OutboundMessage(topic: topics.layout, payload: text.finished, qos: 1, retain: true)
    }

    /// `ok` (daemon reached, panel present), `no-device` or `daemon-down`.
    public var state: String {
        guard daemonConnected else { return "daemon-down" }
        return deviceAction == nil || deviceAction == "removed" ? "no-device" : "ok"
    }

    /// The health message at `now`, retained; resets the interval's latency figures.
    public mutating func health(now: Int64, queueDropped: UInt64 = 0, reconnects: UInt64 = 0) -> OutboundMessage {
        var text = JSONText()
        text.string("state", state)
        var device = JSONText()
        device.optionalString("name", deviceName)
        device.optionalString("action", deviceAction)
        device.optionalString("source", source)
        text.object("device", device)
        text.int("uptime", (now - startedAt) / 1_000_000)
        text.int("touchesPerMinute", Int64(touchWindow.total(at: now)))
        text.int("gesturesPerMinute", Int64(gestureWindow.total(at: now)))
        if let lastTouchAt { text.int("lastTouchSecondsAgo", (now - lastTouchAt) / 1_000_000) } else {
            text.raw("lastTouchSecondsAgo", Array("null".utf8))
        }
        if let layoutRevision { text.int("layoutRevision", layoutRevision) }
        var latencyText = JSONText()
        for (name, fraction) in [("p50", 0.5), ("p90", 0.9), ("p99", 0.99)] {
            if let value = intervalLatency.quantile(fraction), value.isFinite {
                latencyText.number(name, value)
            } else if intervalLatency.count > 0 {
                latencyText.string(name, "+Inf")
            }
        }
        if intervalLatency.count > 0 { text.object("latencySeconds", latencyText) } else {
            text.raw("latencySeconds", Array("null".utf8))
        }
        intervalLatency = LatencyHistogram()
        var dropped = JSONText()
        dropped.int("queue", Int64(queueDropped))
        dropped.int("daemonSlowConsumers", daemonCounters["slowConsumers"] ?? 0)
        text.object("dropped", dropped)
        text.int("brokerReconnects", Int64(reconnects))
        return OutboundMessage(topic: topics.health, payload: text.finished, qos: 1, retain: true)
    }
}

/// A metric key that has an overflow series.
protocol OverflowKey: Hashable { static var overflow: Self { get } }
extension String: OverflowKey { static var overflow: String { "_other" } }
extension FleetTracker.GestureKey: OverflowKey {
    static var overflow: Self { Self(view: "_other", recognizer: "_other", kind: "_other", state: "_other") }
}
extension FleetTracker.ControlKey: OverflowKey {
    static var overflow: Self { Self(view: "_other", event: "_other") }
}
