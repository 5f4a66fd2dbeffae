/// The built-in recognizer types (SPEC 5.7).
public enum RecognizerKind: String, Hashable, Sendable, CaseIterable {
    case tap, longPress, pan, swipe, pinch, rotation, edgePan

    /// Discrete recognizers go `possible → recognized | failed`; the others are continuous.
    public var isDiscrete: Bool { self == .tap || self == .swipe }
}

/// A swipe direction.
public enum SwipeDirection: String, Hashable, Sendable, CaseIterable {
    case right, left, up, down
}

/// A screen edge, for edge pans.
public enum ScreenEdge: String, Hashable, Sendable, CaseIterable {
    case left, right, top, bottom
}

/// A gesture recognizer attached to a view, as the layout declares it (SPEC 5.7).
public struct RecognizerSpec: Hashable, Sendable {
    /// Unique in the layout; names the recognizer in every gesture event.
    public var id: String
    public var kind: RecognizerKind
    public var enabled: Bool
    /// `nil`: the default (`true`).
    public var cancelsTouchesInView: Bool?
    /// `nil`: the default (`false`).
    public var delaysTouchesBegan: Bool?
    /// `nil`: the default (`true`).
    public var delaysTouchesEnded: Bool?
    public var requireToFail: [String]
    public var simultaneousWith: [String]
    /// This recognizer's own parameter values; anything unset comes from the global
    /// `gestures` overrides, then from ``GestureSettings`` defaults.
    public var parameters: RecognizerParameters
    /// A *claiming* recognizer (docs/routing.md): when it begins or recognizes, its touches
    /// become gestured's alone, forwarded ones cancelled on the virtual panel. `nil`: `false`.
    public var claims: Bool?

    public init(id: String, kind: RecognizerKind, enabled: Bool = true, cancelsTouchesInView: Bool? = nil,
                delaysTouchesBegan: Bool? = nil, delaysTouchesEnded: Bool? = nil, requireToFail: [String] = [],
                simultaneousWith: [String] = [], parameters: RecognizerParameters = RecognizerParameters(),
                claims: Bool? = nil) {
        self.id = id
        self.kind = kind
        self.enabled = enabled
        self.cancelsTouchesInView = cancelsTouchesInView
        self.delaysTouchesBegan = delaysTouchesBegan
        self.delaysTouchesEnded = delaysTouchesEnded
        self.requireToFail = requireToFail
        self.simultaneousWith = simultaneousWith
        self.parameters = parameters
        self.claims = claims
    }
}

/// Parameter values of recognizers, each optional: used both for one recognizer's own values
/// and for the global overrides of one recognizer type (`gestures.tap`, …). Which keys a type
/// accepts is listed in ``RecognizerParameters/keys(for:)``. Durations are in seconds,
/// distances in points, velocities in points per second.
public struct RecognizerParameters: Hashable, Sendable {
    // tap, longPress
    public var taps: Int?
    public var maxMovement: Double?
    public var maxDuration: Double?
    public var maxInterval: Double?
    // tap, longPress, swipe
    public var touches: Int?
    // longPress
    public var minimumDuration: Double?
    public var allowableMovement: Double?
    // pan, edgePan
    public var minimumTouches: Int?
    public var maximumTouches: Int?
    public var slop: Double?
    // swipe
    public var direction: [SwipeDirection]?
    public var minimumDistance: Double?
    public var minimumVelocity: Double?
    // pinch, rotation
    public var minimumScaleChange: Double?
    public var minimumRotation: Double?
    // edgePan
    public var edges: [ScreenEdge]?
    public var edgeWidth: Double?

    public init(taps: Int? = nil, maxMovement: Double? = nil, maxDuration: Double? = nil, maxInterval: Double? = nil,
                touches: Int? = nil, minimumDuration: Double? = nil, allowableMovement: Double? = nil,
                minimumTouches: Int? = nil, maximumTouches: Int? = nil, slop: Double? = nil,
                direction: [SwipeDirection]? = nil, minimumDistance: Double? = nil, minimumVelocity: Double? = nil,
                minimumScaleChange: Double? = nil, minimumRotation: Double? = nil, edges: [ScreenEdge]? = nil, edgeWidth: Double? = nil) {
        self.taps = taps
        self.maxMovement = maxMovement
        self.maxDuration = maxDuration
        self.maxInterval = maxInterval
        self.touches = touches
        self.minimumDuration = minimumDuration
        self.allowableMovement = allowableMovement
        self.minimumTouches = minimumTouches
        self.maximumTouches = maximumTouches
        self.slop = slop
        self.direction = direction
        self.minimumDistance = minimumDistance
        self.minimumVelocity = minimumVelocity
        self.minimumScaleChange = minimumScaleChange
        self.minimumRotation = minimumRotation
        self.edges = edges
        self.edgeWidth = edgeWidth
    }

