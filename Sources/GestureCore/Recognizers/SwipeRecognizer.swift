/// Recognizes `touches` fingers flicked along one of `direction` (UISwipeGestureRecognizer);
/// a discrete recognizer, transitions in docs/recognizers.md § Swipe.
///
/// Each finger is judged on its own movement since the last of them landed (Apple: the user
/// "moves the specified number of touches"). At the end of every frame (and at a lift, with
/// the lift's location), a finger whose movement is at least `minimumDistance` long is
/// judged: its dominant axis and sign must be one of `direction`, the displacement along that
/// axis at least twice the displacement across it (within about 26.6° of the axis), and its
/// average speed along the axis since the fingers landed at least `minimumVelocity` — else
/// the swipe fails. It is recognized in the frame in which every finger's displacement along
/// the axis has reached `minimumDistance`, all in the same direction, while the fingers are
/// still moving, as UIKit does; its location is the fingers' centroid where the swipe began.
/// A lift before that, an extra finger, a cancelled touch, or `maxDuration` passing since the
/// first finger landed fails it.
struct SwipeRecognizer: FinishingMachine, Sendable {
    /// Where the machine is; each case carries only what is valid in it.
    enum State: Sendable {
        /// No finger yet.
        case ready
        /// Fewer than `touches` fingers down; the first landed at `firstLanded`.
        case gathering(firstLanded: Timestamp)
        /// All fingers down since `startTime`, when their centroid was at `start`.
        case tracking(firstLanded: Timestamp, start: Point, startTime: Timestamp)
        /// Recognized or failed: ignores inputs until `reset()`.
        case finished
    }

    /// Displacement along the axis must be at least this many times the displacement across.
    public static let axisRatio = 2.0

    public let touchesRequired: Int
    public let directions: [SwipeDirection]
    public let minimumDistance: Double
    public let minimumVelocity: Double
    public let maxDuration: TimeSpan

    var state: State = .ready
    static var finished: State { .finished }
    var touches: RecognizerTouches
    public private(set) var values = GestureValues()
    /// Impossible inputs ignored so far; kept across `reset()`.
    public internal(set) var anomalies = 0
    /// Why it last failed or was cancelled (docs/recognizers.md § Why a recognizer failed).
    var failure: FailureReason?

    /// A machine with the parameters in force (``parameterKeys``).
    init(resolved p: ResolvedParameters, context: RecognizerContext) {
        touchesRequired = max(1, p.count("touches"))
        directions = p.words("direction", as: SwipeDirection.self)
        minimumDistance = p.number("minimumDistance")
        minimumVelocity = p.number("minimumVelocity")
        maxDuration = TimeSpan(seconds: p.number("maxDuration"))
        touches = RecognizerTouches(capacity: touchesRequired + 1)
    }

    /// `maxDuration` after the first finger landed.
    public var deadline: Timestamp? {
        switch state {
        case .gathering(let firstLanded), .tracking(let firstLanded, _, _): firstLanded + maxDuration
        case .ready, .finished: nil
        }
    }

    /// Recognized or failed: the arena resets it once its touches have ended.
    public var isFinished: Bool { if case .finished = state { true } else { false } }

    /// Back to `possible`, forgetting every touch.
    public mutating func reset() {
        state = .ready
        touches.removeAll()
        values = GestureValues()
    }

    mutating func transition(_ input: RecognizerInput) -> RecognizerVerdict {
        switch (state, input) {
        case (.ready, .touchBegan(let s)):
            gather(firstLanded: s.time, now: s.time)
            return .none
        case (.ready, .touchMoved), (.ready, .touchEnded), (.ready, .touchCancelled):
            return .none // unreachable: accepts() rejects touches it never saw
        case (.ready, .frameEnd), (.ready, .deadline):
            return .none

        case (.gathering(let firstLanded), .touchBegan(let s)):
            gather(firstLanded: firstLanded, now: s.time)
            return .none
        case (.gathering, .touchMoved), (.gathering, .frameEnd):
            return .none // movement counts from when all fingers are down
        case (.gathering, .touchEnded):
            // Lifted before all its fingers were down: how many were (this one included).
            return fail(.count(.tooFewTouches, touches.count, limit: touchesRequired))
        case (.gathering, .touchCancelled), (.tracking, .touchCancelled):
            return fail(.touchCancelled)
        case (.gathering(let firstLanded), .deadline(let t)), (.tracking(let firstLanded, _, _), .deadline(let t)):
            return t >= firstLanded + maxDuration ? fail(.span(.tooLong, t - firstLanded, limit: maxDuration)) : .none

        case (.tracking, .touchBegan):
            return fail(.count(.tooManyTouches, touches.count, limit: touchesRequired))
        case (.tracking, .touchMoved):
            return .none // judged at the frame's end, when all fingers of the frame moved
        case (.tracking(_, let start, let startTime), .frameEnd(let t)):
            return judge(from: start, since: startTime, at: t, lifting: false)
        case (.tracking(_, let start, let startTime), .touchEnded(let s)):
            return judge(from: start, since: startTime, at: s.time, lifting: true)

        case (.finished, _):
            return .none
        }
    }

