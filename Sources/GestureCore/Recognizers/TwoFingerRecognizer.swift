/// What a two-finger recognizer measures on the line between its two fingers: the pinch its
/// length (``PinchMeasure``), the rotation its turn (``RotationMeasure``). Everything else
/// about two-finger gestures, which fingers they follow and when they begin and end, is
/// ``TwoFingerRecognizer``'s and the same for both.
protocol PairMeasure: Sendable {
    /// A measure with `threshold` (its one parameter, ``threshold``) in force.
    init(threshold: Double)
    /// A pair formed with `line` from its first finger to its second: measuring starts here.
    mutating func start(line: Point)
    /// Brings the measure up to date with the line now; returns its value, or nil while the
    /// line gives nothing to measure yet (the fingers on one point).
    mutating func update(line: Point) -> Double?
    /// Whether `value` is far enough from where measuring started for the gesture to begin.
    func begins(at value: Double) -> Bool
    /// The value as a gesture event carries it, with its rate per second.
    static func store(_ value: Double, velocity: Double, in values: inout GestureValues)
    /// The value last stored in `values`.
    static func stored(in values: GestureValues) -> Double?

    /// The kind's quoted name (``RecognizerKindMachine``).
    static var quotedName: StaticString { get }
    /// The kind's one parameter: how far the value must go before the gesture begins.
    static var threshold: ParameterKey { get }
    /// Its built-in value (where the number came from, beside it in the measure's file).
    static var defaultThreshold: Double { get }
}

extension PairMeasure {
    /// The one parameter, ``threshold``.
    static var parameterKeys: [ParameterKey] { [threshold] }
    static var defaults: RecognizerParameters { RecognizerParameters([threshold.name: .number(defaultThreshold)]) }
}

/// Recognizes two fingers whose line changes — in length for a pinch
/// (UIPinchGestureRecognizer), in direction for a rotation (UIRotationGestureRecognizer); a
/// continuous recognizer, transitions in docs/recognizers.md § Pinch and rotation.
///
/// It follows the first two fingers that land, as UIKit's do: any further finger is held but
/// ignored, in every state, so it reaches the views as if the recognizer were not there.
/// Before it began, one of the two lifting re-forms the pair with the earliest finger still
/// down (or waits for a new one); after it began, the values stay as they were when the first
/// of the two lifted, and it ends when both have lifted (Apple: "the gesture ends when both
/// fingers lift"). Either of the two cancelled cancels it.
struct TwoFingerRecognizer<Measure: PairMeasure>: FinishingMachine, Sendable {
    /// Where the machine is; each case carries only what is valid in it.
    enum State: Sendable {
        /// No finger of the gesture down.
        case ready
        /// One finger down, waiting for the second.
        case oneFinger
        /// Two fingers down, not yet changed enough.
        case possible(Pair)
        /// Began; `lifted` is the finger of the pair that lifted first, after which the
        /// values stay as they were.
        case began(Pair, lifted: TouchID?)
        /// Ended, cancelled or failed: ignores inputs until `reset()`.
        case finished
    }

    /// The two fingers of the gesture and what is measured on their line.
    struct Pair: Sendable {
        var fingers: FingerPair
        var measure: Measure
    }

    /// The measure's threshold in force (``PairMeasure/threshold``).
    let threshold: Double
    var state: State = .ready
    static var finished: State { .finished }
    var touches: RecognizerTouches
    private var tracker = VelocityTracker()
    public private(set) var values = GestureValues()
    /// Impossible inputs ignored so far; kept across `reset()`.
    public internal(set) var anomalies = 0
    /// Why it last failed or was cancelled (docs/recognizers.md § Why a recognizer failed).
    var failure: FailureReason?

    public init(threshold: Double, context: RecognizerContext) {
        self.threshold = threshold
        touches = RecognizerTouches(capacity: 4)
    }

    /// Two-finger gestures never wait for time.
    public var deadline: Timestamp? { nil }

