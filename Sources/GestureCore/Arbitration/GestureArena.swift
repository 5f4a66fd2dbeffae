/// Decides which recognizers may recognize (docs/recognizers-and-arbitration.md § Who wins). The rule in one sentence: **the first
/// recognizer to recognize wins every touch it shares with others, unless they are allowed to
/// be simultaneous; a recognizer that requires others to fail waits until they have.**
///
/// The arena holds every recognizer of the layout (and, after a layout change, the retired
/// layouts' recognizers while touches that began in them are down or they have something left
/// to decide). It feeds them touch inputs, turns their
/// verdicts into states and gesture events, and reports the touches whose view deliveries a
/// recognition cancels (`cancelsTouchesInView`), with where in the event list the cancellation
/// belongs: before the recognition's own event (docs/touches.md § Delivery to views).
///
/// No input costs more than the recognizers it concerns (issue 25, docs/limits.md § Engine):
/// the arena keeps each view's recognizers of the current layout as one range, who requires
/// whom in both directions, and the recognizers *in play* — every one not at rest since its
/// last reset — which are the only ones that can hold a touch, a deadline or a state other
/// than `possible`, so deadlines, resets and exclusivity look at them alone. What a verdict
/// sets off (failures letting waiting recognizers go ahead, a recognition failing its rivals
/// and those that required it to fail) runs from a work list, in exactly the order of the
/// rule applied recursively, so a `requireToFail` chain as long as the layout allows cannot
/// overflow the stack (a chain of about 1,800 taps did).
struct GestureArena {
    /// A touch whose view deliveries a recognition cancels; `position` is the index in the
    /// event list of the recognition's `recognized`/`began` event, before which the
    /// cancellation is emitted (UIKit cancels the touches before it sends the first action).
    struct Cancellation {
        var touch: TouchID
        var position: Int
    }

    /// Every recognizer the arena holds, a bank per layout (``SlotBanks``).
    private(set) var slots = SlotBanks()
    private(set) var settings: GestureSettings
    private(set) var context: RecognizerContext
    var tracing: Bool

    /// The layout whose recognizers take new touches; its recognizers start at `currentBase` in
    /// `slots` (its bank's base), in view order, view `v`'s from `currentBase + viewStarts[v]`
    /// to `currentBase + viewStarts[v + 1]`. The other banks hold retired layouts. A touch's
    /// recognizers all belong to the layout it began in, and so do the recognizers a
    /// recognizer's lists name (counted from its bank's base).
    private var currentTree: ViewTree
    private var currentBase = 0
    private var viewStarts: [Int] = []
    /// The recognizers in play: those not at rest, in the order they left it. At rest is as a
    /// reset leaves a recognizer, for all the arena asks: possible, nothing pending, no touch in
    /// its sequence, no deadline. Only a recognizer in play holds a touch or a deadline, or has
    /// decided, so it is all that deadlines, resets and exclusivity need to look at.
    private var inPlay = SlotSet()
    /// The recognizers the one asking to recognize may be simultaneous with, for the time of
    /// its request.
    private var simultaneousMarks = SlotSet()
    /// The steps of a cascade still to run, the last first (``run(_:at:events:cancellations:)``).
    private var work: [Step] = []
    /// Lists of recognizers that steps go through one at a time: a recognition's rivals, the
    /// recognizers whose deadline is due. Each list is stacked above the lists of the steps
    /// it runs inside, and taken off when it is done.
    private var lists: [Int] = []
    /// The touches of the recognizer asking to recognize, for the time of its request.
    private var owned: [TouchID] = []
    /// Touches a claiming recognizer took (it began or recognized) since the engine last
    /// emptied the list (docs/routing.md): the engine claims them. Kept only while
    /// ``collectsClaims`` (touches are routed): otherwise nobody would empty it.
    var claimedTouches: [TouchID] = []
    var collectsClaims = false

