/// Recognizes `minimumTouches`…`maximumTouches` fingers dragging (UIPanGestureRecognizer);
/// a continuous recognizer, transitions in docs/recognizers.md § Pan.
///
/// The translation is the movement of the centroid of the gesture's fingers since they
/// landed, including the slop (as UIKit reports it). When a finger joins or leaves, the
/// centroid jumps but the translation does not: movement is folded in per step and the
/// centroid re-based. Before the pan begins, movement counts only while the number of
/// fingers is within range; it begins at the end of the first frame in which the translation
/// is longer than `slop` with the number of fingers in range. An extra finger fails it while
/// possible; once begun, fingers beyond `maximumTouches` are held but ignored. All fingers of
/// the gesture up ends it (with the final velocity); a cancelled one cancels it.
struct PanRecognizer: RecognizerStateMachine, Sendable {
    /// Where the machine is; each case carries only what is valid in it.
    enum State: Sendable {
        /// No finger yet.
        case ready
        /// Fingers down, not yet moved far enough (or not enough of them).
        case possible(Track)
        /// Began; `.changed` when the values differ at a frame's end.
        case began(Track)
        /// Ended, cancelled or failed: ignores inputs until `reset()`.
        case finished
    }

    /// The translation so far, and the centroid it was last brought up to date with.
    struct Track: Sendable {
        var translation: Point
        var lastCentroid: Point
    }

    public let minimumTouches: Int
    public let maximumTouches: Int
    public let slop: Double

    private(set) var state: State = .ready
    var touches: RecognizerTouches
    private var tracker = VelocityTracker()
    public private(set) var values = GestureValues()
    /// Impossible inputs ignored so far; kept across `reset()`.
    public internal(set) var anomalies = 0

    public init(parameters: RecognizerParameters, context: RecognizerContext) {
        self.init(parameters: parameters, defaults: GestureSettings.defaults(for: .pan))
    }

    /// Edge pans share this machine with their own defaults.
    init(parameters: RecognizerParameters, defaults: RecognizerParameters) {
        minimumTouches = max(1, parameters.minimumTouches ?? defaults.minimumTouches ?? 1)
        maximumTouches = max(minimumTouches, parameters.maximumTouches ?? defaults.maximumTouches ?? Int.max)
        slop = parameters.slop ?? defaults.slop ?? 10
        touches = RecognizerTouches(capacity: min(maximumTouches, 10) + 1)
    }

    /// Pans never wait for time.
    public var deadline: Timestamp? { nil }

    /// Ended, cancelled or failed: the arena resets it once its touches have ended.
    public var isFinished: Bool {
        if case .finished = state { return true }
        return false
    }

    /// Whether it has begun and not finished (edge pans stop checking new touches then).
    var hasBegun: Bool {
        if case .began = state { return true }
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
            tracker.clear()
            if touches.participatingCount() > maximumTouches { return fail() }
            state = .possible(Track(translation: .zero, lastCentroid: touches.centroid()))
            return .none
        case (.ready, .touchMoved), (.ready, .touchEnded), (.ready, .touchCancelled):
            return .none // unreachable: accepts() rejects touches it never saw
        case (.ready, .frameEnd), (.ready, .deadline):
            return .none

        case (.possible(var track), .touchBegan(let s)):
            fold(&track, excluding: s.touch, gated: true)
            track.lastCentroid = touches.centroid()
            if touches.participatingCount() > maximumTouches { return fail() }
            state = .possible(track)
            return .none
        case (.possible, .touchMoved):
            return .none // folded in at the frame's end
        case (.possible(var track), .touchEnded(let s)):
            // Fewer than minimumTouches left: keep waiting (UIKit does); none left: failed.
            fold(&track, excluding: nil, gated: true)
            if touches.participatingCount(excluding: s.touch) == 0 { return fail() }
            track.lastCentroid = touches.centroid(excluding: s.touch)
            state = .possible(track)
            return .none
        case (.possible, .touchCancelled):
            return fail()
        case (.possible(var track), .frameEnd(let t)):
            fold(&track, excluding: nil, gated: true)
            tracker.add(track.translation, at: t)
            guard inRange(touches.participatingCount()),
                  RecognizerMath.length(track.translation) > slop else {
                state = .possible(track)
                return .none
            }
            values = makeValues(track, location: touches.centroid(), at: t)
            state = .began(track)
            return .began
        case (.possible, .deadline):
            return .none

        case (.began(var track), .touchBegan(let s)):
            if touches.participatingCount(excluding: s.touch) >= maximumTouches {
                touches.ignore(s.touch)
                return .none
            }
            fold(&track, excluding: s.touch, gated: false)
            track.lastCentroid = touches.centroid()
            state = .began(track)
            return .none
        case (.began, .touchMoved):
            return .none // folded in at the frame's end
        case (.began(var track), .touchEnded(let s)):
            if touches.isIgnored(s.touch) { return .none }
            let before = track.translation
            fold(&track, excluding: nil, gated: false)
            if touches.participatingCount(excluding: s.touch) > 0 {
                track.lastCentroid = touches.centroid(excluding: s.touch)
                state = .began(track)
                return .none
            }
            // The lift is a sample only if the finger moved with it: a finger that rests
            // before lifting must not look like it was still moving.
            if track.translation != before { tracker.add(track.translation, at: s.time) }
            values = makeValues(track, location: touches.centroid(), at: s.time)
            state = .finished
            return .ended
        case (.began, .touchCancelled(let s)):
            if touches.isIgnored(s.touch) { return .none }
            state = .finished
            return .cancelled
        case (.began(var track), .frameEnd(let t)):
            fold(&track, excluding: nil, gated: false)
            tracker.add(track.translation, at: t)
            state = .began(track)
            let location = touches.centroid()
            guard track.translation != values.translation || location != values.location else { return .none }
            values = makeValues(track, location: location, at: t)
            return .changed
        case (.began, .deadline):
            return .none

        case (.finished, _):
            return .none
        }
    }

    /// Adds the centroid's movement since `lastCentroid` to the translation, over the
    /// gesture's fingers except `excluded` (a finger that just joined). Before the pan began
    /// (`gated`), movement with a number of fingers out of range does not count.
    private func fold(_ track: inout Track, excluding excluded: TouchID?, gated: Bool) {
        let count = touches.participatingCount(excluding: excluded)
        guard count > 0 else { return }
        let centroid = touches.centroid(excluding: excluded)
        if !gated || inRange(count) {
            track.translation = track.translation + (centroid - track.lastCentroid)
        }
        track.lastCentroid = centroid
    }

    private func inRange(_ count: Int) -> Bool {
        count >= minimumTouches && count <= maximumTouches
    }

    private func makeValues(_ track: Track, location: Point, at time: Timestamp) -> GestureValues {
        var values = GestureValues()
        values.location = location
        values.translation = track.translation
        values.velocity = tracker.velocity(at: time)
        return values
    }

    private mutating func fail() -> RecognizerVerdict {
        state = .finished
        return .failed
    }
}
