/// The screen the layout is drawn on and how panel positions map onto it (SPEC 2, 12: `screen`).
public struct ScreenConfig: Hashable, Sendable {
    /// How the panel is turned relative to the screen, clockwise (SPEC 2).
    public enum Rotation: Int, Hashable, Sendable, CaseIterable {
        case none = 0
        case clockwise90 = 90
        case upsideDown = 180
        case clockwise270 = 270
    }

    /// In points; layout frames are in the same unit.
    public var width: Double
    public var height: Double
    public var rotation: Rotation
    /// libinput's `LIBINPUT_CALIBRATION_MATRIX` `[a, b, c, d, e, f]` in normalised
    /// coordinates: `u' = a*u + b*v + c`, `v' = d*u + e*v + f`. Always 6 values.
    public var calibration: [Double]

    /// The matrix that leaves positions unchanged.
    public static let identityCalibration: [Double] = [1, 0, 0, 0, 1, 0]

    public init(width: Double, height: Double, rotation: Rotation = .none,
                calibration: [Double] = ScreenConfig.identityCalibration) {
        self.width = width
        self.height = height
        self.rotation = rotation
        self.calibration = calibration
    }
}