    /// Recognizers looked at so far, in every loop over recognizers of the arena and the
    /// engine: a measure of work that does not depend on the machine, for the tests that
    /// check it grows linearly with a layout's recognizers (issue 25). Never reset. Counted
    /// in debug builds only (``count(visits:)``).
    private(set) var visits = 0

    init(_ prepared: PreparedLayout, tracing: Bool) {
        settings = prepared.basis.settings
        context = RecognizerContext(screen: prepared.basis.screen)
        self.tracing = tracing
        currentTree = prepared.tree
        install(prepared)
    }

    /// Retires the current recognizers and installs those of `prepared`, made for
    /// ``settings`` and ``context``'s screen or for new ones (``reconfigure``). A retired
    /// recognizer that holds a touch finishes its sequence; one that holds none is finished at
    /// once, silently, with whatever it waited for (a double tap half done on a screen that is
    /// gone). Only recognizers in play can hold a touch or wait for anything: one at rest is
    /// left as it is, as failing it would change nothing (no touch reaches it again, and the
    /// reset at the frame's end would bring it back to rest). With no touch down
    /// (`keepingRetired` false) the retired layouts are dropped at once.
    mutating func replaceLayout(_ prepared: PreparedLayout, keepingRetired: Bool) {
        settings = prepared.basis.settings
        context = RecognizerContext(screen: prepared.basis.screen)
        if keepingRetired {
            count(visits: inPlay.count)
            for position in 0..<inPlay.count {
                let index = inPlay.members[position]
                if slots[index].activeTouches.isEmpty {
                    slots[index].state = .failed
                    slots[index].pending = nil
                }
            }
        } else {
            // What `dropRetired` does once they are retired: no touch refers to a recognizer.
            for bank in slots.order { release(slots.remove(bank: bank)) }
            inPlay.removeAll()
        }
        released.add(currentTree)
        install(prepared)
    }

    /// Cancels or fails, before `prepared` is installed, every recognizer in play that the
    /// new layout disables: a recognizer whose id `prepared` has with `enabled: false`. Apple
    /// (`isEnabled`): "If you change this property to false while a gesture recognizer is
    /// currently recognizing a gesture, the gesture recognizer transitions to a cancelled
    /// state." One that began is cancelled (its touches stay cancelled in their views, as
    /// after any cancelled gesture: they were cancelled when it began); one still possible
    /// fails, which releases the deliveries it held and lets those that required it to fail go
    /// ahead. Either way it takes no more input until all its touches have ended. Only the
    /// recognizers in play are looked at, and only when the new layout disables any.
    mutating func disable(_ prepared: PreparedLayout, at time: Timestamp, events: inout EngineEvents,
                          cancellations: inout [Cancellation]) {
        guard !prepared.disabledIDs.isEmpty else { return }
        count(visits: inPlay.count)
        // A cascade may change who is in play: the recognizers to disable are listed first.
        let start = lists.count
        for position in 0..<inPlay.count {
            let index = inPlay.members[position]
            if slots[index].spec.enabled && prepared.disabledIDs.contains(slots[index].spec.id) { lists.append(index) }
        }
        // An older layout's first, each in the order of its layout, as deadlines fire.
        let ages = slots.ages
        lists[start...].sort { SlotBanks.precedes($0, $1, ages: ages) }
        for position in start..<lists.count {
            let index = lists[position]
            switch slots[index].state {
            case .possible:
                run(.fail(index, FailureReason(.disabled)), at: time, events: &events, cancellations: &cancellations)
            case .began, .changed:
                transition(index, to: .cancelled, at: time, events: &events, reason: FailureReason(.disabled))
            case .recognized, .ended, .cancelled, .failed:
                break
            }
        }
        lists.removeLast(lists.count - start)
    }

    /// The recognizers dropped and the trees replaced since the driver last took them
    /// (``takeReleased()``): where they are freed is the driver's to choose.
    private var released = ReleasedStorage()

    /// Whether the arena let go of something since ``takeReleased()``.
    var hasReleased: Bool { !released.isEmpty }

