import GestureCore
import GestureServer

/// Home Assistant's MQTT discovery for one kiosk (docs/fleet.md, "Home Assistant"): a device
/// per kiosk; an `event` entity per view that has published events, its gestures and control
/// events as `event_types`; a device trigger (`device_automation`) per view and event type;
/// sensors for health. All retained, all naming the availability topic.
public enum Discovery {
    /// One view's announcement: its id and event types.
    public struct ViewEvents: Hashable, Sendable {
        public var view: String
        public var eventTypes: [String]
    }

    /// The views of `layout` whose events `settings` publishes, with their event types, in
    /// the layout's order (front to back does not matter here: depth first from the root), at
    /// most ``FleetLimits/discoveryViewLimit``. Walked with an explicit stack: a layout from a
    /// file is bounded in depth, but no recursion on input is the rule.
    public static func views(of layout: ViewSpec, settings: FleetSettings) -> [ViewEvents] {
        let viewGlobs = settings.views.map(Glob.init), recognizerGlobs = settings.recognizers.map(Glob.init)
        var result: [ViewEvents] = []
        var stack = [layout]
        while let view = stack.popLast(), result.count < FleetLimits.discoveryViewLimit {
            stack.append(contentsOf: view.subviews.reversed())
            guard viewGlobs.contains(where: { $0.matches(view.id) }) else { continue }
            var types: [String] = []
            for recognizer in view.recognizers where recognizerGlobs.contains(where: { $0.matches(recognizer.id) }) {
                let states = recognizer.kind.isDiscrete ? ["recognized"] : ["began", "changed", "ended", "cancelled"]
                for state in states where settings.gestureStates.contains(state) {
                    types.append(FleetTracker.eventType(recognizer: recognizer.id, state: state))
                }
            }
            if view.kind == .control { types += settings.controlEvents }
            if !types.isEmpty { result.append(ViewEvents(view: view.id, eventTypes: types)) }
        }
        return result
    }

    /// The topic filters of this kiosk's per-view discovery messages (event entities and device
    /// triggers). Subscribed to, they bring back the retained configurations the broker holds
    /// for the kiosk, from this run or an earlier one: those of views (or event types) that
    /// left the layout are removed (``removal(topic:payload:current:settings:)``).
    public static func ownedFilters(settings: FleetSettings) -> [String] {
        guard let prefix = settings.discoveryPrefix else { return [] }
        return ["\(prefix)/event/\(settings.node)/+/config", "\(prefix)/device_automation/\(settings.node)/+/config"]
    }

    /// Whether `topic` is one of this kiosk's per-view discovery topics (``ownedFilters(settings:)``).
    public static func isOwned(_ topic: String, settings: FleetSettings) -> Bool {
        guard let prefix = settings.discoveryPrefix, topic.hasSuffix("/config") else { return false }
        for kind in ["event", "device_automation"] {
            let head = "\(prefix)/\(kind)/\(settings.node)/"
            guard topic.hasPrefix(head) else { continue }
            let level = topic.dropFirst(head.count).dropLast("/config".count)
            return !level.isEmpty && !level.contains("/")
        }
        return false
    }

    /// The message that removes a retained discovery configuration the layout no longer has:
    /// an empty retained payload on its topic, as Home Assistant's MQTT discovery documents for
    /// deleting an entity or a device trigger. Nil for a topic of the current discovery
    /// (`current`), another device's, or a configuration already removed (empty).
    public static func removal(topic: String, payload: [UInt8], current: Set<String>,
                               settings: FleetSettings) -> OutboundMessage? {
        guard !payload.isEmpty, !current.contains(topic), isOwned(topic, settings: settings) else { return nil }
        return OutboundMessage(topic: topic, payload: [], qos: 1, retain: true)
    }

    /// Every discovery message for `views`, retained, QoS 1.
    public static func messages(for views: [ViewEvents], settings: FleetSettings, version: String) -> [OutboundMessage] {
        guard let prefix = settings.discoveryPrefix else { return [] }
        let topics = FleetTopics(prefix: settings.prefix, node: settings.node)
        let node = settings.node
        var device = JSONText()
        device.strings("identifiers", ["gestured_\(node)"])
        device.string("name", node)
        device.string("manufacturer", "gestured")
        device.string("model", "gestured touch kiosk")
        device.string("sw_version", version)
        var origin = JSONText()
        origin.string("name", "gestured-mqtt")
        origin.string("sw_version", version)

        func common(_ text: inout JSONText) {
            text.string("availability_topic", topics.availability)
            text.string("payload_available", "online")
            text.string("payload_not_available", "offline")
            text.object("device", device)
            text.object("origin", origin)
        }

        var messages: [OutboundMessage] = []
        var triggers = 0
        for view in views {
            let level = FleetTopics.level(view.view)
            var entity = JSONText()
            entity.string("name", view.view)
            entity.string("unique_id", "gestured_\(node)_\(level)")
            entity.string("state_topic", topics.view(view.view))
            entity.strings("event_types", view.eventTypes)
            entity.int("qos", 1)
            common(&entity)
            messages.append(OutboundMessage(topic: "\(prefix)/event/\(node)/\(level)/config", payload: entity.finished,
                                            qos: 1, retain: true))
            for eventType in view.eventTypes where triggers < FleetLimits.discoveryTriggerLimit {
                triggers += 1
                var trigger = JSONText()
                trigger.string("automation_type", "trigger")
                trigger.string("topic", topics.view(view.view))
                trigger.string("type", eventType)
                trigger.string("subtype", view.view)
                trigger.string("payload", eventType)
                trigger.string("value_template", "{{ value_json.event_type }}")
                trigger.int("qos", 1)
                trigger.object("device", device)
                trigger.object("origin", origin)
                let object = "\(level)_\(FleetTopics.level(eventType))"
                messages.append(OutboundMessage(topic: "\(prefix)/device_automation/\(node)/\(object)/config",
                                                payload: trigger.finished, qos: 1, retain: true))
            }
        }
        let sensors: [(id: String, name: String, template: String, unit: String?)] = [
            ("health", "Health", "{{ value_json.state }}", nil),
            ("touches_per_minute", "Touches per minute", "{{ value_json.touchesPerMinute }}", "touches/min"),
            ("gestures_per_minute", "Gestures per minute", "{{ value_json.gesturesPerMinute }}", "gestures/min"),
        ]
        for sensor in sensors {
            var text = JSONText()
            text.string("name", sensor.name)
            text.string("unique_id", "gestured_\(node)_\(sensor.id)")
            text.string("state_topic", topics.health)
            text.string("value_template", sensor.template)
            if let unit = sensor.unit {
                text.string("unit_of_measurement", unit)
                text.string("state_class", "measurement")
            } else {
                text.string("json_attributes_topic", topics.health)
            }
            common(&text)
            messages.append(OutboundMessage(topic: "\(prefix)/sensor/\(node)/\(sensor.id)/config", payload: text.finished,
                                            qos: 1, retain: true))
        }
        return messages
    }
}
