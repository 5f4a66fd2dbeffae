/// Every slop, timeout and threshold of the engine, with its unit and where the number came
/// from, in one place; each recognizer kind's own defaults are in its file
/// (``RecognizerKindMachine/defaults``). The configuration's `gestures` section overrides the
/// recognizer defaults per kind, and each recognizer may override them again for itself.
public struct GestureSettings: Hashable, Sendable {
    /// Global overrides per recognizer type (`gestures.tap`, …).
    public var overrides: [RecognizerKind: RecognizerParameters]
    /// How far (points) outside a control's bounds a tracked touch still counts as inside.
    /// 70 pt: docs/touches.md § Controls, UIKit's observed `UIControl` tracking slop.
    public var trackingSlop: Double
    /// `UITouch.tapCount`: a touch continues a tap sequence when it begins within this many
    /// seconds after the previous tap on the same view ended. 0.35 s: the tap's `maxInterval`
    /// (docs/recognizers-and-arbitration.md § Built-in recognizers).
    public var touchTapInterval: Double
    /// …and within this many points of where the previous tap began. 45 pt: the tap's
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

    /// The built-in defaults of a recognizer kind, completed as a recognizer with no values
    /// of its own and no overrides gets them.
    public static func defaults(for kind: RecognizerKind) -> ResolvedParameters {
        GestureSettings().resolved(RecognizerSpec(id: "", kind: kind))
    }

    /// The parameters in force for a recognizer: its own values, then the global overrides of
    /// its kind, then the kind's defaults; keys the kind does not take are left out.
    public func resolved(_ spec: RecognizerSpec) -> ResolvedParameters {
        let machine = spec.kind.machine
        var values = machine.defaults
        if let global = overrides[spec.kind] { values = global.overriding(values) }
        values = spec.parameters.overriding(values)
        var own = RecognizerParameters()
        for key in machine.parameterKeys { own[key.name] = values[key.name] }
        return ResolvedParameters(kind: spec.kind, values: machine.completing(own, settings: self))
    }
}
