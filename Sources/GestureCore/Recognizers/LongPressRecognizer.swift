/// Recognizes `touches` fingers held still for `minimumDuration`, after `taps` taps
/// (UILongPressGestureRecognizer, `numberOfTapsRequired`); a continuous recognizer,
/// transitions in docs/recognizers.md § Long press.
///
/// With `taps` > 0 the fingers first tap `taps` times by the tap's rules (each tap's fingers
/// move at most `tapMaxMovement` and lift within `tapMaxDuration`; each later tap, and then
/// the press, begins strictly within `tapMaxInterval` of the previous tap's end and within
/// `tapMaxMovement` of the first tap's place), then touch down again and hold. The timer
/// starts when the last required finger of the press lands. Before it fires, a finger moving
/// more than `allowableMovement` from where it landed, a finger lifting or cancelled, or an
/// extra finger fails it. Once begun, movement is unlimited (`.changed` at the end of each
/// frame in which a finger of the gesture moved), extra fingers are held but ignored, the
/// first of its fingers to lift ends it and a cancelled one cancels it.
struct LongPressRecognizer: FinishingMachine, Sendable {
    /// Where the machine is; each case carries only what is valid in it.
    enum State: Sendable {
        /// No finger yet.
        case ready
        /// `taps` > 0: the fingers of a tap before the press are landing or down.
        case tapping(Tap)
        /// Tap `completed` ended at `endedAt`; waiting for the next tap, or the press once
        /// `completed` is `taps`. `anchor`: the first tap's place.
        case betweenTaps(completed: Int, endedAt: Timestamp, anchor: Point)
        /// The press's fingers are landing (fewer than `touches` down); `anchor`, after taps,
        /// is the first tap's place, which the press must land near.
        case waiting(anchor: Point?)
        /// All fingers down since `since`; begins at `since + minimumDuration`.
        case holding(since: Timestamp)
        /// Began; a frame in which a finger of the gesture moved reports `.changed` at its end.
        case began
        /// Began through a deadline that a touch input at `at` overtook, and that same input
        /// ended the gesture: `.began` was returned for it, `ending` is reported at the next
        /// `.frameEnd` or `.deadline` (see "Deadlines" in docs/recognizers.md).
        case endPending(ending: RecognizerVerdict, at: Timestamp)
        /// Ended, cancelled or failed: ignores inputs until `reset()`.
        case finished
    }

    /// One tap before the press.
    struct Tap: Sendable {
        /// 1 for the first tap.
        var number: Int
        /// When its first finger landed; `tapMaxDuration` counts from here.
        var began: Timestamp
        /// Its fingers as they land, with the first tap's place.
        var fingers: TapFingers
    }

    /// `numberOfTapsRequired`: taps before the finger touches down again and holds; 0 (UIKit's
    /// default) for a plain press.
    public let tapsRequired: Int
    public let touchesRequired: Int
    public let minimumDuration: TimeSpan
    public let allowableMovement: Double
    /// How far each tap's fingers may move, and how far each later tap (and the press) may
    /// land from the first tap's place, in points.
    public let tapMaxMovement: Double
    /// How long each tap may last.
    public let tapMaxDuration: TimeSpan
    /// How soon after a tap's end the next tap (or the press) must begin.
    public let tapMaxInterval: TimeSpan

    var state: State = .ready
    static var finished: State { .finished }
    var touches: RecognizerTouches
    public private(set) var values = GestureValues()
    /// Impossible inputs ignored so far; kept across `reset()`.
    public internal(set) var anomalies = 0
    /// Why it last failed or was cancelled (docs/recognizers.md § Why a recognizer failed).
    var failure: FailureReason?

    /// A machine with the parameters in force (``parameterKeys``). Its taps before the press
    /// follow the tap rules of the configuration (`gestures.tap`'s `maxMovement`, `maxDuration`
    /// and `maxInterval`, else the tap defaults), as a multi-tap's do: they are not long press
    /// keys (``completing(_:settings:)`` fills them in as `tapMaxMovement`, `tapMaxDuration`,
    /// `tapMaxInterval`).
    init(resolved p: ResolvedParameters, context: RecognizerContext) {
        tapsRequired = max(0, p.count("taps"))
        touchesRequired = max(1, p.count("touches"))
        minimumDuration = TimeSpan(seconds: p.number("minimumDuration"))
        allowableMovement = p.number("allowableMovement")
        tapMaxMovement = p.number("tapMaxMovement")
        tapMaxDuration = TimeSpan(seconds: p.number("tapMaxDuration"))
        tapMaxInterval = TimeSpan(seconds: p.number("tapMaxInterval"))
        touches = RecognizerTouches(capacity: touchesRequired + 2)
    }

