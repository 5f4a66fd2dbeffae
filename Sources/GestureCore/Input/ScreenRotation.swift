/// How the panel is mounted relative to the screen, in degrees clockwise (`rotation`, docs/configuration.md,
/// "`screen`: from the panel to points").
public enum ScreenRotation: Int, Hashable, Sendable, CaseIterable {
    case none = 0
    case clockwise90 = 90
    case clockwise180 = 180
    case clockwise270 = 270

    /// The rotation for a configured number of degrees; nil for anything but 0, 90, 180, 270.
    public init?(degrees: Int) {
        self.init(rawValue: degrees)
    }

    public var degrees: Int { rawValue }

    /// Applies the rotation to a calibrated normalised point (docs/configuration.md, "`screen`: from the
    /// panel to points"): 90 → (1 - v, u), 180 → (1 - u, 1 - v), 270 → (v, 1 - u).
    public func apply(to point: NormalizedPoint) -> NormalizedPoint {
        switch self {
        case .none: point
        case .clockwise90: NormalizedPoint(u: 1 - point.v, v: point.u)
        case .clockwise180: NormalizedPoint(u: 1 - point.u, v: 1 - point.v)
        case .clockwise270: NormalizedPoint(u: point.v, v: 1 - point.u)
        }
    }

    /// True when the panel's X axis runs along the screen's vertical axis.
    public var swapsAxes: Bool {
        switch self {
        case .none, .clockwise180: false
        case .clockwise90, .clockwise270: true
        }
    }
}