    /// What the arena let go of since the last call.
    mutating func takeReleased() -> ReleasedStorage {
        var taken = ReleasedStorage()
        swap(&taken, &released)
        return taken
    }

    private mutating func release(_ dropped: [RecognizerSlot]) {
        if !dropped.isEmpty { released.add(dropped) }
    }

    /// Lets go of a tree the engine no longer refers to, with the recognizers dropped.
    mutating func release(tree: ViewTree) {
        released.add(tree)
    }

    /// Puts the recognizers of `prepared` in a bank of their own, as the current layout.
    private mutating func install(_ prepared: PreparedLayout) {
        currentTree = prepared.tree
        viewStarts = prepared.viewStarts
        count(visits: prepared.visits)
        currentBase = slots.add(prepared.slots)
    }

    /// Drops the retired layouts. The engine calls this when it tracks no touch at all, so
    /// no touch refers to them; their recognizers leave those in play.
    mutating func dropRetired() {
        guard slots.order.count > 1 else { return }
        let current = SlotBanks.bank(of: currentBase)
        count(visits: inPlay.count)
        for bank in slots.order where bank != current { release(slots.remove(bank: bank)) }
        inPlay.removeAll { SlotBanks.bank(of: $0) != current }
    }

    /// Drops the retired layouts that can no longer do anything: none of `touches` began in
    /// them, and all their recognizers are at rest. Such a recognizer receives nothing again
    /// (only the touches that began in its layout reach it) and has nothing left to decide,
    /// so dropping it changes no event; without this, every `layout.set` while a finger rests
    /// on the panel (or a contact is stuck) kept a whole layout's recognizers until the last
    /// touch lifted, each with its machine. Costs the touches and the recognizers in play, not the
    /// layouts' recognizers.
    mutating func dropIdleLayouts(touches: [TouchRecord]) {
        let order = slots.order
        guard order.count > 1 else { return }
        var needed = [Bool](repeating: false, count: order.max().map { $0 + 1 } ?? 0)
        needed[SlotBanks.bank(of: currentBase)] = true
        for touch in touches where !touch.recognizers.isEmpty { needed[SlotBanks.bank(of: touch.recognizers[0])] = true }
        for index in inPlay.members { needed[SlotBanks.bank(of: index)] = true }
        count(visits: touches.count + inPlay.count)
        for bank in order where !needed[bank] { release(slots.remove(bank: bank)) }
    }

    /// The recognizers that receive a touch hitting `view` of the current layout (docs/recognizers-and-arbitration.md):
    /// the hit view's first, then each ancestor's up to the root, each view's in attachment
    /// order. Every enabled recognizer receives it, whatever its finger counts: what it does
    /// with more fingers than it wants is its own rule (5.7). Disabled and finished recognizers
    /// do not receive it: a machine that already gave its verdict (a tap waiting on a failure
    /// requirement) cannot use another touch, and giving it one would make the touch part of
    /// a gesture it took no part in. (Retired ones are not in the current layout's ranges.)
    mutating func candidates(for view: ViewIndex) -> [Int] {
        var result: [Int] = []
        for ancestor in currentTree.ancestry(of: view) {
            let first = currentBase + viewStarts[ancestor], end = currentBase + viewStarts[ancestor + 1]
            count(visits: end - first)
            for index in first..<end {
                guard slots[index].spec.enabled, !slots[index].isTerminal, !slots[index].machine.isFinished else {
                    continue
                }
                result.append(index)
            }
        }
        return result
    }

    /// Whether the recognizer gave its verdict (it stays so until it resets).
    @inline(__always)
    func hasDecided(_ index: Int) -> Bool {
        slots[index].isTerminal
    }

    /// Adds `added` recognizers looked at to ``visits``, in debug builds, which the tests
    /// run: a release build counts nothing (docs/performance.md has what counting cost).
    @inline(__always)
    mutating func count(visits added: Int) {
        #if DEBUG
        visits &+= added
        #endif
    }

