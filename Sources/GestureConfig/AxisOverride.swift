import GestureCore

/// A replacement range for one position axis, in device units, for recordings that carry no
/// device description (Android `getevent -t`) or panels that report a wrong range.
public struct AxisOverride: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    /// Units per millimetre; 0 when unknown.
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, resolution: Int32 = 0) {
        self.minimum = minimum
        self.maximum = maximum
        self.resolution = resolution
    }

    /// This range as an axis description, keeping the fuzz and flat of `base` (they are
    /// filtering hints of the device, not part of its range).
    public func absInfo(keeping base: AbsInfo? = nil) -> AbsInfo {
        AbsInfo(minimum: minimum, maximum: maximum, fuzz: base?.fuzz ?? 0, flat: base?.flat ?? 0, resolution: resolution)
    }
}
