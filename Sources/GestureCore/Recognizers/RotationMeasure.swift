/// A rotation's angle: how far the line from the first finger to the second turned since the
/// pair formed, in radians, clockwise positive on the screen (y grows downwards)
/// (UIRotationGestureRecognizer.rotation). It is accumulated frame by frame from the signed
/// angle between successive lines, so it unwraps across ±π and can exceed a full turn. It
/// begins once its magnitude is at least `minimumRotation`.
struct RotationMeasure: PairMeasure {
    let minimumRotation: Double
    /// The line when the rotation was last brought up to date; zero while the fingers are on
    /// one point (a line with no direction).
    private var lastLine = Point.zero
    private var rotation = 0.0

    init(threshold: Double) {
        minimumRotation = threshold
    }

    mutating func start(line: Point) {
        lastLine = line
        rotation = 0
    }

    mutating func update(line: Point) -> Double? {
        guard line != .zero else { return rotation }
        if lastLine != .zero { rotation += RecognizerMath.angle(from: lastLine, to: line) }
        lastLine = line
        return rotation
    }

    func begins(at value: Double) -> Bool {
        abs(value) >= minimumRotation
    }

    static func store(_ value: Double, velocity: Double, in values: inout GestureValues) {
        values.rotation = value
        values.rotationVelocity = velocity
    }

    static func stored(in values: GestureValues) -> Double? { values.rotation }
}

/// `rotation`: ``RotationRecognizer``.
extension RecognizerKind { public static let rotation = RecognizerKind(RotationRecognizer.self) }

extension RotationMeasure {
    static var quotedName: StaticString { #""rotation""# }
    static var threshold: ParameterKey { .init("minimumRotation", .radians) }
    /// Begin once the line between the two touches turned by 0.1 rad (about 5.7°).
    static var defaultThreshold: Double { 0.1 }
}