    /// Feeds one input to one recognizer and applies its verdict. A touch that began joins the
    /// recognizer's sequence here, unless it gave its verdict earlier in the frame: a
    /// recognizer takes no touch after that until it resets, and its events never list one.
    /// `view` is the hit view of a touch that began.
    mutating func feed(_ input: RecognizerInput, to index: Int, hitting view: ViewIndex? = nil, at time: Timestamp,
                       events: inout EngineEvents, cancellations: inout [Cancellation]) {
        // The slot is read and changed through one pointer (a slot's every field read through
        // the array costs a bounds and a uniqueness check, and this runs for every touch of
        // every recognizer in every frame); what the verdict sets off needs the whole arena.
        // A move changes nothing for a recognizer that already gave its verdict (a tap that
        // failed and waits for its touches to lift): answered by a read, without taking the
        // array for writing (a uniqueness check) or the switch below.
        if case .touchMoved = input, slots[index].isTerminal { return }
        // Anything else may take it out of rest (a touch, a deadline, a state).
        inPlay.insert(index)
        let (verdict, newAnomalies) = slots.withSlot(index) { slot -> (RecognizerVerdict?, Int) in
            switch input {
            case .touchBegan(let sample):
                guard !slot.pointee.isTerminal, !slot.pointee.machine.isFinished else { return (nil, 0) }
                slot.pointee.activeTouches.append(sample.touch)
                slot.pointee.sequenceTouches.append(sample.touch)
                if let view, slot.pointee.view != view && slot.pointee.tree[view].spec.kind == .control {
                    slot.pointee.controlTouches.append(sample.touch)
                }
                slot.pointee.forgetLiftedTouchesPastLimit()
            // A touch that moves or lifts is down until now, so it is in the sequence exactly
            // when it is among the active touches, the shorter list: the sequence keeps every
            // touch that lifted while the recognizer stayed undecided.
            case .touchEnded(let sample), .touchCancelled(let sample):
                guard let active = slot.pointee.activeTouches.firstIndex(of: sample.touch) else { return (nil, 0) }
                slot.pointee.activeTouches.remove(at: active)
            case .touchMoved(let sample):
                guard slot.pointee.activeTouches.contains(sample.touch) else { return (nil, 0) }
            case .frameEnd, .deadline: break
            }
            guard !slot.pointee.isTerminal else { return (nil, 0) }
            let before = slot.pointee.machine.anomalies
            let verdict = slot.pointee.machine.handleOwned(input)
            let added = slot.pointee.machine.anomalies - before
            switch input {
            case .touchBegan(let sample), .touchEnded(let sample): slot.pointee.noteIgnoring(after: sample.touch)
            case .touchMoved, .touchCancelled, .frameEnd, .deadline: break
            }
            return (verdict, added)
        }
        anomalies += newAnomalies
        guard let verdict else { return }
        apply(verdict, to: index, at: time, events: &events, cancellations: &cancellations)
    }

    /// A move of `sample`'s touch to the undecided recognizer at `index` (ask
    /// ``hasDecided(_:)`` first), as ``feed(_:to:hitting:at:events:cancellations:)`` gives
    /// it, when that can be answered without a verdict: the recognizer does not hold the
    /// touch, or its machine does not judge moves (``AnyRecognizer/moveQuietly(_:)``).
    /// Returns false, having done nothing, when the move must be fed. Every touch of a pan or
    /// pinch moves in nearly every frame: through `feed` each move was an input enum, a
    /// closure, a verdict and two dispatches. (A recognizer that holds the touch is in play
    /// already.)
    @inline(__always)
    mutating func moveQuietly(_ sample: TouchSample, to index: Int) -> Bool {
        let (done, added) = slots.withSlot(index) { slot -> (Bool, Int) in
            if !slot.pointee.activeTouches.contains(sample.touch) { return (true, 0) }
            let before = slot.pointee.machine.anomalies
            guard slot.pointee.machine.moveQuietly(sample) else { return (false, 0) }
            return (true, slot.pointee.machine.anomalies - before)
        }
        anomalies += added
        return done
    }

