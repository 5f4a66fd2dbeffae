/// Recognizes `minimumTouches`…`maximumTouches` fingers dragging (UIPanGestureRecognizer);
/// a continuous recognizer, transitions in docs/recognizers.md § Pan.
///
/// The translation is the movement of the centroid of the gesture's fingers since they
/// landed, including the slop (as UIKit reports it). When a finger joins or leaves, the
/// centroid jumps but the translation does not: movement is folded in per step and the
/// centroid re-based. Apple: "The gesture begins when the minimum number of fingers allowed
/// has moved enough to be considered a pan. It changes when a finger moves while at least the
/// minimum number of fingers are pressed down. It ends when all fingers are lifted." So:
/// before it began, movement counts only while the number of fingers is within
/// `minimumTouches…maximumTouches`, and it begins at the end of the first frame in which the
/// translation is longer than `slop` with the number of fingers in range — too many fingers
/// down keep it from beginning, they do not fail it. Once begun, fingers beyond
/// `maximumTouches` are held but ignored (they reach the views as if the pan were not there);
/// with fewer than `minimumTouches` down the translation stays and nothing changes until
/// enough fingers are down again; all fingers of the gesture up ends it (with the final
/// velocity), a cancelled one cancels it. An edge pan's inner pan follows its first finger
/// only and ignores every later one from the start (`followsFirstFingerOnly`).
struct PanRecognizer: FinishingMachine, Sendable {
    /// Where the machine is; each case carries only what is valid in it.
    enum State: Sendable {
        /// No finger yet.
        case ready
        /// Fingers down, not yet moved far enough (or not the right number of them).
        case possible(Track)
        /// Began; `.changed` at the end of a frame in which a finger of the gesture moved or
        /// the values differ.
        case began(Track)
        /// Ended, cancelled or failed: ignores inputs until `reset()`.
        case finished
    }

    /// The translation so far, and the centroid it was last brought up to date with.
    struct Track: Sendable {
        var translation: Point
        var lastCentroid: Point
    }

    /// Which numbers of fingers move the translation: any in range before the pan began, at
    /// least the minimum after.
    private enum Gate { case inRange, atLeastMinimum }

    public let minimumTouches: Int
    public let maximumTouches: Int
    public let slop: Double
    /// An edge pan's rule: every finger after the first is ignored, even before it began.
    public let followsFirstFingerOnly: Bool

    var state: State = .ready
    static var finished: State { .finished }
    var touches: RecognizerTouches
    private var tracker = VelocityTracker()
    /// The fingers of the gesture that lifted in the current frame, while others stayed down:
    /// where they lifted (summed) and how many. A pan whose fingers all lift in one frame ends
    /// at the centroid of all of them, not at the last one's place.
    private var liftedInFrame = (sum: Point.zero, count: 0)
    public private(set) var values = GestureValues()
    /// Impossible inputs ignored so far; kept across `reset()`.
    public internal(set) var anomalies = 0
    /// Why it last failed or was cancelled (docs/recognizers.md § Why a recognizer failed).
    var failure: FailureReason?

    /// A machine with the parameters in force (``parameterKeys``).
    init(resolved p: ResolvedParameters, context: RecognizerContext) {
        minimumTouches = max(1, p.count("minimumTouches"))
        maximumTouches = max(minimumTouches, p.count("maximumTouches"))
        slop = p.number("slop")
        followsFirstFingerOnly = false
        touches = RecognizerTouches(capacity: 11)
    }

    /// The pan inside an edge pan: one finger, the first.
    init(followingFirstFingerWithSlop slop: Double) {
        minimumTouches = 1
        maximumTouches = 1
        self.slop = slop
        followsFirstFingerOnly = true
        touches = RecognizerTouches(capacity: 11)
    }

    /// A move only updates the touch table: the translation is folded in at the frame's end.
    static var judgesMoves: Bool { false }

    /// Pans never wait for time.
    public var deadline: Timestamp? { nil }

    /// Ended, cancelled or failed: the arena resets it once its touches have ended.
    public var isFinished: Bool { if case .finished = state { true } else { false } }

    /// Back to `possible`, forgetting every touch and sample.
    public mutating func reset() {
        state = .ready
        touches.removeAll()
        tracker.clear()
        liftedInFrame = (.zero, 0)
        values = GestureValues()
    }

