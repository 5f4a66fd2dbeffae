/// A recognizer state machine whose inputs reach its own transition table through the one
/// shared driver, ``drive(_:)``: every built-in machine but the edge pan, which drives a pan.
///
/// The driver is the part of docs/recognizers.md § Driving a machine that is the same for
/// every machine, so that it is written once and a rule changes in one place: an impossible
/// input is counted and ignored (rule 5); an overdue deadline fires first, before the input
/// moves any touch it measures (rule 3); the touch table takes a touch change in before the
/// transition sees it and forgets an ended touch only after, so the transition still sees
/// where it lifted (rules 4 and 6). Machines conform with their concrete type and the driver
/// is generic, not an existential: each machine's call is specialised and inlined, so the
/// per-frame path allocates nothing and dispatches nothing dynamically.
protocol RecognizerStateMachine {
    /// The touches the machine holds; only the driver adds and forgets them.
    var touches: RecognizerTouches { get set }
    /// Impossible inputs ignored so far; kept across `reset()`.
    var anomalies: Int { get set }
    /// The next time the machine needs a `.deadline` input, or nil.
    var deadline: Timestamp? { get }
    /// The machine's table: one exhaustive `switch (state, input)` over an accepted input,
    /// with the touch change already in `touches`.
    mutating func transition(_ input: RecognizerInput) -> RecognizerVerdict
    /// What an accepted input at `time` returns when it overtook a deadline whose transition
    /// returned `fired` (never `.none`); the input's touch change is already in `touches`.
    /// The default suits a machine whose deadlines can only fail it.
    mutating func overtaken(by input: RecognizerInput, at time: Timestamp,
                            fired: RecognizerVerdict) -> RecognizerVerdict
    /// False for a machine whose every state answers a move with `.none` and changes nothing
    /// but the touch table (it judges movement at the frame's end): its moves skip
    /// `transition(_:)`. True by default.
    static var judgesMoves: Bool { get }
}

extension RecognizerStateMachine {
    /// Feeds one input; returns what the machine wants (docs/recognizers.md has each machine's
    /// table). The same for every machine: the shared driver.
    mutating func handle(_ input: RecognizerInput) -> RecognizerVerdict {
        drive(input)
    }

    /// The touches it holds (down, delivered to it), in the order they began. Allocates:
    /// prefer `trackedTouchCount` and `isTracking(_:)` per frame.
    var trackedTouches: [TouchID] { touches.ids }

    var trackedTouchCount: Int { touches.count }

    func isTracking(_ touch: TouchID) -> Bool { touches.index(of: touch) != nil }

    /// Whether it holds `touch` aside, not as part of its gesture (docs/recognizers-and-arbitration.md § Which recognizers see a touch).
    func isIgnoring(_ touch: TouchID) -> Bool { touches.isIgnored(touch) }

    /// Feeds one input through the shared rules to `transition(_:)`; every machine's
    /// `handle(_:)`.
    @inline(__always)
    mutating func drive(_ input: RecognizerInput) -> RecognizerVerdict {
        // A move with no deadline due, most inputs of every frame: what the general path below
        // does for it (accept, admit, transition; retire does nothing), with one search of
        // the touch table instead of two.
        if case .touchMoved(let sample) = input, deadline.map({ sample.time < $0 }) ?? true {
            guard touches.move(sample.touch, to: sample.location) else {
                anomalies += 1
                return .none
            }
            return Self.judgesMoves ? transition(input) : .none
        }
        guard touches.accepts(input) else {
            anomalies += 1
            return .none
        }
        // An overdue deadline fires first, before the input changes anything it looks at.
        let time = RecognizerTouches.time(of: input)
        var fired = RecognizerVerdict.none
        if let due = deadline, time >= due { fired = transition(.deadline(due)) }
        touches.admit(input)
        defer { touches.retire(input) }
        if fired != .none { return overtaken(by: input, at: time, fired: fired) }
        return transition(input)
    }

    static var judgesMoves: Bool { true }

    /// A terminal deadline (a tap's or swipe's timeout can only fail it): the input it
    /// overtook changes nothing but the touch table.
    mutating func overtaken(by input: RecognizerInput, at time: Timestamp,
                            fired: RecognizerVerdict) -> RecognizerVerdict {
        fired
    }
}

/// A machine whose states end in one `finished` case, which a failure goes to: ``fail(_:)``
/// and ``cancel()`` written once for every such machine.
protocol FinishingMachine: RecognizerStateMachine {
    associatedtype State
    /// Where the machine is; only the machine's own file changes it.
    var state: State { get set }
    /// The state it stays in after a terminal verdict, until `reset()`.
    static var finished: State { get }
    /// Why it last failed or was cancelled: set with the `.failed` or `.cancelled` verdict,
    /// read by the arena with it (and only then).
    var failure: FailureReason? { get set }
}

extension FinishingMachine {
    /// Fails for `reason`: finished, ignoring inputs until `reset()`.
    @inline(__always)
    mutating func fail(_ reason: FailureReason) -> RecognizerVerdict {
        state = Self.finished
        failure = reason
        return .failed
    }

    /// Fails because `cause` (no figure to report).
    @inline(__always)
    mutating func fail(_ cause: FailureCause) -> RecognizerVerdict {
        fail(FailureReason(cause))
    }

    /// A touch of the gesture was cancelled: finished, `.cancelled`.
    @inline(__always)
    mutating func cancel() -> RecognizerVerdict {
        state = Self.finished
        failure = FailureReason(.touchCancelled)
        return .cancelled
    }
}
