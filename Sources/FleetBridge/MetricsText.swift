import GestureServer

/// The metrics file in Prometheus' text format 0.0.4, for node-exporter's textfile collector
/// (docs/fleet.md, "Prometheus"): every family with `# HELP` and `# TYPE`, series sorted, label
/// values escaped (`\\`, `\"`, `\n`), every series labelled with the kiosk's `node`.
public enum MetricsText {
    /// The sidecar's own figures beside the tracker's.
    public struct SidecarFigures: Sendable {
        public var queueLength: Int
        public var queueDropped: UInt64
        public var published: UInt64
        public var brokerConnected: Bool
        public var brokerReconnects: UInt64

        public init(queueLength: Int, queueDropped: UInt64, published: UInt64, brokerConnected: Bool,
                    brokerReconnects: UInt64) {
            self.queueLength = queueLength
            self.queueDropped = queueDropped
            self.published = published
            self.brokerConnected = brokerConnected
            self.brokerReconnects = brokerReconnects
        }
    }

    /// A label's value: Prometheus' text format escapes the backslash, the double quote and the
    /// line feed, as the journal's logfmt does.
    public static func escape(_ value: String) -> String { escapedQuotedText(value) }

    public static func render(_ tracker: FleetTracker, _ figures: SidecarFigures) -> String {
        let node = "node=\"\(escape(tracker.settings.node))\""
        var out = ""
        func family(_ name: String, _ type: String, _ help: String) {
            out += "# HELP \(name) \(help)\n# TYPE \(name) \(type)\n"
        }
        func sample(_ name: String, _ labels: [(String, String)], _ value: String) {
            let extra = labels.map { ",\($0.0)=\"\(escape($0.1))\"" }.joined()
            out += "\(name){\(node)\(extra)} \(value)\n"
        }
        family("gestured_touches_total", "counter", "Touches that began, by the view they hit.")
        for (view, count) in tracker.touches.sorted(by: { $0.key < $1.key }) {
            sample("gestured_touches_total", [("view", view)], "\(count)")
        }
        family("gestured_gestures_total", "counter", "Gesture state changes, by view, recognizer, kind and state.")
        for (key, count) in tracker.gestures.sorted(by: { $0.key < $1.key }) {
            sample("gestured_gestures_total", [("view", key.view), ("recognizer", key.recognizer), ("kind", key.kind),
                                               ("state", key.state)], "\(count)")
        }
        family("gestured_controls_total", "counter", "Control events, by control and event.")
        for (key, count) in tracker.controls.sorted(by: { $0.key < $1.key }) {
            sample("gestured_controls_total", [("view", key.view), ("event", key.event)], "\(count)")
        }
        family("gestured_daemon_up", "gauge", "1 while gestured-mqtt is connected to the daemon's socket.")
        sample("gestured_daemon_up", [], tracker.daemonConnected ? "1" : "0")
        family("gestured_device_up", "gauge", "1 while the daemon has its panel (its last device event was not removed).")
        sample("gestured_device_up", [], tracker.state == "ok" ? "1" : "0")
        family("gestured_layout_revision", "gauge", "The revision of the layout in force.")
        sample("gestured_layout_revision", [], "\(tracker.layoutRevision ?? 0)")
        family("gestured_layout_changes_total", "counter", "Layout events seen (layout.set, view.update, reloads).")
        sample("gestured_layout_changes_total", [], "\(tracker.layoutChanges)")
        family("gestured_reloads_total", "counter", "Reloads requested on the command topic, by result.")
        for result in ["ok", "error"] {
            sample("gestured_reloads_total", [("result", result)], "\(tracker.reloads[result] ?? 0)")
        }
        family("gestured_daemon_slow_consumers_total", "counter",
               "Clients the daemon dropped for not reading their lines (its status counter slowConsumers).")
        sample("gestured_daemon_slow_consumers_total", [], "\(tracker.daemonCounters["slowConsumers"] ?? 0)")
        family("gestured_mqtt_queue_dropped_total", "counter", "MQTT messages dropped, oldest first, from the full queue.")
        sample("gestured_mqtt_queue_dropped_total", [], "\(figures.queueDropped)")
        family("gestured_mqtt_queue_messages", "gauge", "MQTT messages waiting in the sidecar's queue.")
        sample("gestured_mqtt_queue_messages", [], "\(figures.queueLength)")
        family("gestured_mqtt_published_total", "counter", "MQTT messages handed to the broker.")
        sample("gestured_mqtt_published_total", [], "\(figures.published)")
        family("gestured_mqtt_connected", "gauge", "1 while connected to the broker.")
        sample("gestured_mqtt_connected", [], figures.brokerConnected ? "1" : "0")
        family("gestured_mqtt_reconnects_total", "counter", "Connection attempts to the broker after the first.")
        sample("gestured_mqtt_reconnects_total", [], "\(figures.brokerReconnects)")
        let latency = tracker.latency
        family("gestured_frame_latency_seconds", "histogram",
               "From an input frame's kernel time stamp to gestured-mqtt reading its event (live daemons only).")
        var cumulative: UInt64 = 0
        for (index, bound) in LatencyHistogram.bounds.enumerated() {
            cumulative += latency.counts[index]
            sample("gestured_frame_latency_seconds_bucket", [("le", "\(bound)")], "\(cumulative)")
        }
        sample("gestured_frame_latency_seconds_bucket", [("le", "+Inf")], "\(latency.count)")
        sample("gestured_frame_latency_seconds_sum", [], "\(latency.sum)")
        sample("gestured_frame_latency_seconds_count", [], "\(latency.count)")
        return out
    }
}