    mutating func transition(_ input: RecognizerInput) -> RecognizerVerdict {
        switch (state, input) {
        case (.ready, .touchBegan):
            tracker.clear()
            state = .possible(Track(translation: .zero, lastCentroid: touches.centroid()))
            return .none
        case (.ready, .touchMoved), (.ready, .touchEnded), (.ready, .touchCancelled):
            return .none // unreachable: accepts() rejects touches it never saw
        case (.ready, .frameEnd), (.ready, .deadline):
            return .none

        case (.possible(var track), .touchBegan(let s)):
            if followsFirstFingerOnly && touches.participatingCount(excluding: s.touch) >= maximumTouches {
                touches.ignore(s.touch)
                return .none
            }
            fold(&track, excluding: s.touch, gate: .inRange)
            track.lastCentroid = touches.centroid()
            state = .possible(track)
            return .none
        case (.possible, .touchMoved):
            return .none // folded in at the frame's end
        case (.possible(var track), .touchEnded(let s)):
            if touches.isIgnored(s.touch) { return .none }
            // Fewer than minimumTouches left: keep waiting (UIKit does); none left: failed.
            fold(&track, excluding: nil, gate: .inRange)
            if touches.participatingCount(excluding: s.touch) == 0 {
                return fail(FailureReason(.liftedBeforeBegan, measured: RecognizerMath.length(track.translation), limit: slop))
            }
            track.lastCentroid = touches.centroid(excluding: s.touch)
            state = .possible(track)
            return .none
        case (.possible, .touchCancelled(let s)):
            return touches.isIgnored(s.touch) ? .none : fail(.touchCancelled)
        case (.possible(var track), .frameEnd(let t)):
            fold(&track, excluding: nil, gate: .inRange)
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
            fold(&track, excluding: s.touch, gate: .atLeastMinimum)
            track.lastCentroid = touches.centroid()
            state = .began(track)
            return .none
        case (.began, .touchMoved):
            return .none // folded in at the frame's end
        case (.began(var track), .touchEnded(let s)):
            if touches.isIgnored(s.touch) { return .none }
            let before = track.translation
            fold(&track, excluding: nil, gate: .atLeastMinimum)
            if touches.participatingCount(excluding: s.touch) > 0 {
                track.lastCentroid = touches.centroid(excluding: s.touch)
                liftedInFrame = (liftedInFrame.sum + s.location, liftedInFrame.count + 1)
                state = .began(track)
                return .none
            }
            // The lift is a sample only if the finger moved with it: a finger that rests
            // before lifting must not look like it was still moving.
            if track.translation != before { tracker.add(track.translation, at: s.time) }
            // The centroid of every finger that lifted in this frame (Apple: the location is
            // "the centroid of the touches involved in the gesture").
            let n = Double(liftedInFrame.count + 1)
            let location = Point(x: (liftedInFrame.sum.x + s.location.x) / n, y: (liftedInFrame.sum.y + s.location.y) / n)
            values = makeValues(track, location: location, at: s.time)
            state = .finished
            return .ended
        case (.began, .touchCancelled(let s)):
            if touches.isIgnored(s.touch) { return .none }
            return cancel()
        case (.began(var track), .frameEnd(let t)):
            liftedInFrame = (.zero, 0)
            fold(&track, excluding: nil, gate: .atLeastMinimum)
            state = .began(track)
            // Fewer than the minimum down: the pan holds still until enough are down again.
            guard touches.participatingCount() >= minimumTouches else { return .none }
            tracker.add(track.translation, at: t)
            let location = touches.centroid()
            // Apple: it "changes when a finger moves" — even when the centroid stays (two
            // fingers spreading symmetrically).
            guard touches.gestureMovedInFrame || track.translation != values.translation
                    || location != values.location else { return .none }
            values = makeValues(track, location: location, at: t)
            return .changed
        case (.began, .deadline):
            return .none

        case (.finished, _):
            return .none
        }
    }

    /// Adds the centroid's movement since `lastCentroid` to the translation, over the
    /// gesture's fingers except `excluded` (a finger that just joined), if their number
    /// passes `gate`; re-bases `lastCentroid` either way.
    private func fold(_ track: inout Track, excluding excluded: TouchID?, gate: Gate) {
        let count = touches.participatingCount(excluding: excluded)
        guard count > 0 else { return }
        let centroid = touches.centroid(excluding: excluded)
        let counts = switch gate {
        case .inRange: inRange(count)
        case .atLeastMinimum: count >= minimumTouches
        }
        if counts {
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
}

/// `pan`: ``PanRecognizer``.
extension RecognizerKind { public static let pan = RecognizerKind(PanRecognizer.self) }

extension PanRecognizer: RecognizerKindMachine {
    static var quotedName: StaticString { #""pan""# }

    static var parameterKeys: [ParameterKey] {
        [.init("minimumTouches", .count(LayoutLimits.touches, noun: "touches")),
         .init("maximumTouches", .count(LayoutLimits.touches, noun: "touches")), .init("slop", .points)]
    }

    /// A pan begins once the touches have moved 10 pt (UIKit's hysteresis);
    /// UIPanGestureRecognizer's maximumNumberOfTouches defaults to NSUIntegerMax (Int.max:
    /// no maximum, which a file cannot write).
    static var defaults: RecognizerParameters {
        ["minimumTouches": 1, "maximumTouches": .count(Int.max), "slop": 10.0]
    }

    /// A pan does not judge moves: a move only updates its touch table.
    @inline(__always)
    mutating func quietMove(_ sample: TouchSample, anomalies: inout Int) -> Bool {
        touches.moveQuietly(sample, anomalies: &self.anomalies, reported: &anomalies)
    }
}
