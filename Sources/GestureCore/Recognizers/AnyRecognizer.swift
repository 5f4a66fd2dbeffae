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
    // One optional per kind, only `kind`'s set (by `init`, the only writer of which one is).
    // Unlike an enum payload, a machine behind `machine!` is mutated in place. Measured
    // (callgrind, `gestured replay --config config/map.json5 wacom-dth2242-finger.10f.evemu`):
    // an enum of the seven machines, mutated through `switch consume self` and put back, moves
    // the 200–300-byte machine out and back on every input and costs 119.6 M instructions
    // against 111.1 M for this representation (+7.6 %), so the optionals stay.
    private var tap: TapRecognizer?
    private var longPress: LongPressRecognizer?
    private var pan: PanRecognizer?
    private var swipe: SwipeRecognizer?
    private var pinch: PinchRecognizer?
    private var rotation: RotationRecognizer?
    private var edgePan: EdgePanRecognizer?

    public let kind: RecognizerKind
    /// The next time the machine needs a `.deadline` input, or nil. Kept here after every
    /// input, because the arena asks for it twice per frame for every recognizer and reading
    /// it through the machine copies the machine.
    public private(set) var deadline: Timestamp?
    /// Impossible inputs ignored so far (never reset): a sign of an arena or input bug. Kept
    /// here after every input, like ``deadline``.
    public private(set) var anomalies = 0

    /// `parameters` as resolved by ``GestureSettings/resolved(_:)``.
    public init(parameters: ResolvedParameters, context: RecognizerContext) {
        kind = parameters.kind
        switch parameters {
        case .tap(let p): tap = TapRecognizer(parameters: p, context: context)
        case .longPress(let p): longPress = LongPressRecognizer(parameters: p, context: context)
        case .pan(let p): pan = PanRecognizer(parameters: p, context: context)
        case .swipe(let p): swipe = SwipeRecognizer(parameters: p, context: context)
        case .pinch(let p): pinch = PinchRecognizer(parameters: p, context: context)
        case .rotation(let p): rotation = RotationRecognizer(parameters: p, context: context)
        case .edgePan(let p): edgePan = EdgePanRecognizer(parameters: p, context: context)
        }
        deadline = nil
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerVerdict {
        let verdict: RecognizerVerdict
        // The machine's deadline and anomaly count are read within the same in-place access as
        // its input: `pinch!.deadline` on its own copied the optional machine to read a field.
        switch kind {
        case .tap: verdict = tap!.handle(input, deadline: &deadline, anomalies: &anomalies)
        case .longPress: verdict = longPress!.handle(input, deadline: &deadline, anomalies: &anomalies)
        case .pan: verdict = pan!.handle(input, deadline: &deadline, anomalies: &anomalies)
        case .swipe: verdict = swipe!.handle(input, deadline: &deadline, anomalies: &anomalies)
        case .pinch: verdict = pinch!.handle(input, deadline: &deadline, anomalies: &anomalies)
        case .rotation: verdict = rotation!.handle(input, deadline: &deadline, anomalies: &anomalies)
        case .edgePan: verdict = edgePan!.handle(input, deadline: &deadline, anomalies: &anomalies)
        }
        return verdict
    }

    /// A move of `sample`'s touch, answered without ``handle(_:)`` when the machine does not
    /// judge moves (a pan, a pinch, a rotation: they judge movement at the frame's end) and
    /// no deadline is due: its touch table is updated, as `handle` would, and it returns true.
    /// False, having done nothing, for the other machines: give them `handle(.touchMoved)`.
    @inline(__always)
    mutating func moveQuietly(_ sample: TouchSample) -> Bool {
        if let deadline, sample.time >= deadline { return false }
        switch kind {
        case .pan where !PanRecognizer.judgesMoves:
            pan!.moveQuietly(sample, anomalies: &anomalies)
        case .pinch where !PinchRecognizer.judgesMoves:
            pinch!.moveQuietly(sample, anomalies: &anomalies)
        case .rotation where !RotationRecognizer.judgesMoves:
            rotation!.moveQuietly(sample, anomalies: &anomalies)
        default:
            return false
        }
        return true
    }

    public mutating func reset() {
        switch kind {
        case .tap: tap!.reset(); deadline = tap!.deadline
        case .longPress: longPress!.reset(); deadline = longPress!.deadline
        case .pan: pan!.reset(); deadline = pan!.deadline
        case .swipe: swipe!.reset(); deadline = swipe!.deadline
        case .pinch: pinch!.reset(); deadline = pinch!.deadline
        case .rotation: rotation!.reset(); deadline = rotation!.deadline
        case .edgePan: edgePan!.reset(); deadline = edgePan!.deadline
        }
    }

    /// The current values (valid after began/changed/ended/recognized).
    /// ``values`` read in place: each machine is reached through a mutating access, which the
    /// language makes in place, where reading `pan!.values` copied the optional machine out
    /// (and, from a slot in the arena's array, the whole slot) for every gesture event.
    public mutating func valuesInPlace() -> GestureValues {
        switch kind {
        case .tap: tap!.valuesInPlace()
        case .longPress: longPress!.valuesInPlace()
        case .pan: pan!.valuesInPlace()
        case .swipe: swipe!.valuesInPlace()
        case .pinch: pinch!.valuesInPlace()
        case .rotation: rotation!.valuesInPlace()
        case .edgePan: edgePan!.valuesInPlace()
        }
    }

    public var values: GestureValues {
        switch kind {
        case .tap: tap!.values
        case .longPress: longPress!.values
        case .pan: pan!.values
        case .swipe: swipe!.values
        case .pinch: pinch!.values
        case .rotation: rotation!.values
        case .edgePan: edgePan!.values
        }
    }


    /// The machine's touch table: the touches it holds, in the order they began, and which
    /// of them it holds aside.
    private var touchTable: RecognizerTouches {
        switch kind {
        case .tap: tap!.touches
        case .longPress: longPress!.touches
        case .pan: pan!.touches
        case .swipe: swipe!.touches
        case .pinch: pinch!.touches
        case .rotation: rotation!.touches
        case .edgePan: edgePan!.touches
        }
    }

    /// The touches it holds (down, delivered to it), in the order they began. Allocates:
    /// prefer `trackedTouchCount` and `isTracking(_:)` per frame.
    public var trackedTouches: [TouchID] { touchTable.ids }

    public var trackedTouchCount: Int { touchTable.count }

    public func isTracking(_ touch: TouchID) -> Bool { touchTable.index(of: touch) != nil }

    /// Whether it holds `touch` aside, not as part of its gesture: a finger beyond the ones
    /// it follows (SPEC 5.2). Such a touch reaches the views as if the recognizer were not there.
    public func isIgnoring(_ touch: TouchID) -> Bool { touchTable.isIgnored(touch) }

    /// Whether it holds `touch`, and holds it aside: ``isTracking(_:)`` and
    /// ``isIgnoring(_:)`` in one search, with the machine read in place (those two copy the
    /// machine's touch table out of it, twice per touch that begins or ends, for every
    /// recognizer of the touch).
    mutating func touchStatusInPlace(_ touch: TouchID) -> (tracking: Bool, ignoring: Bool) {
        switch kind {
        case .tap: tap!.touchStatusInPlace(touch)
        case .longPress: longPress!.touchStatusInPlace(touch)
        case .pan: pan!.touchStatusInPlace(touch)
        case .swipe: swipe!.touchStatusInPlace(touch)
        case .pinch: pinch!.touchStatusInPlace(touch)
        case .rotation: rotation!.touchStatusInPlace(touch)
        case .edgePan: edgePan!.touchStatusInPlace(touch)
        }
    }

    /// ``isFinished`` with the machine read in place: `tap!.isFinished` copies the machine
    /// (a touch that begins asks it of every recognizer of its view and their ancestors).
    mutating func isFinishedInPlace() -> Bool {
        switch kind {
        case .tap: tap!.isFinishedInPlace()
        case .longPress: longPress!.isFinishedInPlace()
        case .pan: pan!.isFinishedInPlace()
        case .swipe: swipe!.isFinishedInPlace()
        case .pinch: pinch!.isFinishedInPlace()
        case .rotation: rotation!.isFinishedInPlace()
        case .edgePan: edgePan!.isFinishedInPlace()
        }
    }

    /// After a terminal verdict, until `reset()`.
    public var isFinished: Bool {
        switch kind {
        case .tap: tap!.isFinished
        case .longPress: longPress!.isFinished
        case .pan: pan!.isFinished
        case .swipe: swipe!.isFinished
        case .pinch: pinch!.isFinished
        case .rotation: rotation!.isFinished
        case .edgePan: edgePan!.isFinished
        }
    }
}

