/// Every slop, timeout and threshold of the engine, with its unit and where the number came
/// from, in one place (SPEC 5.7). The configuration's `gestures` section overrides the
/// recognizer defaults per type, and each recognizer may override them again for itself.
public struct GestureSettings: Hashable, Sendable {
    /// Global overrides per recognizer type (`gestures.tap`, …).
    public var overrides: [RecognizerKind: RecognizerParameters]
    /// How far (points) outside a control's bounds a tracked touch still counts as inside.
    /// 70 pt: SPEC 5.7, UIKit's observed `UIControl` tracking slop.
    public var trackingSlop: Double
    /// `UITouch.tapCount`: a touch continues a tap sequence when it begins within this many
    /// seconds after the previous tap on the same view ended. 0.35 s: SPEC 5.7 `maxInterval`.
    public var touchTapInterval: Double
    /// …and within this many points of where the previous tap began. 45 pt: SPEC 5.7
    /// `maxMovement`, the distance within which a finger still counts as a tap.
    public var touchTapDistance: Double
    /// Distances of the `gestures` section given in millimetres: they replace the values above
    /// once the device's resolution is known (``inPoints(pointsPerMillimetre:)``).
    public var millimetres: MillimetreThresholds

    public init(overrides: [RecognizerKind: RecognizerParameters] = [:], trackingSlop: Double = 70,
                touchTapInterval: Double = 0.35, touchTapDistance: Double = 45,
                millimetres: MillimetreThresholds = MillimetreThresholds()) {
        self.overrides = overrides
        self.trackingSlop = trackingSlop
        self.touchTapInterval = touchTapInterval
        self.touchTapDistance = touchTapDistance
        self.millimetres = millimetres
    }

    /// The built-in defaults of each recognizer type: the one place they are written.
    public static func defaults(for kind: RecognizerKind) -> ResolvedParameters {
        switch kind {
        case .tap:
            // SPEC 5.7. maxMovement 45 pt and maxInterval 0.35 s are UIKit's observed tap limits.
            .tap(TapParameters(taps: 1, touches: 1, maxMovement: 45, maxDuration: 0.75, maxInterval: 0.35))
        case .longPress:
            // UILongPressGestureRecognizer: numberOfTapsRequired 0, minimumPressDuration 0.5 s,
            // allowableMovement 10 pt; its taps follow the tap's rules (``resolved(_:)``).
            .longPress(LongPressParameters(taps: 0, touches: 1, minimumDuration: 0.5, allowableMovement: 10,
                                           tapMaxMovement: 45, tapMaxDuration: 0.75, tapMaxInterval: 0.35))
        case .pan:
            // SPEC 5.7: a pan begins once the touches have moved 10 pt (UIKit's hysteresis);
            // UIPanGestureRecognizer's maximumNumberOfTouches defaults to NSUIntegerMax.
            .pan(PanParameters(minimumTouches: 1, maximumTouches: Int.max, slop: 10))
        case .swipe:
            // UIKit does not document its swipe thresholds. 50 pt in at most 0.5 s at an
            // average of at least 200 pt/s matches a flick on a phone-sized panel; on large
            // kiosk panels raise minimumDistance in `gestures.swipe`.
            .swipe(SwipeParameters(directions: [.right], touches: 1, minimumDistance: 50, minimumVelocity: 200,
                                   maxDuration: 0.5))
        case .pinch:
            // Begin once the distance between the two touches changed by 5 % (scale 0.95/1.05).
            .pinch(PinchParameters(minimumScaleChange: 0.05))
        case .rotation:
            // Begin once the line between the two touches turned by 0.1 rad (about 5.7°).
            .rotation(RotationParameters(minimumRotation: 0.1))
        case .edgePan:
            // UIScreenEdgePanGestureRecognizer: its one finger must start within 20 pt of the
            // edge; the pan's slop, 10 pt.
            .edgePan(EdgePanParameters(edges: [.left], edgeWidth: 20, slop: 10))
        }
    }

    /// The parameters in force for a recognizer: its own values, then the global overrides of
    /// its type, then the defaults.
    public func resolved(_ spec: RecognizerSpec) -> ResolvedParameters {
        var resolved = Self.defaults(for: spec.kind)
        if let global = overrides[spec.kind] { resolved = resolved.overridden(by: global) }
        resolved = resolved.overridden(by: spec.parameters)
        // A long press's taps follow the taps' rules in force, as a multi-tap's do.
        if case .longPress(var longPress) = resolved, case .tap(let tap) = self.resolved(RecognizerSpec(id: "", kind: .tap)) {
            longPress.tapMaxMovement = tap.maxMovement
            longPress.tapMaxDuration = tap.maxDuration
            longPress.tapMaxInterval = tap.maxInterval
            resolved = .longPress(longPress)
        }
        return resolved
    }
}
