/// Why a recognizer failed or was cancelled: one of a closed set of causes, with the measured
/// figure and the limit it broke where there is one (docs/recognizers.md § Why a recognizer
/// failed). A kind's machine gives one at each of its fail sites (``FinishingMachine/fail(_:)``);
/// the arena gives one where arbitration decides (another recognizer won, a requirement
/// recognized, the recognizer was disabled), naming the other recognizer.
public struct FailureReason: Hashable, Sendable {
    public var cause: FailureCause
    /// What was measured, in ``FailureCause/unit``: how far the finger moved, how long the tap
    /// lasted, how many fingers landed.
    public var measured: Double?
    /// The limit the measured figure broke, in the same unit (the parameter in force).
    public var limit: Double?
    /// The arena's slot of the recognizer that caused it (``FailureCause/excluded``,
    /// ``FailureCause/requirementRecognized``); the event names it by its id.
    var by: Int?

    public init(_ cause: FailureCause, measured: Double? = nil, limit: Double? = nil) {
        self.cause = cause
        self.measured = measured
        self.limit = limit
    }

    init(_ cause: FailureCause, by other: Int) {
        self.cause = cause
        self.by = other
    }

    /// A count measured against a count limit.
    static func count(_ cause: FailureCause, _ measured: Int, limit: Int) -> FailureReason {
        FailureReason(cause, measured: Double(measured), limit: Double(limit))
    }

    /// A time span measured against a time limit, both in seconds.
    static func span(_ cause: FailureCause, _ measured: TimeSpan, limit: TimeSpan) -> FailureReason {
        FailureReason(cause, measured: measured.seconds, limit: limit.seconds)
    }
}

/// The causes of a failure or a cancellation, as the `reason` of a gesture event names them
/// (docs/protocol.md § Why a recognizer failed). The first group are a kind's own rules, the
/// second the arena's (UIKit's exclusivity, `require(toFail:)`, `isEnabled`, and a control's
/// `gestureRecognizerShouldBegin`).
public enum FailureCause: String, Hashable, Sendable, CaseIterable {
    /// A finger moved farther from where it landed than allowed (a tap's `maxMovement`, a long
    /// press's `allowableMovement`).
    case movedTooFar
    /// A later tap (or a long press after taps) landed farther from the first tap's place than
    /// the tap's `maxMovement`.
    case tapTooFarFromFirst
    /// The gesture lasted longer than its `maxDuration` (a tap, a long press's tap, a swipe).
    case tooLong
    /// The next tap did not begin within `maxInterval` of the previous one's end.
    case nextTapTooLate
    /// A long press's finger lifted before `minimumDuration`.
    case liftedTooSoon
    /// More fingers landed than the gesture takes.
    case tooManyTouches
    /// A finger lifted before all the fingers it needs were down together.
    case tooFewTouches
    /// All its fingers lifted before the continuous gesture began (a pan within its slop: the
    /// translation and the slop; a pinch or rotation with one finger: no figure).
    case liftedBeforeBegan
    /// A swipe went in a direction it does not accept, off its axis, or its fingers disagreed.
    case wrongDirection
    /// A swipe moved slower than `minimumVelocity`.
    case tooSlow
    /// A swipe's finger lifted before it had gone `minimumDistance`.
    case tooShort
    /// An edge pan's finger landed outside every edge band (`edgeWidth`).
    case outsideEdge
    /// One of its touches was cancelled (the kernel or the device lost it).
    case touchCancelled
    /// Another recognizer that shares a touch began or recognized first, and they may not be
    /// simultaneous (`by` names it).
    case excluded
    /// A recognizer it requires to fail began or recognized (`by` names it).
    case requirementRecognized
    /// A single tap gave way to the control under its finger (UIKit's
    /// `UIControl.gestureRecognizerShouldBegin`).
    case yieldedToControl
    /// The layout disabled it (`enabled: false`) while it was deciding.
    case disabled
    /// Its continuous gesture ended while it waited for a recognizer it requires to fail.
    case endedWhileWaiting
    /// A kind returned a failure without a reason: a bug in that kind (the tests walk every
    /// kind's fail paths so that none does).
    case unexplained

    /// The unit of the measured figure and the limit, as docs/protocol.md writes it, or nil
    /// when the cause has none.
    public var unit: String? {
        switch self {
        case .movedTooFar, .tapTooFarFromFirst, .tooShort, .outsideEdge, .liftedBeforeBegan: "pt"
        case .tooLong, .nextTapTooLate, .liftedTooSoon: "s"
        case .tooSlow: "pt/s"
        case .tooManyTouches, .tooFewTouches: "touches"
        case .wrongDirection, .touchCancelled, .excluded, .requirementRecognized,
             .yieldedToControl, .disabled, .endedWhileWaiting, .unexplained: nil
        }
    }
}
