/// Recognizes two fingers moving apart or together (UIPinchGestureRecognizer); a continuous
/// recognizer, transitions in docs/recognizers.md § Pinch.
///
/// The scale is the distance between the two fingers now divided by the distance when the
/// second one landed. It begins at the end of the first frame in which the scale differs
/// from 1 by at least `minimumScaleChange`. Before that, a third finger fails it and one of
/// the two lifting puts it back to waiting for a second finger (as pans keep waiting); after
/// that, further fingers are held but ignored (UIKit's pinch keeps following its first two
/// touches), either of the two lifting ends it and either cancelled cancels it.
struct PinchRecognizer: RecognizerStateMachine, Sendable {
    /// Where the machine is; each case carries only what is valid in it.
    enum State: Sendable {
        /// No finger yet.
        case ready
        /// One finger down, waiting for the second.
        case oneFinger
        /// Two fingers down, not yet scaled enough.
        case possible(Pair)
        /// Began; `.changed` when the values differ at a frame's end.
        case began(Pair)
        /// Ended, cancelled or failed: ignores inputs until `reset()`.
        case finished
    }

    /// The two fingers of the gesture and the distance between them when the second landed.
    struct Pair: Sendable {
        var fingers: FingerPair
        /// 0 when both landed on the same point; then the first non-zero distance is used.
        var initialSpan: Double
    }

    public let minimumScaleChange: Double

    private(set) var state: State = .ready
    var touches: RecognizerTouches
    private var tracker = VelocityTracker()
    public private(set) var values = GestureValues()
    /// Impossible inputs ignored so far; kept across `reset()`.
    public internal(set) var anomalies = 0

    public init(parameters: RecognizerParameters, context: RecognizerContext) {
        let defaults = GestureSettings.defaults(for: .pinch)
        minimumScaleChange = parameters.minimumScaleChange ?? defaults.minimumScaleChange ?? 0.05
        touches = RecognizerTouches(capacity: 4)
    }

    /// Pinches never wait for time.
    public var deadline: Timestamp? { nil }

    /// Ended, cancelled or failed: the arena resets it once its touches have ended.
    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

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
            tracker.clear()
            state = .possible(Pair(fingers: fingers, initialSpan: fingers.span(in: touches) ?? 0))
            return .none
        case (.oneFinger, .touchMoved), (.oneFinger, .frameEnd), (.oneFinger, .deadline):
            return .none
        case (.oneFinger, .touchEnded), (.oneFinger, .touchCancelled):
            return fail() // its only finger is gone

        case (.possible, .touchBegan):
            return fail() // a third finger
        case (.possible, .touchMoved), (.possible, .deadline):
            return .none // judged at the frame's end, when both fingers of the frame moved
        case (.possible, .touchEnded):
            state = .oneFinger
            return .none
        case (.possible, .touchCancelled):
            return fail()
        case (.possible(var pair), .frameEnd(let t)):
            let span = self.span(pair)
            if pair.initialSpan == 0 {
                pair.initialSpan = span
                state = .possible(pair)
                return .none
            }
            let scale = span / pair.initialSpan
            tracker.add(scale, at: t)
            guard abs(scale - 1) >= minimumScaleChange else { return .none }
            values = makeValues(pair, scale: scale, at: t)
            state = .began(pair)
            return .began

        case (.began, .touchBegan(let s)):
            touches.ignore(s.touch)
            return .none
        case (.began, .touchMoved), (.began, .deadline):
            return .none
        case (.began(let pair), .frameEnd(let t)):
            let scale = span(pair) / pair.initialSpan
            tracker.add(scale, at: t)
            guard scale != values.scale || touches.centroid() != values.location else { return .none }
            values = makeValues(pair, scale: scale, at: t)
            return .changed
        case (.began(let pair), .touchEnded(let s)):
            guard pair.fingers.contains(s.touch) else { return .none }
            let scale = span(pair) / pair.initialSpan
            if scale != values.scale { tracker.add(scale, at: s.time) } // the lift moved too
            values = makeValues(pair, scale: scale, at: s.time)
            state = .finished
            return .ended
        case (.began(let pair), .touchCancelled(let s)):
            guard pair.fingers.contains(s.touch) else { return .none }
            state = .finished
            return .cancelled

        case (.finished, _):
            return .none
        }
    }

    private func span(_ pair: Pair) -> Double {
        pair.fingers.span(in: touches) ?? pair.initialSpan
    }

    private func makeValues(_ pair: Pair, scale: Double, at time: Timestamp) -> GestureValues {
        var values = GestureValues()
        values.location = touches.centroid()
        values.scale = scale
        values.scaleVelocity = tracker.velocity(at: time).x
        return values
    }

    private mutating func fail() -> RecognizerVerdict {
        state = .finished
        return .failed
    }
}
