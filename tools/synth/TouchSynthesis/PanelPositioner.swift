import GestureCore

/// Turns a script position into the device values a panel reports for it: SPEC 2's mapping
/// from device values to screen points, run backwards.
///
/// Points: `u'' = x / width`, `v'' = y / height`; the rotation undone; the calibration matrix
/// inverted; then `min + u * (max - min + 1)`, the place whose cell starts at `u` (gestured maps
/// a value to the start of its cell, so a point on a cell boundary comes back exactly).
/// Millimetres: `min + mm * resolution`. Device units: as written. The places are kept exact
/// (a glide interpolates between them) and rounded to device values by `rounded(_:)`.
public struct PanelPositioner: Sendable {
    public let xAxis: AbsInfo
    public let yAxis: AbsInfo
    public let screen: ScreenGeometry?
    /// How CSS pixels become points.
    public let page: GestureScript.PageMapping

    public init(xAxis: AbsInfo, yAxis: AbsInfo, screen: ScreenGeometry?, page: GestureScript.PageMapping = .init()) {
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.screen = screen
        self.page = page
    }

    /// The place of `position` in device units, not yet rounded, or a message saying why there
    /// is none (off the screen, off the panel, no resolution for millimetres).
    public func devicePlace(_ position: GestureScript.Position) -> Result<(x: Double, y: Double), PositionError> {
        switch position.units {
        case .device:
            return checked(x: position.x, y: position.y, what: "device values")
        case .mm:
            guard xAxis.resolution > 0, yAxis.resolution > 0 else {
                return .failure(PositionError("the panel declares no resolution (units per mm) for its position axes; use points or device units"))
            }
            return checked(x: Double(xAxis.minimum) + position.x * Double(xAxis.resolution),
                           y: Double(yAxis.minimum) + position.y * Double(yAxis.resolution),
                           what: "millimetres")
        case .css:
            let point = page.point(x: position.x, y: position.y)
            switch devicePlace(GestureScript.Position(x: point.x, y: point.y, units: .points)) {
            case .success(let place): return .success(place)
            case .failure(let error):
                return .failure(PositionError("CSS pixels (\(position.x), \(position.y)) are points (\(point.x), \(point.y)) "
                    + "with the page's origin (\(page.originX), \(page.originY)) and scale \(page.scale): \(error.message)"))
            }
        case .points:
            guard let screen else { return .failure(PositionError("positions in points need a `screen` line")) }
            let (width, height) = (screen.size.width, screen.size.height)
            guard position.x >= 0, position.x < width, position.y >= 0, position.y < height else {
                return .failure(PositionError("(\(position.x), \(position.y)) is off the screen: x from 0 to below \(width), y from 0 to below \(height)"))
            }
            let rotated = Self.unrotate(NormalizedPoint(u: position.x / width, v: position.y / height), screen.rotation)
            let panel = Self.uncalibrate(rotated, screen.calibration ?? .identity)
            guard panel.u >= -1e-9, panel.u < 1 + 1e-9, panel.v >= -1e-9, panel.v < 1 + 1e-9 else {
                return .failure(PositionError("(\(position.x), \(position.y)) is on the screen but off the panel after undoing the calibration"))
            }
            return .success((Self.place(panel.u, xAxis), Self.place(panel.v, yAxis)))
        }
    }

    /// Why a position has no device values.
    public struct PositionError: Error, Hashable, Sendable {
        public var message: String
        init(_ message: String) { self.message = message }
    }

    /// The device values of a place: rounded, within the axes.
    public func rounded(_ place: (x: Double, y: Double)) -> (x: Int32, y: Int32) {
        (Self.clamped(place.x, xAxis), Self.clamped(place.y, yAxis))
    }

    private func checked(x: Double, y: Double, what: String) -> Result<(x: Double, y: Double), PositionError> {
        guard what != "device values" || (x == x.rounded() && y == y.rounded()) else {
            return .failure(PositionError("device values are whole numbers, found (\(x), \(y))"))
        }
        let (roundedX, roundedY) = (x.rounded(), y.rounded())
        guard roundedX >= Double(xAxis.minimum), roundedX <= Double(xAxis.maximum),
              roundedY >= Double(yAxis.minimum), roundedY <= Double(yAxis.maximum) else {
            return .failure(PositionError("\(what) (\(x), \(y)) are off the panel: X \(xAxis.minimum)…\(xAxis.maximum), Y \(yAxis.minimum)…\(yAxis.maximum) in device values"))
        }
        return .success((x, y))
    }

    /// The inverse of `ScreenRotation.apply(to:)`.
    static func unrotate(_ point: NormalizedPoint, _ rotation: ScreenRotation) -> NormalizedPoint {
        switch rotation {
        case .none: point
        case .clockwise90: NormalizedPoint(u: point.v, v: 1 - point.u)
        case .clockwise180: NormalizedPoint(u: 1 - point.u, v: 1 - point.v)
        case .clockwise270: NormalizedPoint(u: 1 - point.v, v: point.u)
        }
    }

    /// The inverse of `CalibrationMatrix.apply(to:)` (the parser refuses singular matrices).
    static func uncalibrate(_ point: NormalizedPoint, _ m: CalibrationMatrix) -> NormalizedPoint {
        let determinant = m.a * m.e - m.b * m.d
        let (p, q) = (point.u - m.c, point.v - m.f)
        return NormalizedPoint(u: (m.e * p - m.b * q) / determinant, v: (m.a * q - m.d * p) / determinant)
    }

    /// The place whose cell starts at `fraction` of the axis.
    static func place(_ fraction: Double, _ axis: AbsInfo) -> Double {
        Double(axis.minimum) + fraction * (Double(axis.maximum) - Double(axis.minimum) + 1)
    }

    /// The nearest device value within the axis.
    static func clamped(_ place: Double, _ axis: AbsInfo) -> Int32 {
        Int32(min(max(place.rounded(), Double(axis.minimum)), Double(axis.maximum)))
    }
}
