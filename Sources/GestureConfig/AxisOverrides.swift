import GestureCore

/// The configuration's `axes`: optional replacement ranges for the x and y position axes.
/// Each applies to both the single-touch axis (`ABS_X`/`ABS_Y`) and the multitouch one
/// (`ABS_MT_POSITION_X`/`_Y`), because a panel reports the same range on both.
public struct AxisOverrides: Hashable, Sendable {
    public var x: AxisOverride?
    public var y: AxisOverride?

    public init(x: AxisOverride? = nil, y: AxisOverride? = nil) {
        self.x = x
        self.y = y
    }

    public var isEmpty: Bool { x == nil && y == nil }

    /// `device` with the overridden ranges, on the position axes it declares. A device that
    /// declares none (a recording without a description) gets both the single-touch and the
    /// multitouch axis: its events say which one it uses, and a range without events is inert.
    public func applied(to device: DeviceDescription) -> DeviceDescription {
        var device = device
        func apply(_ range: AxisOverride?, to codes: [UInt16]) {
            guard let range else { return }
            let declared = codes.filter { device.absInfo[$0] != nil || device.codes[EventType.abs]?.contains($0) == true }
            for code in declared.isEmpty ? codes : declared {
                device.absInfo[code] = range.absInfo(keeping: device.absInfo[code])
            }
        }
        apply(x, to: [AbsCode.x, AbsCode.mtPositionX])
        apply(y, to: [AbsCode.y, AbsCode.mtPositionY])
        return device
    }
}
