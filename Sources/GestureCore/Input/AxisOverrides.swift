/// What the configuration says about one position axis of the device (`device.axes.x` or
/// `device.axes.y`, docs/configuration.md, "`device`: panels that misdescribe themselves"): which absolute
/// axis carries that coordinate, and its range and resolution where the device declares them wrongly or not
/// at all (an Android `getevent` capture has no description).
public struct AxisOverride: Hashable, Sendable {
    /// The `EV_ABS` code that carries the coordinate; nil: the device's own position axis
    /// (`ABS_MT_POSITION_X/Y` on a multitouch device, `ABS_X/Y` otherwise).
    public var code: UInt16?
    /// The range in device units, in place of the axis's declared one.
    public var range: ClosedRange<Int32>?
    /// Units per millimetre, in place of the axis's declared one (0: unknown).
    public var resolution: Int32?

    public init(code: UInt16? = nil, range: ClosedRange<Int32>? = nil, resolution: Int32? = nil) {
        (self.code, self.range, self.resolution) = (code, range, resolution)
    }

    /// `info` with this override's range and resolution in place of its own.
    func applied(to info: AbsInfo) -> AbsInfo {
        var info = info
        if let range {
            info.minimum = range.lowerBound
            info.maximum = range.upperBound
        }
        if let resolution { info.resolution = resolution }
        return info
    }
}

/// The configuration's `device.axes`: the position axes as gestured reads them, when they are
/// not the device's own or not as it declares them. ``AxisRemap`` applies them.
public struct AxisOverrides: Hashable, Sendable {
    /// The X coordinate.
    public var x: AxisOverride?
    /// The Y coordinate.
    public var y: AxisOverride?

    public init(x: AxisOverride? = nil, y: AxisOverride? = nil) {
        (self.x, self.y) = (x, y)
    }

    /// No overrides: the device's own position axes, as it declares them.
    public static let none = AxisOverrides()

    /// True when an axis is named: positions come from other axes than the device's own.
    public var namesAxes: Bool { x?.code != nil || y?.code != nil }
}
