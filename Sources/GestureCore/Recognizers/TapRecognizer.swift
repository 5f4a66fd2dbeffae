/// Recognizes `taps` taps of `touches` fingers each (UITapGestureRecognizer); a discrete
/// recognizer, transitions in docs/recognizers.md § Tap.
///
/// A tap starts when its first finger lands and ends when all its fingers have lifted; all
/// `touches` fingers must be down together at some point. It fails when a finger moves more
/// than `maxMovement` from where it landed, when the tap lasts `maxDuration` or longer, when
/// more than `touches` fingers land in one tap, when a touch is cancelled, when the next tap
/// does not begin strictly within `maxInterval` after the previous one ended, or when a later
/// tap's location is more than `maxMovement` from the first tap's. A tap's location is the
/// centroid of its fingers when all of them are down; the recognized location is the centroid
/// of the first tap's fingers where they lifted (Apple: "if there are multiple taps, this
/// location is the first tap").
struct TapRecognizer: FinishingMachine, Sendable {
    /// Where the machine is; each case carries only what is valid in it.
    enum State: Sendable {
        /// No finger yet.
        case ready
        /// Fingers of tap number `tap` are landing or down.
        case pressing(Press)
        /// Tap `completed` ended at `endedAt`; waiting for the next one to begin.
        case betweenTaps(completed: Int, endedAt: Timestamp, anchor: Point, first: Point)
        /// Recognized or failed: ignores inputs until `reset()`.
        case finished
    }

    /// One tap in progress.
    struct Press: Sendable {
        /// 1 for the first tap.
        var tap: Int
        /// When its first finger landed; `maxDuration` counts from here.
        var began: Timestamp
        /// Its fingers as they land; their anchor is the first tap's location, which later
        /// taps must stay within `maxMovement` of.
        var fingers: TapFingers
        /// The sum of the lift locations of the fingers that lifted, for the final centroid.
        var liftSum: Point
        /// Where the first tap's fingers lifted (their centroid), once it ended: the location
        /// the recognizer reports (Apple: "if there are multiple taps, this location is the
        /// first tap").
        var first: Point?
    }

    public let taps: Int
    public let touchesRequired: Int
    public let maxMovement: Double
    public let maxDuration: TimeSpan
    public let maxInterval: TimeSpan

    var state: State = .ready
    static var finished: State { .finished }
    var touches: RecognizerTouches
    public private(set) var values = GestureValues()
    /// Impossible inputs ignored so far (a change of an unknown touch, a second began); kept
    /// across `reset()` so the arena can report them.
    public internal(set) var anomalies = 0
    /// Why it last failed or was cancelled (docs/recognizers.md § Why a recognizer failed).
    var failure: FailureReason?

    /// A machine with the parameters in force (``parameterKeys``).
    init(resolved p: ResolvedParameters, context: RecognizerContext) {
        taps = max(1, p.count("taps"))
        touchesRequired = max(1, p.count("touches"))
        maxMovement = p.number("maxMovement")
        maxDuration = TimeSpan(seconds: p.number("maxDuration"))
        maxInterval = TimeSpan(seconds: p.number("maxInterval"))
        touches = RecognizerTouches(capacity: touchesRequired + 1)
    }

    /// The next time the machine needs a `.deadline` input: the end of the current tap's
    /// `maxDuration`, or of the `maxInterval` before the next tap.
    public var deadline: Timestamp? {
        switch state {
        case .pressing(let press): press.began + maxDuration
        case .betweenTaps(_, let endedAt, _, _): endedAt + maxInterval
        case .ready, .finished: nil
        }
    }

    /// Recognized or failed: the arena resets it once its touches have ended.
    public var isFinished: Bool { if case .finished = state { true } else { false } }

    /// Back to `possible`, forgetting every touch and tap.
    public mutating func reset() {
        state = .ready
        touches.removeAll()
        values = GestureValues()
    }