    /// Makes every machine the arena's own before it feeds them (``SlotBanks/claimMachines()``):
    /// the engine calls this first in each of its calls that may feed a recognizer.
    @inline(__always)
    mutating func claimMachines() {
        slots.claimMachines()
    }

    /// Impossible inputs the recognizers were given and ignored (an arena bug if not 0).
    private(set) var anomalies = 0

    /// The earliest deadline of any recognizer still deciding: only recognizers in play have
    /// one. Reads the slots in place (by index): copying a slot copies its machine.
    mutating func earliestDeadline() -> Timestamp? {
        count(visits: inPlay.count)
        var earliest: Timestamp?
        for position in 0..<inPlay.count {
            let index = inPlay.members[position]
            guard !slots[index].isTerminal, let deadline = slots[index].machine.deadline else { continue }
            if earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
        }
        return earliest
    }

    /// Fires the recognizers whose deadline is exactly `deadline` (the engine walks the
    /// deadlines in order with ``earliestDeadline()``), in the order of the layout.
    mutating func fireDeadline(_ deadline: Timestamp, events: inout EngineEvents, cancellations: inout [Cancellation]) {
        count(visits: inPlay.count)
        let start = lists.count
        for position in 0..<inPlay.count {
            let index = inPlay.members[position]
            if !slots[index].isTerminal && slots[index].machine.deadline == deadline { lists.append(index) }
        }
        // An older layout's first (a retired layout's bank may be above the current one's).
        let ages = slots.ages
        lists[start...].sort { SlotBanks.precedes($0, $1, ages: ages) }
        // Feeding one recognizer changes no other's deadline, and what its verdict sets off
        // changes states, never back from a terminal one: the list holds every recognizer
        // that may still fire, each asked again before it does, as the walk over all did.
        for position in start..<lists.count {
            let index = lists[position]
            guard !slots[index].isTerminal && slots[index].machine.deadline == deadline else { continue }
            feed(.deadline(deadline), to: index, at: deadline, events: &events, cancellations: &cancellations)
        }
        lists.removeLast(lists.count - start)
    }

    /// Resets recognizers that reached a terminal state and hold no touch (docs/recognizers-and-arbitration.md); those
    /// at rest then leave the recognizers in play (whose order does not matter).
    mutating func resetFinished() {
        count(visits: inPlay.count)
        var position = 0
        while position < inPlay.count {
            let index = inPlay.members[position]
            if slots[index].isTerminal && slots[index].activeTouches.isEmpty {
                slots[index].machine.reset()
                slots[index].state = .possible
                slots[index].pending = nil
                slots[index].sequenceTouches.removeAll(keepingCapacity: true)
                slots[index].ignoredTouches.removeAll(keepingCapacity: true)
                slots[index].controlTouches.removeAll(keepingCapacity: true)
            }
            // At rest (see `inPlay`), asked field by field: a computed property of the slot
            // read from the array (or a pointer, in a closure) copied the slot first.
            if slots[index].state == .possible && slots[index].pending == nil && slots[index].sequenceTouches.isEmpty
                && slots[index].activeTouches.isEmpty && slots[index].machine.deadline == nil {
                inPlay.remove(atPosition: position)
            } else {
                position += 1
            }
        }
    }

    /// Whether a delivery of the touch of `record` must be held: its `began` while one of its
    /// recognizers with `delaysTouchesBegan` is undecided, its `ended` (`ended` true) while one
    /// with `delaysTouchesEnded` is (docs/touches.md § Delivery to views). The record is read in place: its recognizer list
    /// is not copied (a retain and a release) to be asked, nor a slot (a loop, not a closure,
    /// which copied each slot it looked at).
    @inline(__always)
    func holds(ended: Bool, recordAt record: UnsafePointer<TouchRecord>) -> Bool {
        let touch = record.pointee.id
        for position in 0..<record.pointee.recognizers.count {
            let index = record.pointee.recognizers[position]
            let delays = ended ? slots[index].delaysTouchesEnded : slots[index].delaysTouchesBegan
            if delays && slots[index].state == .possible && slots[index].owns(touch) { return true }
        }
        return false
    }

