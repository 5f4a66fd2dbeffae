/// Converts a device's axis values into screen points, contact radii in points and forces in
/// `0 ... 1`, exactly as docs/configuration.md, "`screen`: from the panel to points" states.
///
/// Position: `u = (value - min) / (max - min + 1)` clamped to `[0, 1)`, likewise `v`; then the
/// screen's calibration, rotation and size. The `+ 1` treats each device value as a cell of
/// the panel, so the largest value lands just inside the screen, never on its far edge (which a
/// half-open hit test would put outside the last view).
public struct DeviceMapping: Hashable, Sendable {
    /// The X position axis: `ABS_MT_POSITION_X` on multitouch devices, `ABS_X` otherwise.
    public var xAxis: AbsInfo
    /// The Y position axis: `ABS_MT_POSITION_Y` on multitouch devices, `ABS_Y` otherwise.
    public var yAxis: AbsInfo
    /// The pressure axis (`ABS_MT_PRESSURE`, or `ABS_PRESSURE`); nil when the device has none.
    public var pressureAxis: AbsInfo?
    /// `ABS_MT_TOUCH_MAJOR`; nil when the device does not report contact sizes.
    public var touchMajorAxis: AbsInfo?
    public var screen: ScreenGeometry

    /// A mapping from explicit ranges. Throws when a range is inverted.
    public init(xAxis: AbsInfo, yAxis: AbsInfo, pressureAxis: AbsInfo? = nil, touchMajorAxis: AbsInfo? = nil,
                screen: ScreenGeometry, deviceName: String = "") throws(DeviceMappingError) {
        guard xAxis.maximum >= xAxis.minimum else {
            throw .invalidRange(device: deviceName, code: AbsCode.mtPositionX, xAxis)
        }
        guard yAxis.maximum >= yAxis.minimum else {
            throw .invalidRange(device: deviceName, code: AbsCode.mtPositionY, yAxis)
        }
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.pressureAxis = pressureAxis
        self.touchMajorAxis = touchMajorAxis
        self.screen = screen
    }

    /// The mapping for a device as the input stage reads it (``AxisRemap`` has applied the
    /// configuration's `device.axes`): multitouch position axes when it has them (docs/configuration.md,
    /// "`screen`: from the panel to points"), else `ABS_X/ABS_Y`; pressure from `ABS_MT_PRESSURE`
    /// (multitouch) or `ABS_PRESSURE`.
    public init(description: DeviceDescription, screen: ScreenGeometry) throws(DeviceMappingError) {
        let multitouch = description.reportsMultitouchPositions
        let xCode = multitouch ? AbsCode.mtPositionX : AbsCode.x
        let yCode = multitouch ? AbsCode.mtPositionY : AbsCode.y
        let pressureCode = multitouch ? AbsCode.mtPressure : AbsCode.pressure
        guard let x = description.absInfo[xCode] else {
            throw .missingAxis(device: description.name, code: xCode)
        }
        guard let y = description.absInfo[yCode] else {
            throw .missingAxis(device: description.name, code: yCode)
        }
        // Some multitouch panels only range their legacy pressure axis (flatfrog has both).
        let pressure = description.absInfo[pressureCode] ?? description.absInfo[AbsCode.pressure]
        guard x.maximum >= x.minimum else { throw .invalidRange(device: description.name, code: xCode, x) }
        guard y.maximum >= y.minimum else { throw .invalidRange(device: description.name, code: yCode, y) }
        self.xAxis = x
        self.yAxis = y
        self.pressureAxis = pressure
        self.touchMajorAxis = multitouch ? description.absInfo[AbsCode.mtTouchMajor] : nil
        self.screen = screen
    }

    /// The `u`, `v` of docs/configuration.md, "`screen`: from the panel to points": each value's place in its
    /// axis range, clamped to `[0, 1)`.
    public func normalized(_ position: DevicePosition) -> NormalizedPoint {
        NormalizedPoint(u: Self.fraction(position.x, of: xAxis), v: Self.fraction(position.y, of: yAxis))
    }

    /// The position in screen points: normalised, calibrated, rotated and scaled (docs/configuration.md,
    /// "`screen`: from the panel to points").
    public func point(_ position: DevicePosition) -> Point {
        point(position, on: screen)
    }

    /// The position in points of `screen`: the screen a contact began on, which it keeps
    /// while the screen changes (`screen.set`, docs/protocol.md, "The screen").
    public func point(_ position: DevicePosition, on screen: ScreenGeometry) -> Point {
        screen.point(for: normalized(position))
    }