/// A machine whose values a gesture event reports, read through ``valuesInPlace()``.
protocol ReportsGestureValues {
    var values: GestureValues { get }
}

extension ReportsGestureValues {
    /// Mutating only so that its caller reaches the machine in place (see
    /// ``AnyRecognizer/valuesInPlace()``); it changes nothing.
    mutating func valuesInPlace() -> GestureValues { values }
}

extension TapRecognizer: ReportsGestureValues {}
extension LongPressRecognizer: ReportsGestureValues {}
extension PanRecognizer: ReportsGestureValues {}
extension SwipeRecognizer: ReportsGestureValues {}
extension TwoFingerRecognizer: ReportsGestureValues {}
extension EdgePanRecognizer: ReportsGestureValues {}

/// A machine whose touch table and end ``AnyRecognizer`` reads in place.
protocol ReportsTouches {
    var touches: RecognizerTouches { get }
    var isFinished: Bool { get }
}

extension ReportsTouches {
    /// Mutating only so that its caller reaches the machine in place (see
    /// ``AnyRecognizer/touchStatusInPlace(_:)``); it changes nothing.
    mutating func touchStatusInPlace(_ touch: TouchID) -> (tracking: Bool, ignoring: Bool) {
        guard let index = touches.index(of: touch) else { return (false, false) }
        return (true, touches.entries[index].ignored)
    }