    mutating func transition(_ input: RecognizerInput) -> RecognizerVerdict {
        switch (state, input) {
        case (.ready, .touchBegan(let s)):
            return land(s, in: Press(tap: 1, began: s.time, fingers: TapFingers(), liftSum: .zero, first: nil))
        case (.ready, .touchMoved), (.ready, .touchEnded), (.ready, .touchCancelled):
            return .none // unreachable: accepts() rejects touches it never saw
        case (.ready, .frameEnd), (.ready, .deadline):
            return .none

        case (.pressing(let press), .touchBegan(let s)):
            return land(s, in: press)
        case (.pressing, .touchMoved(let s)):
            return touches.hasMoved(s, fartherThan: maxMovement) ? fail(touches.movedTooFar(s, limit: maxMovement)) : .none
        case (.pressing(var press), .touchEnded(let s)):
            if touches.hasMoved(s, fartherThan: maxMovement) { return fail(touches.movedTooFar(s, limit: maxMovement)) }
            press.liftSum = press.liftSum + s.location
            guard touches.count == 1 else { // others still down (this one is retired after)
                state = .pressing(press)
                return .none
            }
            guard press.fingers.complete, let anchor = press.fingers.anchor else {
                return fail(press.fingers.tooFew(required: touchesRequired))
            }
            let n = Double(touchesRequired)
            let first = press.first ?? Point(x: press.liftSum.x / n, y: press.liftSum.y / n)
            if press.tap == taps {
                values = GestureValues()
                values.location = first
                values.taps = taps
                state = .finished
                return .recognized
            }
            state = .betweenTaps(completed: press.tap, endedAt: s.time, anchor: anchor, first: first)
            return .none
        case (.pressing, .touchCancelled):
            return fail(.touchCancelled)
        case (.pressing, .frameEnd):
            return .none
        case (.pressing(let press), .deadline(let t)):
            return t >= press.began + maxDuration ? fail(.span(.tooLong, t - press.began, limit: maxDuration)) : .none

        case (.betweenTaps(let completed, _, let anchor, let first), .touchBegan(let s)):
            return land(s, in: Press(tap: completed + 1, began: s.time, fingers: TapFingers(anchor: anchor),
                                     liftSum: .zero, first: first))
        case (.betweenTaps, .touchMoved), (.betweenTaps, .touchEnded), (.betweenTaps, .touchCancelled):
            return .none // unreachable: no touch is down between taps
        case (.betweenTaps, .frameEnd):
            return .none
        case (.betweenTaps(_, let endedAt, _, _), .deadline(let t)):
            return t >= endedAt + maxInterval ? fail(.span(.nextTapTooLate, t - endedAt, limit: maxInterval)) : .none

        case (.finished, _):
            return .none
        }
    }

    /// A finger lands in `press` (already added to the touch table).
    private mutating func land(_ sample: TouchSample, in press: Press) -> RecognizerVerdict {
        var press = press
        if let reason = press.fingers.land(in: touches, required: touchesRequired, maxMovement: maxMovement) { return fail(reason) }
        state = .pressing(press)
        return .none
    }
}

/// `tap`: ``TapRecognizer``.
extension RecognizerKind { public static let tap = RecognizerKind(TapRecognizer.self) }

extension TapRecognizer: RecognizerKindMachine {
    static var quotedName: StaticString { #""tap""# }
    static var isDiscrete: Bool { true }

    static var parameterKeys: [ParameterKey] {
        [.init("taps", .count(LayoutLimits.taps, noun: "taps")), .init("touches", .count(LayoutLimits.touches, noun: "touches")),
         .init("maxMovement", .points), .init("maxDuration", .seconds), .init("maxInterval", .seconds)]
    }

    /// maxMovement 45 pt and maxInterval 0.35 s are UIKit's observed tap limits; a tap of
    /// 0.75 s is still a tap and not yet a press.
    static var defaults: RecognizerParameters {
        ["taps": 1, "touches": 1, "maxMovement": 45.0, "maxDuration": 0.75, "maxInterval": 0.35]
    }

    /// A single one-finger tap gives way to a control under its finger (UIKit).
    static func yieldsToControls(_ p: ResolvedParameters) -> Bool {
        p.count("taps") == 1 && p.count("touches") == 1
    }

    /// Every finger of every tap stays in the sequence until it decides.
    static func liftedTouchLimit(_ p: ResolvedParameters) -> Int {
        max(1, p.count("taps") * p.count("touches"))
    }
}