    /// The contact's major radius in points from `ABS_MT_TOUCH_MAJOR`; nil when the device
    /// does not declare that axis.
    ///
    /// The kernel's multi-touch protocol document gives `TOUCH_MAJOR` in surface units, the
    /// same units as the position axes, as the length of the contact ellipse's major axis (a
    /// diameter). Its orientation is often not reported (and `ABS_MT_ORIENTATION` ranges differ
    /// between drivers), so the radius is half the value scaled like the X axis: device units
    /// per screen point along the screen direction the panel's X axis runs after rotation.
    /// Calibration is ignored here; it corrects positions, not sizes.
    public func majorRadius(_ touchMajor: Int32, on screen: ScreenGeometry? = nil) -> Double? {
        guard touchMajorAxis != nil else { return nil }
        return Self.radius(touchMajor, unitsPerPanel: Self.cells(of: xAxis),
                           extent: (screen ?? self.screen).extentAlongPanelX)
    }

    /// Screen points per millimetre of the panel, from the position axes' resolutions (units
    /// per millimetre) and the screen they span: the mean of the two axes' when both say, the
    /// one that says otherwise; nil when neither does. For thresholds stated in millimetres
    /// (docs/configuration.md, "`screen`: from the panel to points"). Calibration is ignored: it corrects
    /// positions, it does not rescale the panel.
    public var pointsPerMillimetre: Double? {
        func along(_ axis: AbsInfo, extent: Double) -> Double? {
            guard axis.resolution > 0 else { return nil }
            let millimetres = (Double(axis.maximum) - Double(axis.minimum) + 1) / Double(axis.resolution)
            return extent / millimetres
        }
        let alongY = screen.rotation.swapsAxes ? screen.size.width : screen.size.height
        switch (along(xAxis, extent: screen.extentAlongPanelX), along(yAxis, extent: alongY)) {
        case (let x?, let y?): return (x + y) / 2
        case (let one?, nil), (nil, let one?): return one
        case (nil, nil): return nil
        }
    }

    /// `(value - min) / (max - min)` of the pressure axis, clamped to `0 ... 1`; nil when the
    /// device has no pressure range or an empty one.
    public func force(_ pressure: Int32) -> Double? {
        guard let axis = pressureAxis, axis.maximum > axis.minimum else { return nil }
        return Self.force(pressure, minimum: Double(axis.minimum),
                          range: Double(axis.maximum) - Double(axis.minimum))
    }

    // The formulas themselves, on constants worked out from the axes. ``ContactTracker`` works
    // the constants out once per screen (``ContactMapper``) instead of once per value; both go
    // through these functions, so a point is the same to the last bit either way.

    /// The largest double below 1, the top of the `[0, 1)` of docs/configuration.md, "`screen`: from the
    /// panel to points" (`1.0.nextDown`, written as a literal so that reading it costs no lazy-initialisation
    /// check per value).
    static let belowOne: Double = 0x1.fffffffffffffp-1

    static func fraction(_ value: Int32, of axis: AbsInfo) -> Double {
        fraction(value, minimum: Double(axis.minimum), cells: cells(of: axis))
    }

    /// The number of device values an axis spans, `max - min + 1`. In Double arithmetic:
    /// `max - min + 1` overflows Int32 for axes declared INT32_MIN ... INT32_MAX.
    @inline(__always)
    static func cells(of axis: AbsInfo) -> Double {
        Double(axis.maximum) - Double(axis.minimum) + 1
    }

    /// The `u` or `v` (docs/configuration.md, "`screen`: from the panel to points") of `value` on an axis
    /// starting at `minimum` and `cells` values long.
    @inline(__always)
    static func fraction(_ value: Int32, minimum: Double, cells: Double) -> Double {
        let fraction = (Double(value) - minimum) / cells
        return min(max(fraction, 0), belowOne)
    }

    /// ``majorRadius(_:on:)`` for a panel `unitsPerPanel` values wide along X and a screen
    /// `extent` points long in that direction.
    @inline(__always)
    static func radius(_ touchMajor: Int32, unitsPerPanel: Double, extent: Double) -> Double {
        Double(touchMajor) / 2 / unitsPerPanel * extent
    }

    /// ``force(_:)`` for a pressure axis starting at `minimum` and `range` (> 0) long.
    @inline(__always)
    static func force(_ pressure: Int32, minimum: Double, range: Double) -> Double {
        let fraction = (Double(pressure) - minimum) / range
        return min(max(fraction, 0), 1)
    }
}