    /// The parameters a recognizer type accepts, as spelled in configuration files, with
    /// where each value goes. Configuration decoding is driven by this table.
    public static func keys(for kind: RecognizerKind) -> [ParameterKey] {
        switch kind {
        case .tap:
            [.init("taps", .count(\.taps)), .init("touches", .count(\.touches)),
             .init("maxMovement", .points(\.maxMovement)), .init("maxDuration", .seconds(\.maxDuration)),
             .init("maxInterval", .seconds(\.maxInterval))]
        case .longPress:
            [.init("minimumDuration", .seconds(\.minimumDuration)),
             .init("allowableMovement", .points(\.allowableMovement)), .init("touches", .count(\.touches)),
             .init("taps", .count(\.taps))]
        case .pan:
            [.init("minimumTouches", .count(\.minimumTouches)), .init("maximumTouches", .count(\.maximumTouches)),
             .init("slop", .points(\.slop))]
        case .swipe:
            [.init("direction", .directions(\.direction)), .init("touches", .count(\.touches)),
             .init("minimumDistance", .points(\.minimumDistance)),
             .init("minimumVelocity", .pointsPerSecond(\.minimumVelocity)),
             .init("maxDuration", .seconds(\.maxDuration))]
        case .pinch:
            [.init("minimumScaleChange", .ratio(\.minimumScaleChange))]
        case .rotation:
            [.init("minimumRotation", .radians(\.minimumRotation))]
        case .edgePan:
            // No finger counts: an edge pan follows its first finger only (Apple).
            [.init("edges", .edges(\.edges)), .init("edgeWidth", .points(\.edgeWidth)),
             .init("slop", .points(\.slop))]
        }
    }

    /// Values set here win over values set in `base`.
    public func overriding(_ base: RecognizerParameters) -> RecognizerParameters {
        RecognizerParameters(
            taps: taps ?? base.taps, maxMovement: maxMovement ?? base.maxMovement,
            maxDuration: maxDuration ?? base.maxDuration, maxInterval: maxInterval ?? base.maxInterval,
            touches: touches ?? base.touches, minimumDuration: minimumDuration ?? base.minimumDuration,
            allowableMovement: allowableMovement ?? base.allowableMovement,
            minimumTouches: minimumTouches ?? base.minimumTouches, maximumTouches: maximumTouches ?? base.maximumTouches,
            slop: slop ?? base.slop, direction: direction ?? base.direction,
            minimumDistance: minimumDistance ?? base.minimumDistance,
            minimumVelocity: minimumVelocity ?? base.minimumVelocity,
            minimumScaleChange: minimumScaleChange ?? base.minimumScaleChange,
            minimumRotation: minimumRotation ?? base.minimumRotation,
            edges: edges ?? base.edges, edgeWidth: edgeWidth ?? base.edgeWidth)
    }
}

/// One configurable parameter of a recognizer type: its name in configuration files, and the
/// kind and destination of its value.
public struct ParameterKey {
    public var name: String
    public var slot: ParameterSlot

    public init(_ name: String, _ slot: ParameterSlot) {
        self.name = name
        self.slot = slot
    }
}

/// Where a parameter value goes, and in which unit it is stated.
public enum ParameterSlot {
    /// A whole number in ``LayoutValidator/countRange(_:of:)`` (taps, touches).
    case count(WritableKeyPath<RecognizerParameters, Int?>)
    /// Seconds, at least 0.
    case seconds(WritableKeyPath<RecognizerParameters, Double?>)
    /// Points, at least 0.
    case points(WritableKeyPath<RecognizerParameters, Double?>)
    /// Points per second, at least 0.
    case pointsPerSecond(WritableKeyPath<RecognizerParameters, Double?>)
    /// Radians, at least 0.
    case radians(WritableKeyPath<RecognizerParameters, Double?>)
    /// A dimensionless ratio, at least 0.
    case ratio(WritableKeyPath<RecognizerParameters, Double?>)
    /// A non-empty array of `right`, `left`, `up`, `down`.
    case directions(WritableKeyPath<RecognizerParameters, [SwipeDirection]?>)
    /// A non-empty array of `left`, `right`, `top`, `bottom`.
    case edges(WritableKeyPath<RecognizerParameters, [ScreenEdge]?>)
}