    /// A move only updates the touch table: both fingers are judged at the frame's end.
    static var judgesMoves: Bool { false }

    /// Ended, cancelled or failed: the arena resets it once its touches have ended.
    public var isFinished: Bool { if case .finished = state { true } else { false } }

    /// Back to `possible`, forgetting every touch and sample.
    public mutating func reset() {
        state = .ready
        touches.removeAll()
        tracker.clear()
        values = GestureValues()
    }

    mutating func transition(_ input: RecognizerInput) -> RecognizerVerdict {
        switch (state, input) {
        case (.ready, .touchBegan):
            state = .oneFinger
            return .none
        case (.ready, .touchMoved), (.ready, .touchEnded), (.ready, .touchCancelled):
            return .none // unreachable: accepts() rejects touches it never saw
        case (.ready, .frameEnd), (.ready, .deadline):
            return .none

        case (.oneFinger, .touchBegan(let s)):
            guard let fingers = FingerPair(completedBy: s, in: touches) else { return .none }
            state = .possible(pair(of: fingers))
            return .none
        case (.oneFinger, .touchMoved), (.oneFinger, .frameEnd), (.oneFinger, .deadline):
            return .none
        case (.oneFinger, .touchEnded):
            return fail(.liftedBeforeBegan) // its only finger is gone
        case (.oneFinger, .touchCancelled):
            return fail(.touchCancelled)

        case (.possible, .touchBegan(let s)), (.began, .touchBegan(let s)):
            touches.ignore(s.touch) // a third finger
            return .none
        case (.possible, .touchMoved), (.possible, .deadline), (.began, .touchMoved), (.began, .deadline):
            return .none // judged at the frame's end, when both fingers of the frame moved
        case (.possible(let pair), .touchEnded(let s)):
            guard pair.fingers.contains(s.touch) else { return .none }
            let stays = pair.fingers.first == s.touch ? pair.fingers.second : pair.fingers.first
            if let next = touches.firstIgnored() {
                touches.unignore(next)
                state = .possible(self.pair(of: FingerPair(stays, next)))
            } else {
                state = .oneFinger
            }
            return .none
        case (.possible(let pair), .touchCancelled(let s)):
            return pair.fingers.contains(s.touch) ? fail(.touchCancelled) : .none
        case (.possible(var pair), .frameEnd(let t)):
            guard let line = pair.fingers.line(in: touches), let value = pair.measure.update(line: line) else {
                state = .possible(pair)
                return .none
            }
            tracker.add(value, at: t)
            state = .possible(pair)
            guard pair.measure.begins(at: value) else { return .none }
            values = makeValues(value, at: t)
            state = .began(pair, lifted: nil)
            return .began

        case (.began(var pair, nil), .frameEnd(let t)):
            let measured = pair.fingers.line(in: touches).flatMap { pair.measure.update(line: $0) }
            if let measured { tracker.add(measured, at: t) }
            state = .began(pair, lifted: nil)
            // Apple: it changes "when a finger moves (while both fingers remain touching)",
            // even when the value stays (two fingers turning around their centre under a
            // pinch); with nothing to measure (both on one point) the value stays as it was.
            guard let value = measured ?? Measure.stored(in: values),
                  touches.gestureMovedInFrame || value != Measure.stored(in: values)
                    || touches.centroid() != values.location else { return .none }
            values = makeValues(value, at: t)
            return .changed
        case (.began, .frameEnd):
            return .none // one finger left: the values stay
        case (.began(var pair, nil), .touchEnded(let s)):
            guard pair.fingers.contains(s.touch) else { return .none }
            // The first of the two lifts; the lift may have moved it once more.
            let value = pair.fingers.line(in: touches).flatMap { pair.measure.update(line: $0) }
            state = .began(pair, lifted: s.touch)
            guard let value, value != Measure.stored(in: values) else { return .none }
            tracker.add(value, at: s.time)
            values = makeValues(value, at: s.time)
            return .changed
        case (.began(let pair, let lifted?), .touchEnded(let s)):
            guard pair.fingers.contains(s.touch), s.touch != lifted else { return .none }
            if let value = Measure.stored(in: values) {
                Measure.store(value, velocity: tracker.velocity(at: s.time).x, in: &values)
            }
            state = .finished
            return .ended
        case (.began(let pair, let lifted), .touchCancelled(let s)):
            guard pair.fingers.contains(s.touch), s.touch != lifted else { return .none }
            return cancel()

        case (.finished, _):
            return .none
        }
    }