    /// When the press has lasted long enough, when a tap has lasted too long or the next one
    /// is too late, or when a pending end is due.
    public var deadline: Timestamp? {
        switch state {
        case .tapping(let tap): tap.began + tapMaxDuration
        case .betweenTaps(_, let endedAt, _): endedAt + tapMaxInterval
        case .holding(let since): since + minimumDuration
        case .endPending(_, let at): at
        case .ready, .waiting, .began, .finished: nil
        }
    }

    /// Ended, cancelled or failed: the arena resets it once its touches have ended.
    public var isFinished: Bool { if case .finished = state { true } else { false } }

    /// The press began at the deadline the input overtook: the input applies to the begun
    /// gesture, and an end it causes waits for the next `.frameEnd` or `.deadline` so that
    /// this input reports `.began`. A pending end that came due is reported as it is; a tap's
    /// timeout only fails it.
    mutating func overtaken(by input: RecognizerInput, at time: Timestamp,
                            fired: RecognizerVerdict) -> RecognizerVerdict {
        guard fired == .began else { return fired }
        let then = transition(input)
        if then == .ended || then == .cancelled {
            state = .endPending(ending: then, at: time)
        }
        return .began
    }

    /// Back to `possible`, forgetting every touch.
    public mutating func reset() {
        state = .ready
        touches.removeAll()
        values = GestureValues()
    }

    mutating func transition(_ input: RecognizerInput) -> RecognizerVerdict {
        switch (state, input) {
        case (.ready, .touchBegan(let s)):
            if tapsRequired == 0 { return press(s, anchor: nil) }
            return land(s, in: Tap(number: 1, began: s.time, fingers: TapFingers()))
        case (.ready, .touchMoved), (.ready, .touchEnded), (.ready, .touchCancelled):
            return .none // unreachable: accepts() rejects touches it never saw
        case (.ready, .frameEnd), (.ready, .deadline):
            return .none

        case (.tapping(let tap), .touchBegan(let s)):
            return land(s, in: tap)
        case (.tapping, .touchMoved(let s)):
            return touches.hasMoved(s, fartherThan: tapMaxMovement) ? fail(touches.movedTooFar(s, limit: tapMaxMovement)) : .none
        case (.tapping(let tap), .touchEnded(let s)):
            if touches.hasMoved(s, fartherThan: tapMaxMovement) { return fail(touches.movedTooFar(s, limit: tapMaxMovement)) }
            if touches.count > 1 { return .none } // others still down (this one is retired after)
            guard tap.fingers.complete, let anchor = tap.fingers.anchor else {
                return fail(tap.fingers.tooFew(required: touchesRequired))
            }
            state = .betweenTaps(completed: tap.number, endedAt: s.time, anchor: anchor)
            return .none
        case (.tapping, .touchCancelled):
            return fail(.touchCancelled)
        case (.tapping, .frameEnd):
            return .none
        case (.tapping(let tap), .deadline(let t)):
            return t >= tap.began + tapMaxDuration ? fail(.span(.tooLong, t - tap.began, limit: tapMaxDuration)) : .none

        case (.betweenTaps(let completed, _, let anchor), .touchBegan(let s)):
            if completed < tapsRequired {
                return land(s, in: Tap(number: completed + 1, began: s.time, fingers: TapFingers(anchor: anchor)))
            }
            return press(s, anchor: anchor) // touch down again, and hold
        case (.betweenTaps, .touchMoved), (.betweenTaps, .touchEnded), (.betweenTaps, .touchCancelled):
            return .none // unreachable: no touch is down between taps
        case (.betweenTaps, .frameEnd):
            return .none
        case (.betweenTaps(_, let endedAt, _), .deadline(let t)):
            return t >= endedAt + tapMaxInterval ? fail(.span(.nextTapTooLate, t - endedAt, limit: tapMaxInterval)) : .none

        case (.waiting(let anchor), .touchBegan(let s)):
            return press(s, anchor: anchor)
        case (.waiting, .touchMoved(let s)), (.holding, .touchMoved(let s)):
            return touches.hasMoved(s, fartherThan: allowableMovement)
                ? fail(touches.movedTooFar(s, limit: allowableMovement)) : .none
        case (.waiting, .touchEnded):
            // Lifted before all its fingers were down: how many were (this one included).
            return fail(.count(.tooFewTouches, touches.count, limit: touchesRequired))
        case (.waiting, .touchCancelled):
            return fail(.touchCancelled)
        case (.waiting, .frameEnd), (.waiting, .deadline):
            return .none

        case (.holding, .touchBegan):
            return fail(.count(.tooManyTouches, touches.count, limit: touchesRequired))
        case (.holding(let since), .touchEnded(let s)):
            return fail(.span(.liftedTooSoon, s.time - since, limit: minimumDuration))
        case (.holding, .touchCancelled):
            return fail(.touchCancelled)
        case (.holding, .frameEnd):
            return .none
        case (.holding(let since), .deadline(let t)):
            guard t >= since + minimumDuration else { return .none }
            values = GestureValues()
            values.location = touches.centroid()
            state = .began
            return .began

        case (.began, .touchBegan(let s)):
            touches.ignore(s.touch)
            return .none
        case (.began, .touchMoved):
            return .none // reported at the frame's end
        case (.began, .frameEnd):
            // Apple: it "transitions to the Change state whenever a finger moves".
            guard touches.gestureMovedInFrame else { return .none }
            values.location = touches.centroid()
            return .changed
        case (.began, .touchEnded(let s)):
            if touches.isIgnored(s.touch) { return .none }
            values.location = touches.centroid()
            state = .finished
            return .ended
        case (.began, .touchCancelled(let s)):
            if touches.isIgnored(s.touch) { return .none }
            return cancel()
        case (.began, .deadline):
            return .none

        case (.endPending(let ending, _), .frameEnd), (.endPending(let ending, _), .deadline):
            state = .finished
            return ending
        case (.endPending, .touchBegan), (.endPending, .touchMoved), (.endPending, .touchEnded),
             (.endPending, .touchCancelled):
            return .none // unreachable: an input at or after `at` fires the pending end first

        case (.finished, _):
            return .none
        }
    }