    private mutating func gather(firstLanded: Timestamp, now: Timestamp) {
        if touches.count == touchesRequired {
            // Each finger is measured from where it is now that all of them are down.
            touches.restartAll()
            state = .tracking(firstLanded: firstLanded, start: touches.centroid(), startTime: now)
        } else {
            state = .gathering(firstLanded: firstLanded)
        }
    }

    /// What one finger's movement since the swipe began says (the rules in the type's doc).
    private enum FingerJudgement {
        /// Not far enough yet.
        case short
        /// Far enough, but in a direction, at an angle or at a speed that is no swipe: why.
        case wrong(FailureReason)
        /// A swipe of this finger in `direction`.
        case swiped(SwipeDirection)
    }

    /// Judges each finger (Apple: the user "moves the specified number of touches" in a
    /// permitted direction): the swipe is recognized once every finger swiped, all in the
    /// same direction, and fails as soon as one finger went far enough in a way that is no
    /// swipe. `lifting`: a finger lifts, so it is now or never. The location is the centroid
    /// where the swipe began (Apple: `location(in:)` gives "the location where a swipe began").
    private mutating func judge(from start: Point, since startTime: Timestamp, at time: Timestamp,
                                lifting: Bool) -> RecognizerVerdict {
        let elapsed = (time - startTime).seconds
        var common: SwipeDirection?
        var allSwiped = true
        for entry in touches.entries {
            switch judge(entry.location - entry.start, elapsed: elapsed) {
            case .wrong(let reason):
                return fail(reason)
            case .short:
                allSwiped = false
            case .swiped(let direction):
                if let common, common != direction { return fail(.wrongDirection) }
                common = direction
            }
        }
        guard allSwiped, let direction = common else { return lifting ? fail(tooShort()) : .none }
        values = GestureValues()
        values.location = start
        values.direction = direction
        state = .finished
        return .recognized
    }

    /// One finger's displacement `d` after `elapsed` seconds.
    private func judge(_ d: Point, elapsed: Double) -> FingerJudgement {
        guard RecognizerMath.length(d) >= minimumDistance else { return .short }
        let direction: SwipeDirection
        let along: Double, across: Double
        if abs(d.x) >= abs(d.y) {
            direction = d.x >= 0 ? .right : .left
            along = abs(d.x)
            across = abs(d.y)
        } else {
            direction = d.y >= 0 ? .down : .up
            along = abs(d.y)
            across = abs(d.x)
        }
        guard directions.contains(direction), along >= Self.axisRatio * across else { return .wrong(FailureReason(.wrongDirection)) }
        if elapsed > 0 && along / elapsed < minimumVelocity {
            return .wrong(FailureReason(.tooSlow, measured: along / elapsed, limit: minimumVelocity))
        }
        return along >= minimumDistance ? .swiped(direction) : .short
    }

    /// Why a finger lifted before every finger swiped fails the swipe: the shortest distance
    /// a finger went along its dominant axis, and `minimumDistance`.
    private func tooShort() -> FailureReason {
        let shortest = touches.entries.map { entry in
            let d = entry.location - entry.start
            return max(abs(d.x), abs(d.y))
        }.min()
        return FailureReason(.tooShort, measured: shortest, limit: minimumDistance)
    }
}

/// A swipe direction.
public enum SwipeDirection: String, Hashable, Sendable, CaseIterable {
    case right, left, up, down
}

/// `swipe`: ``SwipeRecognizer``.
extension RecognizerKind { public static let swipe = RecognizerKind(SwipeRecognizer.self) }

extension SwipeRecognizer: RecognizerKindMachine {
    static var quotedName: StaticString { #""swipe""# }
    static var isDiscrete: Bool { true }

    static var parameterKeys: [ParameterKey] {
        [.init("direction", .words(SwipeDirection.allCases.map(\.rawValue), noun: "a swipe direction")),
         .init("touches", .count(LayoutLimits.touches, noun: "touches")), .init("minimumDistance", .points),
         .init("minimumVelocity", .pointsPerSecond), .init("maxDuration", .seconds)]
    }

    /// UIKit does not document its swipe thresholds. 50 pt in at most 0.5 s at an average of
    /// at least 200 pt/s matches a flick on a phone-sized panel; on large kiosk panels raise
    /// minimumDistance in `gestures.swipe`.
    static var defaults: RecognizerParameters {
        ["direction": ["right"], "touches": 1, "minimumDistance": 50.0, "minimumVelocity": 200.0, "maxDuration": 0.5]
    }
}
