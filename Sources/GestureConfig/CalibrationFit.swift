import GestureCore

/// The mathematics of `gestured calibrate` (docs/command-line.md, "gestured calibrate"): where
/// the targets are, the least-squares fit of libinput's calibration matrix to the touches, and
/// the residual error. Pure: no I/O, no clock; every input is checked, so no value it returns
/// is NaN or infinite.
///
/// libinput's convention (its documentation, "Static device configuration via udev",
/// `LIBINPUT_CALIBRATION_MATRIX`): the six values `a b c d e f` are the top two rows of a 3×3
/// matrix applied to the touch in *normalised device coordinates* (each axis 0…1 over the
/// device's range), and the result is the position in normalised screen coordinates:
/// `u' = a·u + b·v + c`, `v' = d·u + e·v + f`. gestured normalises the same way
/// (docs/configuration.md, "`screen`: from the panel to points", step 1), so the matrix fitted
/// here is the one both libinput and gestured apply.
public enum CalibrationFit {
    // MARK: Limits (docs/limits.md, "gestured calibrate")

    /// Targets: at least four (xinput_calibrator's four corners), at most nine (a 3 × 3 grid).
    /// Four already over-determine the six values; more only average the noise further.
    public static let pointCount: ClosedRange<Int> = 4...9
    /// How far, as a fraction of the screen, the targets are inset from its edges
    /// (xinput_calibrator's 1/8: far enough in that a bezel never covers them).
    public static let inset = 0.125
    /// The misclick threshold in screen pixels: a touch this much further from where the
    /// touches so far predict it is refused (xinput_calibrator uses 15 on its own pixel grid;
    /// wider panels and fingers rather than styluses want more).
    public static let misclickPixels: ClosedRange<Int> = 5...500
    public static let defaultMisclickPixels = 40
    /// A second touch within this distance (screen pixels) and time (microseconds) of the
    /// touch just accepted is a double tap, ignored (xinput_calibrator's 7 pixels).
    public static let doubleTapPixels = 7.0
    public static let doubleTapMicroseconds: Int64 = 400_000
    /// The screen, in pixels, for the residuals and thresholds: as the configuration's
    /// `screen` width and height.
    public static let screenSide: ClosedRange<Double> = 1...100_000
    /// The centred spread of the touches must span an area: the smaller eigenvalue of their
    /// covariance at least this fraction of the larger, or they lie on a line.
    public static let collinearRatio = 1e-4

    /// The `count` targets in normalised screen coordinates, in the order they are shown: the
    /// four corners inset by ``inset`` (top left, top right, bottom left, bottom right, as
    /// xinput_calibrator), then the centre, then the middles of the edges (top, bottom, left,
    /// right). `count` is clamped to ``pointCount``.
    public static func targets(count: Int) -> [NormalizedPoint] {
        let low = inset, high = 1 - inset
        let all = [
            NormalizedPoint(u: low, v: low), NormalizedPoint(u: high, v: low),
            NormalizedPoint(u: low, v: high), NormalizedPoint(u: high, v: high),
            NormalizedPoint(u: 0.5, v: 0.5),
            NormalizedPoint(u: 0.5, v: low), NormalizedPoint(u: 0.5, v: high),
            NormalizedPoint(u: low, v: 0.5), NormalizedPoint(u: high, v: 0.5),
        ]
        return Array(all.prefix(min(max(count, pointCount.lowerBound), pointCount.upperBound)))
    }

    /// A device axis's value as libinput and gestured normalise it: `(value − min) / (max −
    /// min + 1)`, not clamped (a calibration point may lie outside the advertised range).
    public static func normalise(_ value: Int32, _ axis: AbsInfo) -> Double {
        let span = Double(axis.maximum) - Double(axis.minimum) + 1
        return (Double(value) - Double(axis.minimum)) / (span > 0 ? span : 1)
    }

    /// One target and the touch that answered it, both normalised.
    public struct Sample: Hashable, Sendable {
        public var target: NormalizedPoint
        public var touch: NormalizedPoint
        public init(target: NormalizedPoint, touch: NormalizedPoint) {
            (self.target, self.touch) = (target, touch)
        }
    }

    /// How far the fitted matrix puts one touch from its target.
    public struct Residual: Hashable, Sendable {
        public var target: NormalizedPoint
        /// The touch, calibrated with the fitted matrix.
        public var calibrated: NormalizedPoint
        /// The distance in normalised units (fractions of the screen's axes).
        public var normalised: Double
        /// The distance in screen pixels.
        public var pixels: Double
    }

    /// The fitted matrix and how well it fits.
    public struct Result: Hashable, Sendable {
        public var matrix: CalibrationMatrix
        public var residuals: [Residual]
        /// The root mean square of the residuals, in pixels and in normalised units.
        public var rmsPixels: Double
        public var rmsNormalised: Double
    }

