/// Where a touch goes now.
public enum Route: UInt8, Hashable, Sendable, CaseIterable {
    /// gestured's alone.
    case claimed = 1
    /// Reaches the virtual panel.
    case forwarded = 2
    /// Its frames wait for the rule to decide.
    case held = 3

    /// The word in the `route` field of a delivered touch and in the status.
    public var name: String {
        switch self {
        case .claimed: "claimed"
        case .forwarded: "forwarded"
        case .held: "held"
        }
    }
}

/// Touches down per route, for the socket's `status`.
public struct RouteCounts: Hashable, Sendable {
    public var claimed: Int
    public var forwarded: Int
    public var held: Int

    public init(claimed: Int, forwarded: Int, held: Int) {
        (self.claimed, self.forwarded, self.held) = (claimed, forwarded, held)
    }
}
