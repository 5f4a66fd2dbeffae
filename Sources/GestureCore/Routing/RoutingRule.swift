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
        (self.seconds, self.fingers, self.distance) = (seconds, fingers, distance)
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