    /// Whether `touch`, which just began, joined a gesture that has already begun and cancels
    /// touches in view: the touch belongs to that gesture and its view never receives it
    /// (docs/recognizers-and-arbitration.md § Which recognizers see a touch — a second finger on a button inside a scrolling list never fires the button).
    func claims(_ touch: TouchID, recognizers: [Int]) -> Bool {
        for index in recognizers where (slots[index].state == .began || slots[index].state == .changed)
            && slots[index].cancelsTouchesInView {
            if slots[index].owns(touch) { return true }
        }
        return false
    }

    /// Whether a claiming recognizer among `recognizers` may still take `touch`: it is
    /// undecided and holds the touch as part of its gesture (docs/routing.md: a held touch
    /// nothing can claim any more is forwarded).
    func mayClaim(_ touch: TouchID, recognizers: [Int]) -> Bool {
        for index in recognizers where slots[index].claims && slots[index].state == .possible
            && slots[index].owns(touch) {
            return true
        }
        return false
    }

    // MARK: - Verdicts

    private mutating func apply(_ verdict: RecognizerVerdict, to index: Int, at time: Timestamp,
                                events: inout EngineEvents, cancellations: inout [Cancellation]) {
        let state = slots[index].state
        switch (state, verdict) {
        case (_, .none):
            return
        case (.possible, .began), (.possible, .recognized):
            run(.request(index, verdict), at: time, events: &events, cancellations: &cancellations)
        case (.possible, .changed):
            // Still waiting for a failure requirement; the values are taken when it may begin.
            return
        case (.possible, .ended):
            // A continuous recognizer that finished while it was still waiting never began.
            run(.fail(index, FailureReason(.endedWhileWaiting)), at: time, events: &events, cancellations: &cancellations)
        case (.possible, .cancelled), (.possible, .failed):
            run(.fail(index, machineFailure(index)), at: time, events: &events, cancellations: &cancellations)
        case (.began, .changed), (.changed, .changed):
            transition(index, to: .changed, at: time, events: &events)
        case (.began, .ended), (.changed, .ended):
            transition(index, to: .ended, at: time, events: &events)
        case (.began, .cancelled), (.changed, .cancelled), (.began, .failed), (.changed, .failed):
            transition(index, to: .cancelled, at: time, events: &events, reason: machineFailure(index))
        case (.began, .began), (.changed, .began), (.began, .recognized), (.changed, .recognized):
            // Impossible for a well-formed machine: it already began.
            return
        case (.recognized, _), (.ended, _), (.cancelled, _), (.failed, _):
            return
        }
    }

    /// One step of what a verdict sets off. The rule read recursively — a request may fail the
    /// recognizer or its rivals, a failure lets waiting recognizers request, a recognition
    /// fails those that required it to fail — is run from ``work``, a step's continuation
    /// pushed below what it sets off, so everything a step sets off is done before the step
    /// goes on, as in the recursion, however long the chain.
    private enum Step {
        /// A recognizer asks to begin or to recognize (``request(_:_:at:events:)``).
        case request(Int, RecognizerVerdict)
        /// A recognizer fails for a reason, if it is still possible; those waiting for it may
        /// then go ahead.
        case fail(Int, FailureReason)
        /// The rivals of the recognition at `winner`, `lists[next..<end]` (the list starts at
        /// `start`), lose one at a time.
        case rivals(next: Int, start: Int, end: Int, winner: Int)
        /// After its rivals: the touches of the recognition at `index` are cancelled in their
        /// views, before its event at `position`, then those that required it to fail fail.
        case recognized(index: Int, position: Int)
        /// The recognizers that require `index` to fail, from the `next`-th: after a
        /// recognition, those still possible fail; after a failure, those waiting that no
        /// longer wait for anything ask again.
        case requiredBy(index: Int, next: Int, recognized: Bool)
    }

