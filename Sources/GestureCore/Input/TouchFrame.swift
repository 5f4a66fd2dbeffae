/// Identifies one contact of the input layer for as long as it is down (a protocol B tracking
/// id, a slot, or 0 for a single-touch device). The engine gives every new contact a fresh
/// touch id of its own; contact ids may be reused by the device.
public struct ContactID: Hashable, Comparable, Sendable {
    public var rawValue: Int

    public init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    public static func < (lhs: ContactID, rhs: ContactID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// What happened to one contact in a frame, in screen points.
public enum TouchChange: Hashable, Sendable {
    /// A finger landed. `majorRadius` is in points, `force` in `0 ... 1`, when the device says.
    case down(ContactID, Point, majorRadius: Double? = nil, force: Double? = nil)
    /// A finger that is down moved (or its radius or force changed).
    case move(ContactID, Point, majorRadius: Double? = nil, force: Double? = nil)
    /// A finger lifted.
    case up(ContactID)
    /// The contact stopped being a touch without lifting: palm detected, state lost after
    /// `SYN_DROPPED`, device removed, recording truncated.
    case cancel(ContactID)

    public var contact: ContactID {
        switch self {
        case .down(let id, _, _, _), .move(let id, _, _, _), .up(let id), .cancel(let id): id
        }
    }
}

/// The unit of work of the engine: every contact change of one `SYN_REPORT`, at its time.
public struct TouchFrame: Hashable, Sendable {
    public var time: Timestamp
    public var changes: [TouchChange]

    public init(time: Timestamp, changes: [TouchChange]) {
        (self.time, self.changes) = (time, changes)
    }
}
