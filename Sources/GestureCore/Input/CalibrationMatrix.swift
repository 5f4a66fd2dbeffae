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

    /// Why this matrix cannot be used, or `nil`: it must map the panel onto an area (not a line
    /// or a point), and that area must overlap the screen, or no touch could ever land on it
    /// (issue 12). The configuration's `screen.calibration` and udev's
    /// `LIBINPUT_CALIBRATION_MATRIX` are held to it alike.
    ///
    /// Overlap, not "a corner lands on the screen": a matrix that zooms in (`[3, 0, -1, 0, 3,
    /// -1]`) maps all four corners off the screen while the panel's middle covers all of it.
    public var problem: String? {
        let determinant = a * e - b * d
        if determinant == 0 {
            return "the matrix maps the whole panel onto a line or a point (a·e − b·d is 0), so touches could not be "
                + "told apart; use [1, 0, 0, 0, 1, 0] and correct from there"
        }
        // The panel's corners, corrected: a parallelogram. It overlaps the unit square unless
        // an axis separates them (the square's two, and the parallelogram's two edge normals).
        let corners = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)].map { u, v in
            (a * u + b * v + c, d * u + e * v + f)
        }
        let square = [(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]
        let axes = [(1.0, 0.0), (0.0, 1.0), (-d, a), (-e, b)]
        for (x, y) in axes where x != 0 || y != 0 {
            let panel = corners.map { $0.0 * x + $0.1 * y }
            let screen = square.map { $0.0 * x + $0.1 * y }
            if panel.max()! <= screen.min()! || screen.max()! <= panel.min()! {
                return "the matrix maps every touch off the screen (the corrected panel lies outside 0…1 in both "
                    + "directions); check the signs and offsets c and f, or start from [1, 0, 0, 0, 1, 0]"
            }
        }
        return nil
    }
}