    /// Why no matrix could be fitted.
    public struct Problem: Error, Hashable, Sendable, CustomStringConvertible {
        public var message: String
        public init(_ message: String) { self.message = message }
        public var description: String { message }
    }

    /// The affine matrix that maps the touches onto their targets with the least squared
    /// error, on a screen of `width` × `height` pixels (for the residuals). Needs at least
    /// three samples that do not lie on one line; four or more over-determine it and the
    /// residuals show how well the panel is affine.
    public static func fit(_ samples: [Sample], width: Double, height: Double) -> Swift.Result<Result, Problem> {
        guard screenSide.contains(width), screenSide.contains(height) else {
            return .failure(Problem("the screen is \(width) × \(height) pixels; each side must be \(Int(screenSide.lowerBound)) "
                + "to \(Int(screenSide.upperBound))"))
        }
        guard samples.count >= 3 else {
            return .failure(Problem("\(samples.count) touch\(samples.count == 1 ? "" : "es") cannot fix the six values of the "
                + "matrix; at least 3 are needed (gestured calibrate asks for \(pointCount.lowerBound) or more)"))
        }
        for (index, sample) in samples.enumerated() {
            for value in [sample.target.u, sample.target.v, sample.touch.u, sample.touch.v] where !value.isFinite {
                return .failure(Problem("point \(index + 1) holds a value that is not a finite number"))
            }
        }
        let count = Double(samples.count)
        let meanU = samples.reduce(0) { $0 + $1.touch.u } / count
        let meanV = samples.reduce(0) { $0 + $1.touch.v } / count
        let meanX = samples.reduce(0) { $0 + $1.target.u } / count
        let meanY = samples.reduce(0) { $0 + $1.target.v } / count
        // Centred sums: the normal equations of x = a·u + b·v + c after removing the means,
        // which keeps them well conditioned.
        var suu = 0.0, suv = 0.0, svv = 0.0, sux = 0.0, svx = 0.0, suy = 0.0, svy = 0.0
        for sample in samples {
            let u = sample.touch.u - meanU, v = sample.touch.v - meanV
            let x = sample.target.u - meanX, y = sample.target.v - meanY
            suu += u * u; suv += u * v; svv += v * v
            sux += u * x; svx += v * x; suy += u * y; svy += v * y
        }
        let determinant = suu * svv - suv * suv
        // The covariance's eigenvalues: both must be clearly positive, or the touches are on
        // one line (or one point) and the matrix is not determined.
        let trace = suu + svv
        let smaller = trace / 2 - ((trace / 2) * (trace / 2) - determinant).squareRoot()
        guard trace > 0, determinant > 0, smaller.isFinite, smaller >= collinearRatio * (trace - smaller) else {
            return .failure(Problem("the \(samples.count) touches lie on one line (or one point), so they cannot tell how "
                + "the panel's axes map onto the screen; touch each target where it is shown"))
        }
        let a = (sux * svv - svx * suv) / determinant
        let b = (svx * suu - sux * suv) / determinant
        let d = (suy * svv - svy * suv) / determinant
        let e = (svy * suu - suy * suv) / determinant
        let c = meanX - a * meanU - b * meanV
        let f = meanY - d * meanU - e * meanV
        let matrix = CalibrationMatrix(a: a, b: b, c: c, d: d, e: e, f: f)
        for value in matrix.values where !value.isFinite || !LayoutLimits.calibrationCoefficient.contains(value) {
            return .failure(Problem("the fitted matrix [\(matrix.values.map { String($0) }.joined(separator: ", "))] has a value "
                + "outside \(LayoutLimits.calibrationCoefficient.lowerBound)…\(LayoutLimits.calibrationCoefficient.upperBound), "
                + "which libinput and gestured refuse; the touches cannot be of this screen"))
        }
        if let problem = matrix.problem {
            return .failure(Problem("the fitted matrix cannot be used: \(problem)"))
        }
        var residuals: [Residual] = []
        var squaredPixels = 0.0, squaredNormalised = 0.0
        for sample in samples {
            let calibrated = matrix.apply(to: sample.touch)
            let du = calibrated.u - sample.target.u, dv = calibrated.v - sample.target.v
            let normalised = (du * du + dv * dv).squareRoot()
            let pixels = ((du * width) * (du * width) + (dv * height) * (dv * height)).squareRoot()
            squaredPixels += pixels * pixels
            squaredNormalised += normalised * normalised
            residuals.append(Residual(target: sample.target, calibrated: calibrated, normalised: normalised, pixels: pixels))
        }
        return .success(Result(matrix: matrix, residuals: residuals, rmsPixels: (squaredPixels / count).squareRoot(),
                               rmsNormalised: (squaredNormalised / count).squareRoot()))
    }
}
