/// The sidecar's bounded queue of messages for the broker (docs/fleet.md, "When the broker is
/// away"): at most `limit` messages and ``FleetLimits/queueByteLimit`` bytes; past either, the
/// oldest message is dropped and counted, so the newest events survive an outage and memory
/// stays bounded whatever the broker does. A ring of slots that grows to `limit` and no further.
public struct OutboundQueue: Sendable {
    public let limit: Int
    public let byteLimit: Int
    private var slots: [OutboundMessage?]
    private var head = 0
    public private(set) var count = 0
    public private(set) var bytes = 0
    /// Messages dropped since the start to make room.
    public private(set) var dropped: UInt64 = 0

    public init(limit: Int, byteLimit: Int = FleetLimits.queueByteLimit) {
        precondition(limit > 0)
        self.limit = limit
        self.byteLimit = byteLimit
        slots = []
    }

    public var isEmpty: Bool { count == 0 }

    /// Adds `message` at the end, dropping the oldest while over a bound. A message larger
    /// than the byte bound on its own is dropped (and counted) instead.
    public mutating func push(_ message: OutboundMessage) {
        guard message.size <= byteLimit else {
            dropped += 1
            return
        }
        while count >= limit || bytes + message.size > byteLimit {
            _ = pop()
            dropped += 1
        }
        if count == slots.count {
            // Every slot is taken and the bound not reached: grow, oldest first again.
            if head != 0 {
                slots = Array(slots[head...] + slots[..<head])
                head = 0
            }
            slots.append(message)
        } else {
            slots[(head + count) % slots.count] = message
        }
        count += 1
        bytes += message.size
    }

    /// The oldest message, removed.
    public mutating func pop() -> OutboundMessage? {
        guard count > 0, let message = slots[head] else { return nil }
        slots[head] = nil
        head = (head + 1) % slots.count
        count -= 1
        bytes -= message.size
        if count == 0 { head = 0; slots.removeAll(keepingCapacity: true) }
        return message
    }

    /// The oldest message, kept.
    public var first: OutboundMessage? { count > 0 ? slots[head] : nil }
}
