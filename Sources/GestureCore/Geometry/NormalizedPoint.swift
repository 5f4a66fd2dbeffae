/// A position on the panel as fractions of the axis ranges, `0 ..< 1` on each axis
/// (`u`, `v` of docs/configuration.md, "`screen`: from the panel to points"), before calibration and
/// rotation.
public struct NormalizedPoint: Hashable, Sendable {
    public var u: Double
    public var v: Double

    public init(u: Double, v: Double) {
        (self.u, self.v) = (u, v)
    }
}
