/// Every bound of `gestured-mqtt` in one place, with its reason (docs/limits.md, "MQTT sidecar").
public enum FleetLimits {
    /// Messages the sidecar's own queue holds while the broker is slow or away (the default of
    /// `queue.limit`, and its range): at about 300 bytes an event, 1000 are 300 KB, a few
    /// minutes of a busy kiosk's discrete gestures.
    public static let defaultQueueLimit = 1000
    public static let queueLimitRange = 1...100_000
    /// Bytes the queue holds at most, whatever its message limit: 100,000 messages of a large
    /// payload must not reach a megabyte each. The oldest go first past either bound.
    public static let queueByteLimit = 8 << 20
    /// Messages handed to libmosquitto and not yet sent (QoS 0) or acknowledged (QoS 1):
    /// libmosquitto's own queue is unbounded, so the sidecar never gives it more than this.
    public static let inFlightLimit = 20
    /// Health every N seconds (`health.interval`): 60 by default, 5 at least (a broker is not a
    /// monitoring system of sub-second resolution), an hour at most.
    public static let defaultHealthInterval = 60
    public static let healthIntervalRange = 5...3600
    /// The metrics file is rewritten at most this often (`metrics.interval`), seconds.
    public static let defaultMetricsInterval = 15
    public static let metricsIntervalRange = 1...3600
    /// MQTT keep-alive, seconds (`broker.keepalive`).
    public static let defaultKeepalive = 30
    public static let keepaliveRange = 5...3600
    /// Reconnection back-off: the first retry after 1 s, doubling up to 30 s, so a broker that
    /// is down or refuses the credentials costs at most one attempt per 30 s.
    public static let reconnectInitialMicroseconds: Int64 = 1_000_000
    public static let reconnectMaximumMicroseconds: Int64 = 30_000_000
    /// The daemon's lines: its own limit for a line a client may send (docs/protocol.md), so
    /// a command forwarded from MQTT is never longer than the daemon accepts; the daemon's
    /// events are far shorter.
    public static let lineLimit = 1 << 20
    /// Commands forwarded to the daemon and not yet answered; more are answered `busy`.
    public static let pendingCommandLimit = 16
    /// Metric series (label combinations) per metric family: a layout set by a client may name
    /// any number of views; the series beyond are counted under `view="_other"`.
    public static let seriesLimit = 512
    /// Views and recognizers announced to Home Assistant: one event entity per view and one
    /// device trigger per event type; more would flood the broker's retained store.
    public static let discoveryViewLimit = 256
    public static let discoveryTriggerLimit = 1024
    /// Topic prefix and node id lengths (characters).
    public static let prefixLength = 1...128
    public static let nodeLength = 1...64
    /// Patterns per event filter, as the daemon's subscriptions (docs/protocol.md).
    public static let patternLimit = 32
    public static let patternLength = 64
    /// Reconnections to the daemon: once a second at most.
    public static let daemonRetryMicroseconds: Int64 = 1_000_000
}
