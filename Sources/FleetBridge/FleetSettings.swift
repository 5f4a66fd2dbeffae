/// The settings of `gestured-mqtt`, read from its own file (docs/fleet.md, "Configuration";
/// `/etc/gestured/mqtt.json5` by default) by ``FleetSettingsReader``. Credentials are never
/// here: they come from systemd credentials (``FleetCredentials``).
public struct FleetSettings: Hashable, Sendable {
    /// Where the broker is: a host and port. (Debian 12's libmosquitto 2.0.11 cannot connect
    /// to a Unix socket; docs/fleet.md, "What is missing".)
    public enum BrokerAddress: Hashable, Sendable, CustomStringConvertible {
        case tcp(host: String, port: Int)

        /// `host:port`, as log lines name the broker.
        public var description: String {
            switch self {
            case .tcp(let host, let port): "\(host):\(port)"
            }
        }
    }

    /// TLS files: the CA to verify the broker with, and a client certificate and key.
    public struct TLS: Hashable, Sendable {
        public var caFile: String
        public var certificateFile: String?
        public var keyFile: String?
    }

    public var broker: BrokerAddress = .tcp(host: "localhost", port: 1883)
    public var tls: TLS?
    public var keepalive = FleetLimits.defaultKeepalive
    /// The MQTT client id; `gestured-mqtt-<node>` by default.
    public var clientID: String?
    /// Topics are `<prefix>/<node>/…`.
    public var prefix = "gestured"
    public var node: String
    /// Which events are published: views and recognizers as the daemon's subscription filters
    /// (globs), gesture states and control events by name.
    public var views: [String] = ["*"]
    public var recognizers: [String] = ["*"]
    public var gestureStates: [String] = ["recognized", "began", "ended", "cancelled"]
    public var controlEvents: [String] = ["touchUpInside"]
    public var healthInterval = FleetLimits.defaultHealthInterval
    public var queueLimit = FleetLimits.defaultQueueLimit
    /// Home Assistant discovery, under `discoveryPrefix`; `nil`: none.
    public var discoveryPrefix: String? = "homeassistant"
    /// node-exporter's textfile directory; `nil`: no metrics file.
    public var metricsDirectory: String? = "/var/lib/prometheus/node-exporter"
    /// Whether the file named `metrics.directory` (or `metrics: null`): if not, the program
    /// uses the unit's runtime directory when it has one (docs/fleet.md, "Prometheus").
    public var metricsDirectoryIsSet = false
    public var metricsInterval = FleetLimits.defaultMetricsInterval
    /// Whether the `command` topic is subscribed to at all.
    public var commandsEnabled = true

    public init(node: String) {
        self.node = node
    }

    /// Every gesture state the daemon sends besides `failed` (which needs tracing).
    public static let knownGestureStates = ["began", "changed", "ended", "cancelled", "recognized"]
    /// Every control event (docs/events.md, `control`).
    public static let knownControlEvents = ["touchDown", "touchDownRepeat", "touchDragInside", "touchDragOutside",
                                            "touchDragEnter", "touchDragExit", "touchUpInside", "touchUpOutside",
                                            "touchCancel"]
}
