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