    /// A finger of the press lands (already in the touch table); with all of them down the
    /// hold starts, if they landed within `tapMaxMovement` of the first tap's place.
    private mutating func press(_ sample: TouchSample, anchor: Point?) -> RecognizerVerdict {
        guard touches.count == touchesRequired else {
            state = .waiting(anchor: anchor)
            return .none
        }
        if let anchor {
            let distance = anchor.distance(to: touches.centroid())
            if distance > tapMaxMovement {
                return fail(FailureReason(.tapTooFarFromFirst, measured: distance, limit: tapMaxMovement))
            }
        }
        state = .holding(since: sample.time)
        return .none
    }

    /// A finger of a tap before the press lands (already in the touch table), as a tap's does.
    private mutating func land(_ sample: TouchSample, in tap: Tap) -> RecognizerVerdict {
        var tap = tap
        if let reason = tap.fingers.land(in: touches, required: touchesRequired, maxMovement: tapMaxMovement) {
            return fail(reason)
        }
        state = .tapping(tap)
        return .none
    }
}

/// `longPress`: ``LongPressRecognizer``.
extension RecognizerKind { public static let longPress = RecognizerKind(LongPressRecognizer.self) }

extension LongPressRecognizer: RecognizerKindMachine {
    static var quotedName: StaticString { #""longPress""# }

    static var parameterKeys: [ParameterKey] {
        [.init("minimumDuration", .seconds), .init("allowableMovement", .points),
         .init("touches", .count(LayoutLimits.touches, noun: "touches")),
         .init("taps", .count(LayoutLimits.longPressTaps, noun: "taps"))]
    }

    /// UILongPressGestureRecognizer: numberOfTapsRequired 0, minimumPressDuration 0.5 s,
    /// allowableMovement 10 pt.
    static var defaults: RecognizerParameters {
        ["taps": 0, "touches": 1, "minimumDuration": 0.5, "allowableMovement": 10.0]
    }

    /// The taps before the press follow the taps' rules in force, as a multi-tap's do.
    static func completing(_ parameters: RecognizerParameters, settings: GestureSettings) -> RecognizerParameters {
        let tap = settings.resolved(RecognizerSpec(id: "", kind: .tap))
        var completed = parameters
        completed["tapMaxMovement"] = .number(tap.number("maxMovement"))
        completed["tapMaxDuration"] = .number(tap.number("maxDuration"))
        completed["tapMaxInterval"] = .number(tap.number("maxInterval"))
        return completed
    }

    /// Its taps' fingers stay in the sequence until it decides, as a multi-tap's do.
    static func liftedTouchLimit(_ p: ResolvedParameters) -> Int {
        max(LayoutLimits.touches.upperBound, p.count("taps") * p.count("touches"))
    }
}
