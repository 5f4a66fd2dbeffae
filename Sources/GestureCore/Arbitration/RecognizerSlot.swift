/// One recognizer of a layout inside the arena: its machine, its public state and the touches
/// of its current sequence (since its last reset).
struct RecognizerSlot: Sendable {
    let spec: RecognizerSpec
    let tree: ViewTree
    /// The view it is attached to.
    let view: ViewIndex
    var machine: AnyRecognizer
    var state: GestureState = .possible
    /// A `began` or `recognized` the machine asked for while a recognizer it requires to fail
    /// was still undecided (`requireToFail`, docs/recognizers-and-arbitration.md § Who wins).
    var pending: RecognizerVerdict?
    /// Touches of the current sequence still down at the input.
    var activeTouches: [TouchID] = []
    /// Every touch of the current sequence, down or lifted (a double tap owns both taps),
    /// including those it holds aside.
    var sequenceTouches: [TouchID] = []
    /// Touches of the sequence its machine holds aside, not as part of its gesture (a pan's
    /// finger beyond `maximumTouches`, a pinch's third): they reach the views as if the
    /// recognizer were not there, and it shares them with no one (docs/recognizers-and-arbitration.md § Which recognizers
    /// see a touch).
    var ignoredTouches: [TouchID] = []
    /// Touches of the sequence that hit a control inside its view (not its own view).
    var controlTouches: [TouchID] = []
    /// The recognizers named by `requireToFail`, as indices in its layout (from its bank's
    /// base, ``SlotBanks/base(of:)``), as are the two lists below.
    var requiredToFail: [Int] = []
    /// The recognizers whose `requireToFail` names this one, ascending, each
    /// once: those its failure may let go ahead, and those its recognition fails.
    var requiredBy: [Int] = []
    /// Where in ``requiredToFail`` the last search for a recognizer it still waits for found
    /// one: the next search starts there. Requirements fail one after another, so each search
    /// goes on from the last instead of passing again over those that already failed (a
    /// list of 1,000 gone through from its start at each failure was half a million steps).
    var waitHint = 0
    /// The recognizers it may recognize together with (either side's
    /// `simultaneousWith`).
    var simultaneous: [Int] = []
    let cancelsTouchesInView: Bool
    let delaysTouchesBegan: Bool
    let delaysTouchesEnded: Bool
    /// A claiming recognizer (`claims: true`, docs/routing.md).
    let claims: Bool
    /// A one-finger single tap: a control's own tracking wins it over the recognizer, for
    /// touches that hit the control (docs/touches.md § Controls, UIKit's `UIControl.gestureRecognizerShouldBegin`).
    let yieldsToControls: Bool

    /// Its id as a JSON string, quoted once here rather than for every gesture event.
    let quotedID: [UInt8]

    /// The most lifted touches its sequence keeps (docs/limits.md): a tap's taps × touches,
    /// the most a sequence it can still recognize holds; 20 (``LayoutLimits/touches``'
    /// largest) for the others. An undecided recognizer keeps every touch that lifts (its
    /// `ended` held for it, docs/touches.md § Delivery to views) until it decides; with a finger resting on the panel it
    /// may never decide (a pan with more fingers than it takes stays `possible`), and the
    /// touches tapped beside it would pile up without end, each held and scanned every frame.
    let liftedTouchLimit: Int

    init(spec: RecognizerSpec, tree: ViewTree, view: ViewIndex, parameters: ResolvedParameters,
         context: RecognizerContext) {
        self.spec = spec
        quotedID = JSONWriter.quoted(spec.id)
        self.tree = tree
        self.view = view
        machine = AnyRecognizer(parameters: parameters, context: context)
        cancelsTouchesInView = spec.cancelsTouchesInView ?? true
        delaysTouchesBegan = spec.delaysTouchesBegan ?? false
        delaysTouchesEnded = spec.delaysTouchesEnded ?? true
        claims = spec.claims ?? false
        yieldsToControls = parameters.kind.machine.yieldsToControls(parameters)
        liftedTouchLimit = parameters.kind.machine.liftedTouchLimit(parameters)
    }

    /// Past ``liftedTouchLimit``, the oldest lifted touches leave the sequence: the recognizer
    /// no longer holds their `ended` (it is delivered at the frame's end), nor lists them in
    /// its events, nor loses or wins by them. Touches still down always stay. Called when a
    /// touch joins, the only time the sequence grows.
    mutating func forgetLiftedTouchesPastLimit() {
        var excess = sequenceTouches.count - activeTouches.count - liftedTouchLimit
        guard excess > 0 else { return }
        var index = 0
        while excess > 0 && index < sequenceTouches.count {
            let touch = sequenceTouches[index]
            if activeTouches.contains(touch) {
                index += 1
                continue
            }
            sequenceTouches.remove(at: index)
            ignoredTouches.removeAll { $0 == touch }
            controlTouches.removeAll { $0 == touch }
            excess -= 1
        }
    }

    @inline(__always)
    var isTerminal: Bool {
        switch state {
        case .recognized, .ended, .cancelled, .failed: true
        case .possible, .began, .changed: false
        }
    }

    /// Whether `touch` is part of its gesture: received in this sequence and not held aside.
    /// Always inlined, as are the other questions here: a call on a slot read from the arena's
    /// array copied all of it (its arrays and references retained).
    @inline(__always)
    func owns(_ touch: TouchID) -> Bool {
        sequenceTouches.contains(touch) && !ignoredTouches.contains(touch)
    }

    /// Whether its gesture has one of `touches` (another gesture's: its sequence's, less those
    /// it holds aside).
    /// Given the other's touches, not the other slot: a slot passed from the arena's array
    /// was copied whole (its arrays and references retained), once for every recognizer in play at
    /// every request.
    @inline(__always)
    func ownsAny(of touches: [TouchID]) -> Bool {
        for touch in touches where owns(touch) { return true }
        return false
    }

    /// Brings `ignoredTouches` up to date after its machine saw an input about `touch`: a
    /// touch may be set aside when it lands, and taken back when a pinch re-forms its pair.
    mutating func noteIgnoring(after touch: TouchID) {
        let status = machine.touchStatus(touch)
        if status.tracking && status.ignoring && !ignoredTouches.contains(touch) {
            ignoredTouches.append(touch)
        }
        var i = 0
        while i < ignoredTouches.count {
            let held = machine.touchStatus(ignoredTouches[i])
            if held.tracking && !held.ignoring {
                ignoredTouches.remove(at: i)
            } else {
                i += 1
            }
        }
    }
}
