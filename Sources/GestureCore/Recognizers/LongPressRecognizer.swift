/// Recognizes `touches` fingers held still for `minimumDuration`
/// (UILongPressGestureRecognizer); a continuous recognizer, transitions in
/// docs/recognizers.md § Long press.
///
/// The timer starts when the last required finger lands. Before it fires, a finger moving
/// more than `allowableMovement` from where it landed, a finger lifting or cancelled, or an
/// extra finger fails it. Once begun, movement is unlimited (`.changed` at the end of each
/// frame in which a finger of the gesture moved), extra fingers are held but ignored, the
/// first of its fingers to lift ends it and a cancelled one cancels it.
struct LongPressRecognizer: RecognizerStateMachine, Sendable {
    /// Where the machine is; each case carries only what is valid in it.
    enum State: Sendable {
        /// Fewer than `touches` fingers down (none at first).
        case waiting
        /// All fingers down since `since`; begins at `since + minimumDuration`.
        case holding(since: Timestamp)
        /// Began; `moved` says a finger of the gesture moved in the current frame.
        case began(moved: Bool)
        /// Began through a deadline that a touch input at `at` overtook, and that same input
        /// ended the gesture: `.began` was returned for it, `ending` is reported at the next
        /// `.frameEnd` or `.deadline` (see "Deadlines" in docs/recognizers.md).
        case endPending(ending: RecognizerVerdict, at: Timestamp)
        /// Ended, cancelled or failed: ignores inputs until `reset()`.
        case finished
    }

    public let touchesRequired: Int
    public let minimumDuration: TimeSpan
    public let allowableMovement: Double

    private(set) var state: State = .waiting
    var touches: RecognizerTouches
    public private(set) var values = GestureValues()
    /// Impossible inputs ignored so far; kept across `reset()`.
    public internal(set) var anomalies = 0

    public init(parameters: LongPressParameters, context: RecognizerContext) {
        touchesRequired = max(1, parameters.touches)
        minimumDuration = TimeSpan(seconds: parameters.minimumDuration)
        allowableMovement = parameters.allowableMovement
        touches = RecognizerTouches(capacity: touchesRequired + 2)
    }

    /// When the press has lasted long enough, or when a pending end is due.
    public var deadline: Timestamp? {
        switch state {
        case .holding(let since): since + minimumDuration
        case .endPending(_, let at): at
        case .waiting, .began, .finished: nil
        }
    }

    /// Ended, cancelled or failed: the arena resets it once its touches have ended.
    public var isFinished: Bool { if case .finished = state { true } else { false } }

    /// The press began at the deadline the input overtook: the input applies to the begun
    /// gesture, and an end it causes waits for the next `.frameEnd` or `.deadline` so that
    /// this input reports `.began`. A pending end that came due is reported as it is.
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
        state = .waiting
        touches.removeAll()
        values = GestureValues()
    }

    mutating func transition(_ input: RecognizerInput) -> RecognizerVerdict {
        switch (state, input) {
        case (.waiting, .touchBegan(let s)):
            if touches.count == touchesRequired { state = .holding(since: s.time) }
            return .none
        case (.waiting, .touchMoved(let s)), (.holding, .touchMoved(let s)):
            return touches.hasMoved(s, fartherThan: allowableMovement) ? fail() : .none
        case (.waiting, .touchEnded), (.waiting, .touchCancelled):
            return fail() // lifted before it began
        case (.waiting, .frameEnd), (.waiting, .deadline):
            return .none

        case (.holding, .touchBegan):
            return fail() // an extra finger
        case (.holding, .touchEnded), (.holding, .touchCancelled):
            return fail() // lifted early
        case (.holding, .frameEnd):
            return .none
        case (.holding(let since), .deadline(let t)):
            guard t >= since + minimumDuration else { return .none }
            values = GestureValues()
            values.location = touches.centroid()
            state = .began(moved: false)
            return .began

        case (.began, .touchBegan(let s)):
            touches.ignore(s.touch)
            return .none
        case (.began, .touchMoved(let s)):
            if !touches.isIgnored(s.touch) { state = .began(moved: true) }
            return .none
        case (.began(let moved), .frameEnd):
            guard moved else { return .none }
            state = .began(moved: false)
            let location = touches.centroid()
            guard location != values.location else { return .none }
            values.location = location
            return .changed
        case (.began, .touchEnded(let s)):
            if touches.isIgnored(s.touch) { return .none }
            values.location = touches.centroid()
            state = .finished
            return .ended
        case (.began, .touchCancelled(let s)):
            if touches.isIgnored(s.touch) { return .none }
            state = .finished
            return .cancelled
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

    private mutating func fail() -> RecognizerVerdict {
        state = .finished
        return .failed
    }
}