    /// Mutating only so that its caller reaches the machine in place; it changes nothing.
    mutating func isFinishedInPlace() -> Bool { isFinished }
}

extension TapRecognizer: ReportsTouches {}
extension LongPressRecognizer: ReportsTouches {}
extension PanRecognizer: ReportsTouches {}
extension SwipeRecognizer: ReportsTouches {}
extension TwoFingerRecognizer: ReportsTouches {}
extension EdgePanRecognizer: ReportsTouches {}

/// A machine as ``AnyRecognizer`` drives it: an input, then the deadline and anomaly count it
/// keeps beside the machine.
protocol DrivenMachine {
    mutating func handle(_ input: RecognizerInput) -> RecognizerVerdict
    var deadline: Timestamp? { get }
    var anomalies: Int { get }
}

extension DrivenMachine {
    /// ``handle(_:)``, then the machine's deadline and anomaly count handed out, all within
    /// one mutating access: read on their own afterwards (`pinch!.deadline`), each copied the
    /// optional machine.
    @inline(__always)
    mutating func handle(_ input: RecognizerInput, deadline: inout Timestamp?, anomalies: inout Int) -> RecognizerVerdict {
        let verdict = handle(input)
        deadline = self.deadline
        anomalies = self.anomalies
        return verdict
    }
}

extension TapRecognizer: DrivenMachine {}
extension LongPressRecognizer: DrivenMachine {}
extension PanRecognizer: DrivenMachine {}
extension SwipeRecognizer: DrivenMachine {}
extension TwoFingerRecognizer: DrivenMachine {}
extension EdgePanRecognizer: DrivenMachine {}
