/// The parameters in force for one recognizer, every one set: what a recognizer machine is
/// built from. ``GestureSettings/resolved(_:)`` makes them from the recognizer's own values,
/// the global `gestures` overrides of its type and the defaults
/// (``GestureSettings/defaults(for:)``, the one place the default numbers are written), so a
/// machine never falls back on a value of its own. Durations are in seconds, distances in
/// points, velocities in points per second.
public enum ResolvedParameters: Hashable, Sendable {
    case tap(TapParameters)
    case longPress(LongPressParameters)
    case pan(PanParameters)
    case swipe(SwipeParameters)
    case pinch(PinchParameters)
    case rotation(RotationParameters)
    case edgePan(EdgePanParameters)

    public var kind: RecognizerKind {
        switch self {
        case .tap: .tap
        case .longPress: .longPress
        case .pan: .pan
        case .swipe: .swipe
        case .pinch: .pinch
        case .rotation: .rotation
        case .edgePan: .edgePan
        }
    }

    /// These values with the ones set in `parameters` in their place.
    public func overridden(by parameters: RecognizerParameters) -> ResolvedParameters {
        let p = parameters
        switch self {
        case .tap(let base):
            return .tap(TapParameters(taps: p.taps ?? base.taps, touches: p.touches ?? base.touches,
                                      maxMovement: p.maxMovement ?? base.maxMovement,
                                      maxDuration: p.maxDuration ?? base.maxDuration,
                                      maxInterval: p.maxInterval ?? base.maxInterval))
        case .longPress(let base):
            var longPress = base
            longPress.taps = p.taps ?? base.taps
            longPress.touches = p.touches ?? base.touches
            longPress.minimumDuration = p.minimumDuration ?? base.minimumDuration
            longPress.allowableMovement = p.allowableMovement ?? base.allowableMovement
            return .longPress(longPress)
        case .pan(let base):
            return .pan(PanParameters(minimumTouches: p.minimumTouches ?? base.minimumTouches,
                                      maximumTouches: p.maximumTouches ?? base.maximumTouches,
                                      slop: p.slop ?? base.slop))
        case .swipe(let base):
            return .swipe(SwipeParameters(directions: p.direction ?? base.directions, touches: p.touches ?? base.touches,
                                          minimumDistance: p.minimumDistance ?? base.minimumDistance,
                                          minimumVelocity: p.minimumVelocity ?? base.minimumVelocity,
                                          maxDuration: p.maxDuration ?? base.maxDuration))
        case .pinch(let base):
            return .pinch(PinchParameters(minimumScaleChange: p.minimumScaleChange ?? base.minimumScaleChange))
        case .rotation(let base):
            return .rotation(RotationParameters(minimumRotation: p.minimumRotation ?? base.minimumRotation))
        case .edgePan(let base):
            return .edgePan(EdgePanParameters(edges: p.edges ?? base.edges, edgeWidth: p.edgeWidth ?? base.edgeWidth,
                                              slop: p.slop ?? base.slop))
        }
    }

    /// The same values as configuration keys: every key of ``RecognizerParameters/keys(for:)``
    /// of the kind is set, no other.
    public var parameters: RecognizerParameters {
        switch self {
        case .tap(let t):
            RecognizerParameters(taps: t.taps, maxMovement: t.maxMovement, maxDuration: t.maxDuration,
                                 maxInterval: t.maxInterval, touches: t.touches)
        case .longPress(let l):
            RecognizerParameters(taps: l.taps, touches: l.touches, minimumDuration: l.minimumDuration,
                                 allowableMovement: l.allowableMovement)
        case .pan(let p):
            RecognizerParameters(minimumTouches: p.minimumTouches, maximumTouches: p.maximumTouches, slop: p.slop)
        case .swipe(let s):
            RecognizerParameters(maxDuration: s.maxDuration, touches: s.touches, direction: s.directions,
                                 minimumDistance: s.minimumDistance, minimumVelocity: s.minimumVelocity)
        case .pinch(let p):
            RecognizerParameters(minimumScaleChange: p.minimumScaleChange)
        case .rotation(let r):
            RecognizerParameters(minimumRotation: r.minimumRotation)
        case .edgePan(let e):
            RecognizerParameters(slop: e.slop, edges: e.edges, edgeWidth: e.edgeWidth)
        }
    }
}

/// The payloads below have only their memberwise initializer: they are made here and in
/// ``GestureSettings``, nowhere else.

/// A tap's parameters in force (``TapRecognizer``).
public struct TapParameters: Hashable, Sendable {
    public var taps: Int
    public var touches: Int
    public var maxMovement: Double
    public var maxDuration: Double
    public var maxInterval: Double
}

/// A long press's parameters in force (``LongPressRecognizer``). Its taps before the press
/// follow the tap rules of the configuration (`gestures.tap`'s `maxMovement`, `maxDuration`
/// and `maxInterval`, else the tap defaults), as a multi-tap's do: they are not long press
/// keys (``GestureSettings/resolved(_:)`` fills them in).
public struct LongPressParameters: Hashable, Sendable {
    /// `numberOfTapsRequired`: taps before the finger touches down again and holds; 0 (UIKit's
    /// default) for a plain press.
    public var taps: Int
    public var touches: Int
    public var minimumDuration: Double
    public var allowableMovement: Double
    /// How far each tap's fingers may move, and how far each later tap (and the press) may
    /// land from the first tap's place, in points.
    public var tapMaxMovement: Double
    /// How long each tap may last, in seconds.
    public var tapMaxDuration: Double
    /// How soon after a tap's end the next tap (or the press) must begin, in seconds.
    public var tapMaxInterval: Double
}

/// A pan's parameters in force (``PanRecognizer``).
public struct PanParameters: Hashable, Sendable {
    public var minimumTouches: Int
    public var maximumTouches: Int
    public var slop: Double
}

/// A swipe's parameters in force (``SwipeRecognizer``); `directions` is the `direction` key.
public struct SwipeParameters: Hashable, Sendable {
    public var directions: [SwipeDirection]
    public var touches: Int
    public var minimumDistance: Double
    public var minimumVelocity: Double
    public var maxDuration: Double
}

/// A pinch's parameters in force (``PinchMeasure``).
public struct PinchParameters: Hashable, Sendable {
    public var minimumScaleChange: Double
}

/// A rotation's parameters in force (``RotationMeasure``).
public struct RotationParameters: Hashable, Sendable {
    public var minimumRotation: Double
}

/// An edge pan's parameters in force (``EdgePanRecognizer``).
public struct EdgePanParameters: Hashable, Sendable {
    public var edges: [ScreenEdge]
    public var edgeWidth: Double
    public var slop: Double
}
