/// Axis ranges from the configuration that replace (or stand in for) the ones a device
/// declares, e.g. for an Android `getevent` capture, which has no device description, or for
/// firmware that declares a wrong range.
public struct AxisOverrides: Hashable, Sendable {
    /// The X position axis (`ABS_MT_POSITION_X`, or `ABS_X` on a single-touch device).
    public var x: AbsInfo?
    /// The Y position axis (`ABS_MT_POSITION_Y`, or `ABS_Y`).
    public var y: AbsInfo?
    /// `ABS_MT_PRESSURE` (or `ABS_PRESSURE`), the range that `force` is a fraction of.
    public var pressure: AbsInfo?

    public init(x: AbsInfo? = nil, y: AbsInfo? = nil, pressure: AbsInfo? = nil) {
        self.x = x
        self.y = y
        self.pressure = pressure
    }

    /// No overrides: every range comes from the device.
    public static let none = AxisOverrides()
}
