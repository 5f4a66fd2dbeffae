/// How a touch that begins on a view is routed (docs/routing.md), like CSS `touch-action`:
/// a view's rule holds for its subviews that state none, and the root's comes from the
/// configuration's `routing.default`.
public enum RoutingRule: Hashable, Sendable {
    /// The touch is gestured's alone: nothing of it reaches the virtual panel.
    case claim
    /// Every frame of the touch reaches the virtual panel in the batch it was read in.
    case forward
    /// The touch's frames wait until the rule claims or forwards it.
    case hold(HoldRule)
}

/// "Hold and decide": how long, how many fingers and how far a held touch waits.
public struct HoldRule: Hashable, Sendable {
    /// At most this long after the touch's down it is forwarded, in seconds
    /// (``RoutingLimits/holdSeconds``).
    public var seconds: Double
    /// When this many touches are down at once, every held touch is claimed.
    public var fingers: Int?
    /// When the touch has moved this far from where it landed, it is forwarded.
    public var distance: RoutingDistance?

    public init(seconds: Double, fingers: Int? = nil, distance: RoutingDistance? = nil) {
        self.seconds = seconds
        self.fingers = fingers
        self.distance = distance
    }
}

/// A hold's distance: in points, or in millimetres of the panel (converted with its
/// resolution when the device is known).
public enum RoutingDistance: Hashable, Sendable {
    case points(Double)
    case millimetres(Double)

    /// The distance in points; nil for millimetres on a panel with no resolution.
    public func inPoints(pointsPerMillimetre: Double?) -> Double? {
        switch self {
        case .points(let points): points
        case .millimetres(let millimetres): pointsPerMillimetre.map { millimetres * $0 }
        }
    }
}

/// The configuration's top-level `routing` section: present, touches are routed and the panel
/// has a virtual copy; absent, gestured behaves as it always did (no copy, no `route` field).
public struct RoutingConfiguration: Hashable, Sendable {
    /// The root's rule, for touches on views that state none and touches that hit no view.
    public var defaultRule: RoutingRule

    public init(defaultRule: RoutingRule) {
        self.defaultRule = defaultRule
    }
}

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
        self.claimed = claimed
        self.forwarded = forwarded
        self.held = held
    }
}

/// The bounds of every routing value, in one place (docs/limits.md § Routing).
public enum RoutingLimits {
    /// A hold's time, in seconds: at least a millisecond (a shorter one is `forward`), at
    /// most a second: held frames reach the desktop late by up to this, and a second is
    /// already longer than any "wait for a second finger" rule needs (Wayfire and Android
    /// decide within a few hundred milliseconds).
    public static let holdSeconds: ClosedRange<Double> = 0.001...1
    /// A hold's `fingers`: two (one finger is every touch) to ten (two hands).
    public static let holdFingers: ClosedRange<Int> = 2...10
    /// A hold's distance in points: more than 0, at most ``LayoutLimits/points``.
    public static let holdPoints: ClosedRange<Double> = Double.leastNonzeroMagnitude...LayoutLimits.points
    /// A hold's distance in millimetres: more than 0, at most ``LayoutLimits/millimetres``.
    public static let holdMillimetres: ClosedRange<Double> = Double.leastNonzeroMagnitude...LayoutLimits.millimetres.upperBound
    /// Frames one held touch keeps for the virtual panel. A second's hold at a 1 kHz report
    /// rate is 1,000 frames; past the bound the touch is forwarded at once (its frames are
    /// sent), so a panel reporting faster than any known one costs bounded memory.
    public static let heldFrames = 2_000
}
