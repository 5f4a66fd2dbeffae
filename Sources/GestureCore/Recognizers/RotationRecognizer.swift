/// Recognizes two fingers turning around each other (UIRotationGestureRecognizer); a
/// continuous recognizer, transitions in docs/recognizers.md § Rotation.
///
/// The rotation is how far the line from the first finger to the second turned since the
/// second landed, in radians, clockwise positive on the screen (y grows downwards). It is
/// accumulated frame by frame from the signed angle between successive lines, so it unwraps
/// across ±π and can exceed a full turn. It begins at the end of the first frame in which
/// its magnitude is at least `minimumRotation`. Fingers are handled as for pinches: before it
/// began a third finger fails it and a lift waits for a new second finger; after, extra
/// fingers are ignored, either of the two lifting ends it, either cancelled cancels it.
struct RotationRecognizer: RecognizerStateMachine, Sendable {
    /// Where the machine is; each case carries only what is valid in it.
    enum State: Sendable {
        /// No finger yet.
        case ready
        /// One finger down, waiting for the second.
        case oneFinger
        /// Two fingers down, not yet turned enough.
        case possible(Pair)
        /// Began; `.changed` when the values differ at a frame's end.
        case began(Pair)
        /// Ended, cancelled or failed: ignores inputs until `reset()`.
        case finished
    }

    /// The two fingers of the gesture and how far their line has turned.
    struct Pair: Sendable {
        var fingers: FingerPair
        /// The line from the first finger to the second when the rotation was last brought up
        /// to date.
        var lastLine: Point
        var rotation: Double
    }

    public let minimumRotation: Double

    private(set) var state: State = .ready
    var touches: RecognizerTouches
    private var tracker = VelocityTracker()
    public private(set) var values = GestureValues()
    /// Impossible inputs ignored so far; kept across `reset()`.
    public internal(set) var anomalies = 0

    public init(parameters: RecognizerParameters, context: RecognizerContext) {
        let defaults = GestureSettings.defaults(for: .rotation)
        minimumRotation = parameters.minimumRotation ?? defaults.minimumRotation ?? 0.1
        touches = RecognizerTouches(capacity: 4)
    }

    /// Rotations never wait for time.
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
            state = .possible(Pair(fingers: fingers, lastLine: fingers.line(in: touches) ?? .zero, rotation: 0))
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
            turn(&pair)
            tracker.add(pair.rotation, at: t)
            guard abs(pair.rotation) >= minimumRotation else {
                state = .possible(pair)
                return .none
            }
            values = makeValues(pair, at: t)
            state = .began(pair)
            return .began

        case (.began, .touchBegan(let s)):
            touches.ignore(s.touch)
            return .none
        case (.began, .touchMoved), (.began, .deadline):
            return .none
        case (.began(var pair), .frameEnd(let t)):
            turn(&pair)
            tracker.add(pair.rotation, at: t)
            state = .began(pair)
            guard pair.rotation != values.rotation || touches.centroid() != values.location else { return .none }
            values = makeValues(pair, at: t)
            return .changed
        case (.began(var pair), .touchEnded(let s)):
            guard pair.fingers.contains(s.touch) else { return .none }
            turn(&pair)
            if pair.rotation != values.rotation { tracker.add(pair.rotation, at: s.time) } // the lift moved too
            values = makeValues(pair, at: s.time)
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

    /// Adds the turn of the line since `lastLine`; a zero-length line (fingers on the same
    /// point) has no direction, so it is skipped until the fingers part.
    private func turn(_ pair: inout Pair) {
        guard let line = pair.fingers.line(in: touches), line != .zero else { return }
        if pair.lastLine != .zero {
            pair.rotation += RecognizerMath.angle(from: pair.lastLine, to: line)
        }
        pair.lastLine = line
    }

    private func makeValues(_ pair: Pair, at time: Timestamp) -> GestureValues {
        var values = GestureValues()
        values.location = touches.centroid()
        values.rotation = pair.rotation
        values.rotationVelocity = tracker.velocity(at: time).x
        return values
    }

    private mutating func fail() -> RecognizerVerdict {
        state = .finished
        return .failed
    }
}
