/// A pinch's scale: the distance between the two fingers now divided by the distance when the
/// pair formed (UIPinchGestureRecognizer.scale). It begins once the scale differs from 1 by
/// at least `minimumScaleChange`.
struct PinchMeasure: PairMeasure {
    let minimumScaleChange: Double
    /// 0 while the fingers have been on one point since the pair formed; then the first
    /// non-zero distance becomes the reference.
    private var initialSpan = 0.0

    init(threshold: Double) {
        minimumScaleChange = threshold
    }

    mutating func start(line: Point) {
        initialSpan = RecognizerMath.length(line)
    }

    mutating func update(line: Point) -> Double? {
        let span = RecognizerMath.length(line)
        guard initialSpan > 0 else {
            initialSpan = span
            return nil
        }
        return span / initialSpan
    }

    func begins(at value: Double) -> Bool {
        abs(value - 1) >= minimumScaleChange
    }

    static func store(_ value: Double, velocity: Double, in values: inout GestureValues) {
        values.scale = value
        values.scaleVelocity = velocity
    }

    static func stored(in values: GestureValues) -> Double? { values.scale }
}

/// `pinch`: ``PinchRecognizer``.
extension RecognizerKind { public static let pinch = RecognizerKind(PinchRecognizer.self) }

extension PinchMeasure {
    static var quotedName: StaticString { #""pinch""# }
    static var threshold: ParameterKey { .init("minimumScaleChange", .ratio) }
    /// Begin once the distance between the two touches changed by 5 % (scale 0.95/1.05).
    static var defaultThreshold: Double { 0.05 }
}
