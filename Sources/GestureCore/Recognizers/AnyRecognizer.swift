/// One recognizer state machine of any built-in kind, so the arena can hold them in one
/// array without existentials; every call dispatches with a switch.
///
/// How to drive it (docs/recognizers.md § Driving a machine): give it, per input frame, the
/// frame's touch changes for the touches attached to it, in frame order, then `.frameEnd`
/// with the frame's time. Before a frame at time t, give `.deadline(d)` for a reported
/// `deadline` d ≤ t (a machine also fires an overdue deadline itself when an input at or
/// after it arrives). After a terminal verdict it returns `.none` to everything, still
/// forgetting touches that end; call `reset()` once `trackedTouchCount` is 0.
public struct AnyRecognizer: Sendable {
    private enum Machine: Sendable {
        case tap(TapRecognizer)
        case longPress(LongPressRecognizer)
        case pan(PanRecognizer)
        case swipe(SwipeRecognizer)
        case pinch(PinchRecognizer)
        case rotation(RotationRecognizer)
        case edgePan(EdgePanRecognizer)
        /// Only while `handle` or `reset` mutates the payload: taking it out leaves this in
        /// its place so the payload's touch buffers stay uniquely referenced and are
        /// mutated in place instead of copied.
        case vacant
    }

    public let kind: RecognizerKind
    private var machine: Machine

    /// `parameters` as resolved by ``GestureSettings/resolved(_:)``.
    public init(kind: RecognizerKind, parameters: RecognizerParameters, context: RecognizerContext) {
        self.kind = kind
        switch kind {
        case .tap: machine = .tap(TapRecognizer(parameters: parameters, context: context))
        case .longPress: machine = .longPress(LongPressRecognizer(parameters: parameters, context: context))
        case .pan: machine = .pan(PanRecognizer(parameters: parameters, context: context))
        case .swipe: machine = .swipe(SwipeRecognizer(parameters: parameters, context: context))
        case .pinch: machine = .pinch(PinchRecognizer(parameters: parameters, context: context))
        case .rotation: machine = .rotation(RotationRecognizer(parameters: parameters, context: context))
        case .edgePan: machine = .edgePan(EdgePanRecognizer(parameters: parameters, context: context))
        }
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerVerdict {
        switch machine {
        case .tap(var m):
            machine = .vacant
            defer { machine = .tap(m) }
            return m.handle(input)
        case .longPress(var m):
            machine = .vacant
            defer { machine = .longPress(m) }
            return m.handle(input)
        case .pan(var m):
            machine = .vacant
            defer { machine = .pan(m) }
            return m.handle(input)
        case .swipe(var m):
            machine = .vacant
            defer { machine = .swipe(m) }
            return m.handle(input)
        case .pinch(var m):
            machine = .vacant
            defer { machine = .pinch(m) }
            return m.handle(input)
        case .rotation(var m):
            machine = .vacant
            defer { machine = .rotation(m) }
            return m.handle(input)
        case .edgePan(var m):
            machine = .vacant
            defer { machine = .edgePan(m) }
            return m.handle(input)
        case .vacant:
            preconditionFailure("AnyRecognizer used while its machine is being mutated")
        }
    }

    public mutating func reset() {
        switch machine {
        case .tap(var m): machine = .vacant; m.reset(); machine = .tap(m)
        case .longPress(var m): machine = .vacant; m.reset(); machine = .longPress(m)
        case .pan(var m): machine = .vacant; m.reset(); machine = .pan(m)
        case .swipe(var m): machine = .vacant; m.reset(); machine = .swipe(m)
        case .pinch(var m): machine = .vacant; m.reset(); machine = .pinch(m)
        case .rotation(var m): machine = .vacant; m.reset(); machine = .rotation(m)
        case .edgePan(var m): machine = .vacant; m.reset(); machine = .edgePan(m)
        case .vacant: preconditionFailure("AnyRecognizer used while its machine is being mutated")
        }
    }

    /// The current values (valid after began/changed/ended/recognized).
    public var values: GestureValues {
        switch machine {
        case .tap(let m): m.values
        case .longPress(let m): m.values
        case .pan(let m): m.values
        case .swipe(let m): m.values
        case .pinch(let m): m.values
        case .rotation(let m): m.values
        case .edgePan(let m): m.values
        case .vacant: GestureValues()
        }
    }

    /// The next time the machine needs a `.deadline` input, or nil.
    public var deadline: Timestamp? {
        switch machine {
        case .tap(let m): m.deadline
        case .longPress(let m): m.deadline
        case .pan(let m): m.deadline
        case .swipe(let m): m.deadline
        case .pinch(let m): m.deadline
        case .rotation(let m): m.deadline
        case .edgePan(let m): m.deadline
        case .vacant: nil
        }
    }

    /// The touches it holds (down, delivered to it), in the order they began. Allocates:
    /// prefer `trackedTouchCount` and `isTracking(_:)` per frame.
    public var trackedTouches: [TouchID] {
        switch machine {
        case .tap(let m): m.trackedTouches
        case .longPress(let m): m.trackedTouches
        case .pan(let m): m.trackedTouches
        case .swipe(let m): m.trackedTouches
        case .pinch(let m): m.trackedTouches
        case .rotation(let m): m.trackedTouches
        case .edgePan(let m): m.trackedTouches
        case .vacant: []
        }
    }

    public var trackedTouchCount: Int {
        switch machine {
        case .tap(let m): m.trackedTouchCount
        case .longPress(let m): m.trackedTouchCount
        case .pan(let m): m.trackedTouchCount
        case .swipe(let m): m.trackedTouchCount
        case .pinch(let m): m.trackedTouchCount
        case .rotation(let m): m.trackedTouchCount
        case .edgePan(let m): m.trackedTouchCount
        case .vacant: 0
        }
    }

    public func isTracking(_ touch: TouchID) -> Bool {
        switch machine {
        case .tap(let m): m.isTracking(touch)
        case .longPress(let m): m.isTracking(touch)
        case .pan(let m): m.isTracking(touch)
        case .swipe(let m): m.isTracking(touch)
        case .pinch(let m): m.isTracking(touch)
        case .rotation(let m): m.isTracking(touch)
        case .edgePan(let m): m.isTracking(touch)
        case .vacant: false
        }
    }

    /// After a terminal verdict, until `reset()`.
    public var isFinished: Bool {
        switch machine {
        case .tap(let m): m.isFinished
        case .longPress(let m): m.isFinished
        case .pan(let m): m.isFinished
        case .swipe(let m): m.isFinished
        case .pinch(let m): m.isFinished
        case .rotation(let m): m.isFinished
        case .edgePan(let m): m.isFinished
        case .vacant: false
        }
    }

    /// Impossible inputs ignored so far (never reset): a sign of an arena or input bug.
    public var anomalies: Int {
        switch machine {
        case .tap(let m): m.anomalies
        case .longPress(let m): m.anomalies
        case .pan(let m): m.anomalies
        case .swipe(let m): m.anomalies
        case .pinch(let m): m.anomalies
        case .rotation(let m): m.anomalies
        case .edgePan(let m): m.anomalies
        case .vacant: 0
        }
    }
}
