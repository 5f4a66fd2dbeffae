/// An affine correction of normalised panel positions in libinput's
/// `LIBINPUT_CALIBRATION_MATRIX` format `[a, b, c, d, e, f]`: `u' = a*u + b*v + c`,
/// `v' = d*u + e*v + f`.
///
/// Using libinput's format means a matrix that already works for a panel under X11 or Wayland
/// (from a udev rule or `xinput`) can be copied into the configuration unchanged.
public struct CalibrationMatrix: Hashable, Sendable {
    public var a: Double, b: Double, c: Double
    public var d: Double, e: Double, f: Double

    public init(a: Double, b: Double, c: Double, d: Double, e: Double, f: Double) {
        self.a = a; self.b = b; self.c = c
        self.d = d; self.e = e; self.f = f
    }

    /// The matrix from its six values in libinput's order; nil unless there are exactly six.
    public init?(_ values: [Double]) {
        guard values.count == 6 else { return nil }
        self.init(a: values[0], b: values[1], c: values[2], d: values[3], e: values[4], f: values[5])
    }

    /// `[1, 0, 0, 0, 1, 0]`: no correction.
    public static let identity = CalibrationMatrix(a: 1, b: 0, c: 0, d: 0, e: 1, f: 0)

    /// The six values in libinput's order.
    public var values: [Double] { [a, b, c, d, e, f] }

    /// The corrected point. Not clamped: libinput does not clamp after calibration either, and a
    /// point just off the screen is still a touch (hit testing decides what it hits).
    public func apply(to point: NormalizedPoint) -> NormalizedPoint {
        NormalizedPoint(u: a * point.u + b * point.v + c, v: d * point.u + e * point.v + f)
    }
}
