import GestureConfig
import GestureCore
import Testing
@testable import FleetBridge

/// Home Assistant's discovery messages (the fields its MQTT event, device trigger and sensor
/// documentation requires, with their types), the metrics text and the command topic.
struct DiscoveryAndMetricsTests {
    let layout = ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 100, height: 100), subviews: [
        ViewSpec(id: "wall", frame: Rect(x: 0, y: 0, width: 50, height: 50),
                 recognizers: [RecognizerSpec(id: "openPhoto", kind: .tap), RecognizerSpec(id: "wallPan", kind: .pan)]),
        ViewSpec(id: "share/1", frame: Rect(x: 0, y: 0, width: 5, height: 5), kind: .control),
        ViewSpec(id: "plain", frame: Rect(x: 0, y: 0, width: 5, height: 5)),
    ])

    func parse(_ message: OutboundMessage) -> [String: JSONValue] {
        guard case .object(let object)? = try? JSONParser.parse(bytes: message.payload, dialect: .json).value else {
            Issue.record("not a JSON object: \(message.topic)")
            return [:]
        }
        return object
    }

    @Test func viewsAndTheirEventTypes() {
        let views = Discovery.views(of: layout, settings: FleetSettings(node: "k1"))
        #expect(views == [
            .init(view: "wall", eventTypes: ["openPhoto", "wallPan_began", "wallPan_ended", "wallPan_cancelled"]),
            .init(view: "share/1", eventTypes: ["touchUpInside"]),
        ])
    }

    @Test func discoveryMessagesCarryHomeAssistantsRequiredFields() {
        let settings = FleetSettings(node: "k1")
        let messages = Discovery.messages(for: Discovery.views(of: layout, settings: settings), settings: settings, version: "0.1.0")
        #expect(messages.allSatisfy { $0.retain && $0.qos == 1 })
        let topics = messages.map(\.topic)
        #expect(topics.contains("homeassistant/event/k1/wall/config"))
        #expect(topics.contains("homeassistant/event/k1/share_1/config"))
        #expect(topics.contains("homeassistant/device_automation/k1/wall_openPhoto/config"))
        #expect(topics.contains("homeassistant/sensor/k1/health/config"))
        #expect(messages.count == 2 + 5 + 3)
        for message in messages {
            let object = parse(message)
            #expect(object.object("device")?.array("identifiers") == [.string("gestured_k1")])
            if message.topic.contains("/event/") {
                #expect(object.string("state_topic")?.hasPrefix("gestured/k1/view/") == true)
                #expect(object.array("event_types")?.isEmpty == false)
                #expect(object.string("availability_topic") == "gestured/k1/availability")
                #expect(object.string("unique_id") != nil)
            } else if message.topic.contains("/device_automation/") {
                #expect(object.string("automation_type") == "trigger")
                #expect(object.string("topic") != nil && object.string("type") != nil && object.string("subtype") != nil)
                #expect(object.string("payload") == object.string("type"))
                #expect(object.string("value_template") == "{{ value_json.event_type }}")
            } else {
                #expect(object.string("state_topic") == "gestured/k1/health")
                #expect(object.string("value_template") != nil)
            }
        }
    }

    /// A view that left the layout: its retained entity and triggers, which the broker sends back
    /// when the sidecar subscribes to its own discovery topics, are removed with an empty retained
    /// payload; the current ones, other kiosks', other topics and removed ones are left alone.
    @Test func retainedConfigurationsOfViewsThatLeftTheLayoutAreRemoved() {
        let settings = FleetSettings(node: "k1")
        #expect(Discovery.ownedFilters(settings: settings) == ["homeassistant/event/k1/+/config",
                                                                "homeassistant/device_automation/k1/+/config"])
        let current = Set(Discovery.messages(for: Discovery.views(of: layout, settings: settings), settings: settings,
                                             version: "1").map(\.topic))
        let config = Array(#"{"name":"gone"}"#.utf8)
        let stale = ["homeassistant/event/k1/gone/config", "homeassistant/device_automation/k1/gone_touchUpInside/config"]
        for topic in stale {
            #expect(Discovery.removal(topic: topic, payload: config, current: current, settings: settings)
                    == OutboundMessage(topic: topic, payload: [], qos: 1, retain: true))
        }
        let kept = Array(current.filter { $0.contains("/event/") || $0.contains("/device_automation/") })
        #expect(!kept.isEmpty)
        for topic in kept + ["homeassistant/event/k2/gone/config", "homeassistant/sensor/k1/health/config",
                             "homeassistant/event/k1/a/b/config", "homeassistant/event/k1//config", "gestured/k1/view/gone"] {
            #expect(Discovery.removal(topic: topic, payload: config, current: current, settings: settings) == nil, "\(topic)")
        }
        #expect(Discovery.removal(topic: stale[0], payload: [], current: current, settings: settings) == nil,
                "already removed: its empty message comes back to the sidecar")
        var without = settings
        without.discoveryPrefix = nil
        #expect(Discovery.ownedFilters(settings: without).isEmpty)
        #expect(Discovery.removal(topic: stale[0], payload: config, current: [], settings: without) == nil)
    }

    @Test func metricsTextEscapesLabelsAndKeepsTheFormat() {
        var settings = FleetSettings(node: "k\"1")
        settings.metricsDirectory = "/tmp"
        var tracker = FleetTracker(settings: settings, startedAt: 0)
        if case .event(let type, let event) = DaemonLine.parse(Array(#"{"type":"control","seq":1,"time":0,"view":"a\\b\nc","event":"touchDown","touch":5}"#.utf8)) {
            _ = tracker.event(type: type, event, now: 0)
        }
        let text = MetricsText.render(tracker, .init(queueLength: 2, queueDropped: 7, published: 9, brokerConnected: true,
                                                     brokerReconnects: 1))
        #expect(text.contains(#"gestured_controls_total{node="k\"1",view="a\\b\nc",event="touchDown"} 1"#))
        #expect(text.contains(#"gestured_mqtt_queue_dropped_total{node="k\"1"} 7"#))
        #expect(text.contains(#"gestured_frame_latency_seconds_bucket{node="k\"1",le="+Inf"} 0"#))
        for line in text.split(separator: "\n") where !line.hasPrefix("#") {
            #expect(line.hasPrefix("gestured_"))
            #expect(line.split(separator: " ").count >= 2)
        }
    }

    @Test func commandsAreForwardedUnchangedOrRefusedWithAReason() throws {
        let command = try FleetCommand.parse(Array("{\"type\":\"reload\",\n\"id\":7}".utf8)).get()
        #expect(command.type == "reload")
        #expect(command.line == Array("{\"type\":\"reload\", \"id\":7}\n".utf8))
        #expect(command.id == Array("7".utf8))
        let named = try FleetCommand.parse(Array(#"{"type":"view.update","id":"a\"b","view":"x","set":{}}"#.utf8)).get()
        #expect(named.id == Array(#""a\"b""#.utf8))
        for (payload, start) in [("{\"type\":\"subscribe\"}", "\"subscribe\" is not a command"), ("[1]", "the command must be"),
                                 ("{nope", "the command is not JSON")] {
            guard case .failure(let problem) = FleetCommand.parse(Array(payload.utf8)) else {
                Issue.record("accepted \(payload)")
                continue
            }
            #expect(problem.message.hasPrefix(start))
        }
    }
}
