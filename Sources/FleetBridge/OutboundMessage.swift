/// One MQTT message waiting to be published.
public struct OutboundMessage: Hashable, Sendable {
    public var topic: String
    public var payload: [UInt8]
    public var qos: Int32
    public var retain: Bool

    public init(topic: String, payload: [UInt8], qos: Int32, retain: Bool) {
        self.topic = topic
        self.payload = payload
        self.qos = qos
        self.retain = retain
    }

    /// What the message costs the queue: payload and topic.
    public var size: Int { payload.count + topic.utf8.count }
}