    /// Runs `first` and everything it sets off.
    private mutating func run(_ first: Step, at time: Timestamp, events: inout EngineEvents,
                              cancellations: inout [Cancellation]) {
        let bottom = work.count
        work.append(first)
        while work.count > bottom {
            switch work.removeLast() {
            case .request(let index, let verdict):
                request(verdict, index, at: time, events: &events)
            case .fail(let index, let reason):
                guard slots[index].state == .possible else { continue }
                slots[index].pending = nil
                transition(index, to: .failed, at: time, events: &events, reason: reason)
                // Recognizers waiting for this failure may now go ahead.
                work.append(.requiredBy(index: index, next: 0, recognized: false))
            case .rivals(let next, let start, let end, let winner):
                guard next < end else {
                    lists.removeLast(lists.count - start)
                    continue
                }
                work.append(.rivals(next: next + 1, start: start, end: end, winner: winner))
                let other = lists[next]
                count(visits: 1)
                switch slots[other].state {
                case .possible: work.append(.fail(other, FailureReason(.excluded, by: winner)))
                case .began, .changed:
                    transition(other, to: .cancelled, at: time, events: &events, reason: FailureReason(.excluded, by: winner))
                case .recognized, .ended, .cancelled, .failed: break
                }
            case .recognized(let index, let position):
                if collectsClaims && slots[index].claims {
                    for touch in slots[index].sequenceTouches where slots[index].owns(touch) {
                        claimedTouches.append(touch)
                    }
                }
                if slots[index].cancelsTouchesInView {
                    for touch in slots[index].sequenceTouches where slots[index].owns(touch)
                        && !cancellations.contains(where: { $0.touch == touch }) {
                        cancellations.append(Cancellation(touch: touch, position: position))
                    }
                }
                // Recognizers that required this one to fail fail now.
                work.append(.requiredBy(index: index, next: 0, recognized: true))
            case .requiredBy(let index, let next, let recognized):
                guard next < slots[index].requiredBy.count else { continue }
                work.append(.requiredBy(index: index, next: next + 1, recognized: recognized))
                let other = SlotBanks.base(of: index) + slots[index].requiredBy[next]
                count(visits: 1)
                if recognized {
                    if slots[other].state == .possible { work.append(.fail(other, FailureReason(.requirementRecognized, by: index))) }
                } else if let verdict = slots[other].pending, !waits(other) {
                    work.append(.request(other, verdict))
                }
            }
        }
    }