    /// A new pair, measured from the line between its fingers now.
    private mutating func pair(of fingers: FingerPair) -> Pair {
        var measure = Measure(threshold: threshold)
        measure.start(line: fingers.line(in: touches) ?? .zero)
        tracker.clear()
        return Pair(fingers: fingers, measure: measure)
    }

    private func makeValues(_ value: Double, at time: Timestamp) -> GestureValues {
        var values = GestureValues()
        values.location = touches.centroid()
        Measure.store(value, velocity: tracker.velocity(at: time).x, in: &values)
        return values
    }

    /// A move only updates the touch table: the pair is measured at the frame's end.
    @inline(__always)
    mutating func quietMove(_ sample: TouchSample, anomalies: inout Int) -> Bool {
        touches.moveQuietly(sample, anomalies: &self.anomalies, reported: &anomalies)
    }
}

/// The pinch: two fingers moving apart or together.
struct PinchRecognizer: TwoFingerKind {
    var twoFinger: TwoFingerRecognizer<PinchMeasure>

    /// A move only updates the pair's touch table (``TwoFingerKind``).
    @inline(__always)
    mutating func quietMove(_ sample: TouchSample, anomalies: inout Int) -> Bool {
        twoFinger.quietMove(sample, anomalies: &anomalies)
    }
}

/// The rotation: two fingers turning around each other.
struct RotationRecognizer: TwoFingerKind {
    var twoFinger: TwoFingerRecognizer<RotationMeasure>

    /// A move only updates the pair's touch table (``TwoFingerKind``).
    @inline(__always)
    mutating func quietMove(_ sample: TouchSample, anomalies: inout Int) -> Bool {
        twoFinger.quietMove(sample, anomalies: &anomalies)
    }
}

/// A two-finger kind as the arena holds it: a type of its own, not generic, around the
/// ``TwoFingerRecognizer`` of its measure. Not generic because the arena reaches a kind's
/// machine through its conformance to ``RecognizerKindMachine``, and the witnesses of a
/// generic type's conformance run unspecialised, looking up the type's metadata on every
/// call (docs/performance.md § One file per recognizer kind).
protocol TwoFingerKind: RecognizerKindMachine {
    associatedtype Measure: PairMeasure
    var twoFinger: TwoFingerRecognizer<Measure> { get set }
    init(twoFinger: TwoFingerRecognizer<Measure>)
}

extension TwoFingerKind {
    static var quotedName: StaticString { Measure.quotedName }
    static var parameterKeys: [ParameterKey] { Measure.parameterKeys }
    static var defaults: RecognizerParameters { Measure.defaults }

    init(threshold: Double, context: RecognizerContext) {
        self.init(twoFinger: TwoFingerRecognizer(threshold: threshold, context: context))
    }

    init(resolved parameters: ResolvedParameters, context: RecognizerContext) {
        self.init(threshold: parameters.number(Measure.threshold.name), context: context)
    }

    mutating func handle(_ input: RecognizerInput) -> RecognizerVerdict { twoFinger.handle(input) }
    mutating func reset() { twoFinger.reset() }
    var deadline: Timestamp? { twoFinger.deadline }
    var anomalies: Int { twoFinger.anomalies }
    var values: GestureValues { twoFinger.values }
    var failure: FailureReason? { twoFinger.failure }
    var touches: RecognizerTouches { twoFinger.touches }
    var isFinished: Bool { twoFinger.isFinished }
}
