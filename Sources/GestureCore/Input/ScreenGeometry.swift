/// The screen a touch panel covers: its size in points, how the panel is rotated on it and the
/// calibration that corrects the panel's normalised positions (docs/configuration.md, "`screen`: from the
/// panel to points").
public struct ScreenGeometry: Hashable, Sendable {
    public var size: Size
    public var rotation: ScreenRotation
    /// The configuration's `screen.calibration`; nil when it sets none, and then the device's
    /// own (udev's `LIBINPUT_CALIBRATION_MATRIX`, ``DeviceCalibration``) applies, else none.
    public var calibration: CalibrationMatrix?

    public init(size: Size, rotation: ScreenRotation = .none, calibration: CalibrationMatrix? = nil) {
        (self.size, self.rotation, self.calibration) = (size, rotation, calibration)
    }

    public init(width: Double, height: Double, rotation: ScreenRotation = .none,
                calibration: CalibrationMatrix? = nil) {
        self.init(size: Size(width: width, height: height), rotation: rotation, calibration: calibration)
    }

    /// Calibration, then rotation, then scaling to points, in the order of docs/configuration.md, "`screen`:
    /// from the panel to points".
    public func point(for normalized: NormalizedPoint) -> Point {
        let calibrated = calibration?.apply(to: normalized) ?? normalized
        let rotated = rotation.apply(to: calibrated)
        return Point(x: rotated.u * size.width, y: rotated.v * size.height)
    }

    /// The screen as a rectangle at the origin, in points.
    public var bounds: Rect { Rect(x: 0, y: 0, width: size.width, height: size.height) }

    /// The screen extent, in points, along which the panel's X axis runs after rotation.
    public var extentAlongPanelX: Double {
        rotation.swapsAxes ? size.height : size.width
    }
}