    /// A recognizer asks to begin or to recognize: it waits for failure requirements, loses to
    /// a recognizer that already owns a shared touch, or wins, and its rivals lose.
    private mutating func request(_ verdict: RecognizerVerdict, _ index: Int, at time: Timestamp,
                                  events: inout EngineEvents) {
        // A control's own tracking wins a one-finger single tap on the control over the
        // recognizers of its ancestors (UIKit: UIControl.gestureRecognizerShouldBegin says no).
        if slots[index].yieldsToControls && !slots[index].controlTouches.isEmpty {
            work.append(.fail(index, FailureReason(.yieldedToControl)))
            return
        }
        // Active (recognized, or began and not ended) or ended: the state read on its own, as a
        // computed property of a slot read from the array copied the slot first.
        count(visits: slots[index].requiredToFail.count)
        let base = SlotBanks.base(of: index)
        for position in 0..<slots[index].requiredToFail.count {
            let required = base + slots[index].requiredToFail[position]
            switch slots[required].state {
            case .began, .changed, .recognized, .ended:
                work.append(.fail(index, FailureReason(.requirementRecognized, by: required)))
                return
            case .possible, .cancelled, .failed:
                continue
            }
        }
        if waits(index) {
            slots[index].pending = verdict
            return
        }
        // Who shares a touch with it: only recognizers in play hold touches. One that is
        // active, and that it may not be simultaneous with, makes it lose; those still
        // possible are its rivals, which lose if it wins, in the order of the layout.
        count(visits: slots[index].simultaneous.count &* 2 &+ inPlay.count)
        for position in 0..<slots[index].simultaneous.count {
            simultaneousMarks.insert(base + slots[index].simultaneous[position])
        }
        owned.removeAll(keepingCapacity: true)
        for position in 0..<slots[index].sequenceTouches.count {
            let touch = slots[index].sequenceTouches[position]
            if !slots[index].ignoredTouches.contains(touch) { owned.append(touch) }
        }
        let start = lists.count
        var beaten: Int?
        for position in 0..<inPlay.count {
            let other = inPlay.members[position]
            guard other != index && !simultaneousMarks.contains(other) else { continue }
            switch slots[other].state {
            case .began, .changed, .recognized:
                if slots[other].ownsAny(of: owned) { beaten = other }
            case .possible:
                if slots[other].ownsAny(of: owned) { lists.append(other) }
            case .ended, .cancelled, .failed:
                continue
            }
            if beaten != nil { break }
        }
        simultaneousMarks.removeAll()
        if let beaten {
            lists.removeLast(lists.count - start)
            work.append(.fail(index, FailureReason(.excluded, by: beaten)))
            return
        }
        lists[start...].sort()
        slots[index].pending = nil
        let position = events.count
        transition(index, to: verdict == .began ? .began : .recognized, at: time, events: &events)
        // Exclusivity: everyone else holding one of its touches loses, then its touches are
        // cancelled in their views and those that required it to fail fail.
        work.append(.recognized(index: index, position: position))
        work.append(.rivals(next: start, start: start, end: lists.count, winner: index))
    }

    /// Whether a recognizer it requires to fail is still undecided and takes part (has
    /// received a touch since its last reset). The search starts where the last one found
    /// such a recognizer (``RecognizerSlot/waitHint``) and goes round the list once.
    private mutating func waits(_ index: Int) -> Bool {
        let length = slots[index].requiredToFail.count
        guard length > 0 else { return false }
        var position = slots[index].waitHint < length ? slots[index].waitHint : 0
        let base = SlotBanks.base(of: index)
        for _ in 0..<length {
            let other = base + slots[index].requiredToFail[position]
            count(visits: 1)
            if slots[other].state == .possible && !slots[other].sequenceTouches.isEmpty {
                slots[index].waitHint = position
                return true
            }
            position = position + 1 == length ? 0 : position + 1
        }
        return false
    }

    /// Why the machine at `index` failed or was cancelled, as it said with its verdict.
    private func machineFailure(_ index: Int) -> FailureReason {
        slots[index].machine.failure ?? FailureReason(.unexplained)
    }

    /// Sets the state of the recognizer at `index` and reports it; `reason` says why, for a
    /// state `failed` or `cancelled` (docs/protocol.md § Why a recognizer failed).
    private mutating func transition(_ index: Int, to state: GestureState, at time: Timestamp,
                                     events: inout EngineEvents, reason: FailureReason? = nil) {
        slots[index].state = state
        inPlay.insert(index)
        guard state != .failed || tracing else { return }
        // The values read in place, then each field on its own: read whole (or through a
        // getter reading two of its fields), the slot was copied.
        let values = slots[index].machine.values
        // The owned touches (the sequence's, less those held aside) go straight into the pool.
        let entry = events.gesturePoolForAdding().add(time: time, recognizer: slots[index].spec.id, quotedRecognizer: slots[index].quotedID,
                                    kind: slots[index].spec.kind,
                                    tree: slots[index].tree, view: slots[index].view, state: state,
                                    touches: slots[index].sequenceTouches, ignoring: slots[index].ignoredTouches,
                                    values: values)
        if let reason {
            let by = reason.by.map { (id: slots[$0].spec.id, quoted: slots[$0].quotedID) }
            events.gesturePoolForAdding().addFailure(reason, by: by, to: entry)
        }
        events.appendGesture(time: time, entry: entry)
    }
}
