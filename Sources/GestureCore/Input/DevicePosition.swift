/// A position as the device reports it: raw values of its X and Y position axes
/// (`ABS_MT_POSITION_X/Y`, or `ABS_X/Y` on single-touch devices), before any mapping.
public struct DevicePosition: Hashable, Sendable {
    public var x: Int32
    public var y: Int32

    public init(x: Int32, y: Int32) {
        (self.x, self.y) = (x, y)
    }
}
