/// Decides which recognizers may recognize (SPEC 5.6). The rule in one sentence: **the first
/// recognizer to recognize wins every touch it shares with others, unless they are allowed to
/// be simultaneous; a recognizer that requires others to fail waits until they have.**
///
/// The arena holds every recognizer of the layout (and, after a layout change, the previous
/// layout's recognizers until their sequences end). It feeds them touch inputs, turns their
/// verdicts into states and gesture events, and reports the touches whose view deliveries a
/// recognition cancels (`cancelsTouchesInView`), with where in the event list the cancellation
/// belongs: before the recognition's own event (SPEC 5.3).
struct GestureArena {
    /// A touch whose view deliveries a recognition cancels; `position` is the index in the
    /// event list of the recognition's `recognized`/`began` event, before which the
    /// cancellation is emitted (UIKit cancels the touches before it sends the first action).
    struct Cancellation {
        var touch: TouchID
        var position: Int
    }

    private(set) var slots: [RecognizerSlot] = []
    private(set) var settings: GestureSettings
    private(set) var context: RecognizerContext
    var tracing: Bool

    init(tree: ViewTree, settings: GestureSettings, context: RecognizerContext, tracing: Bool) {
        self.settings = settings
        self.context = context
        self.tracing = tracing
        add(tree)
    }

    /// Retires the current recognizers and adds those of `tree`. A retired recognizer that holds
    /// a touch finishes its sequence; one that holds none is finished at once, silently, with
    /// whatever it waited for (a double tap half done on a screen that is gone).
    mutating func replaceLayout(_ tree: ViewTree) {
        for index in slots.indices {
            slots[index].retired = true
            if slots[index].activeTouches.isEmpty {
                slots[index].state = .failed
                slots[index].pending = nil
            }
        }
        add(tree)
    }

    /// New settings or a new screen for the recognizers of `tree` (the current layout): its
    /// recognizers are retired as by ``replaceLayout(_:)`` and made again, so recognizers that
    /// hold touches finish their sequences as they began them.
    mutating func reconfigure(settings: GestureSettings, context: RecognizerContext, tree: ViewTree) {
        self.settings = settings
        self.context = context
        replaceLayout(tree)
    }

    private mutating func add(_ tree: ViewTree) {
        let base = slots.count
        var indexByID: [String: Int] = [:]
        for (offset, entry) in tree.recognizers.enumerated() {
            indexByID[entry.spec.id] = base + offset
            slots.append(RecognizerSlot(spec: entry.spec, tree: tree, view: entry.view,
                                        parameters: settings.resolved(entry.spec), context: context))
        }
        for index in base..<slots.count {
            slots[index].requiredToFail = slots[index].spec.requireToFail.compactMap { indexByID[$0] }
            for other in slots[index].spec.simultaneousWith.compactMap({ indexByID[$0] }) where other != index {
                if !slots[index].simultaneous.contains(other) { slots[index].simultaneous.append(other) }
                if !slots[other].simultaneous.contains(index) { slots[other].simultaneous.append(index) }
            }
        }
    }

    /// Drops the retired recognizers. Indices shift, so the engine calls this only when it tracks
    /// no touch at all (no touch refers to a slot then). Retired slots always precede the
    /// current layout's.
    mutating func dropRetired() {
        let dropped = slots.prefix(while: \.retired).count
        guard dropped > 0 else { return }
        slots.removeFirst(dropped)
        for index in slots.indices {
            slots[index].requiredToFail = slots[index].requiredToFail.map { $0 - dropped }
            slots[index].simultaneous = slots[index].simultaneous.map { $0 - dropped }
        }
    }

    /// The recognizers that receive a touch hitting `view` of `tree` (SPEC 5.2): the hit view's
    /// first, then each ancestor's up to the root, each view's in attachment order. Every
    /// enabled recognizer receives it, whatever its finger counts: what it does with more
    /// fingers than it wants is its own rule (5.7). Disabled, retired and finished recognizers
    /// do not receive it: a machine that already gave its verdict (a tap waiting on a failure
    /// requirement) cannot use another touch, and giving it one would make the touch part of a
    /// gesture it took no part in.
    func candidates(for view: ViewIndex, in tree: ViewTree) -> [Int] {
        var result: [Int] = []
        for ancestor in tree.ancestry(of: view) {
            for index in slots.indices where slots[index].tree === tree && slots[index].view == ancestor {
                guard slots[index].spec.enabled, !slots[index].retired, !slots[index].isTerminal,
                      !slots[index].machine.isFinished else { continue }
                result.append(index)
            }
        }
        return result
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
        let (verdict, newAnomalies) = slots.withUnsafeMutableBufferPointer { slots -> (RecognizerVerdict?, Int) in
            let slot = slots.baseAddress! + index
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
            let verdict = slot.pointee.machine.handle(input)
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

    /// A move of `sample`'s touch to the recognizer at `index`, as ``feed(_:to:hitting:at:events:cancellations:)``
    /// gives it, when that can be answered without a verdict: the recognizer decided already,
    /// does not hold the touch, or its machine does not judge moves
    /// (``AnyRecognizer/moveQuietly(_:)``). Returns false, having done nothing, when the move
    /// must be fed. Every touch of a pan or pinch moves in nearly every frame: through
    /// `feed` each move was an input enum, a closure, a verdict and two dispatches.
    @inline(__always)
    mutating func moveQuietly(_ sample: TouchSample, to index: Int) -> Bool {
        let (done, added) = slots.withUnsafeMutableBufferPointer { slots -> (Bool, Int) in
            let slot = slots.baseAddress.unsafelyUnwrapped + index
            if slot.pointee.isTerminal || !slot.pointee.activeTouches.contains(sample.touch) { return (true, 0) }
            let before = slot.pointee.machine.anomalies
            guard slot.pointee.machine.moveQuietly(sample) else { return (false, 0) }
            return (true, slot.pointee.machine.anomalies - before)
        }
        anomalies += added
        return done
    }

    /// Impossible inputs the recognizers were given and ignored (an arena bug if not 0).
    private(set) var anomalies = 0

    /// The earliest deadline of any recognizer still deciding.
    /// Reads the slots in place (by index): copying a slot copies its machine.
    var nextDeadline: Timestamp? {
        var earliest: Timestamp?
        for index in slots.indices where !slots[index].isTerminal {
            if let deadline = slots[index].machine.deadline, earliest.map({ deadline < $0 }) ?? true {
                earliest = deadline
            }
        }
        return earliest
    }

    /// Fires the recognizers whose deadline is exactly `deadline` (the engine walks the
    /// deadlines in order with ``nextDeadline``).
    mutating func fireDeadline(_ deadline: Timestamp, events: inout EngineEvents, cancellations: inout [Cancellation]) {
        for index in slots.indices where !slots[index].isTerminal && slots[index].machine.deadline == deadline {
            feed(.deadline(deadline), to: index, at: deadline, events: &events, cancellations: &cancellations)
        }
    }

    /// Resets recognizers that reached a terminal state and hold no touch (SPEC 5.5).
    mutating func resetFinished() {
        for index in slots.indices where slots[index].isTerminal && slots[index].activeTouches.isEmpty {
            slots[index].machine.reset()
            slots[index].state = .possible
            slots[index].pending = nil
            slots[index].sequenceTouches.removeAll(keepingCapacity: true)
            slots[index].ignoredTouches.removeAll(keepingCapacity: true)
            slots[index].controlTouches.removeAll(keepingCapacity: true)
        }
    }

    /// Whether a delivery of the touch of `record` must be held: its `began` while one of its
    /// recognizers with `delaysTouchesBegan` is undecided, its `ended` (`ended` true) while one
    /// with `delaysTouchesEnded` is (SPEC 5.3). The record is read in place: its recognizer list
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
    /// (SPEC 5.2 — a second finger on a button inside a scrolling list never fires the button).
    func claims(_ touch: TouchID, recognizers: [Int]) -> Bool {
        for index in recognizers where (slots[index].state == .began || slots[index].state == .changed)
            && slots[index].cancelsTouchesInView {
            if slots[index].owns(touch) { return true }
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
            request(verdict, for: index, at: time, events: &events, cancellations: &cancellations)
        case (.possible, .changed):
            // Still waiting for a failure requirement; the values are taken when it may begin.
            return
        case (.possible, .ended), (.possible, .cancelled), (.possible, .failed):
            // A continuous recognizer that finished while it was still waiting never began.
            fail(index, at: time, events: &events, cancellations: &cancellations)
        case (.began, .changed), (.changed, .changed):
            transition(index, to: .changed, at: time, events: &events)
        case (.began, .ended), (.changed, .ended):
            transition(index, to: .ended, at: time, events: &events)
        case (.began, .cancelled), (.changed, .cancelled), (.began, .failed), (.changed, .failed):
            transition(index, to: .cancelled, at: time, events: &events)
        case (.began, .began), (.changed, .began), (.began, .recognized), (.changed, .recognized):
            // Impossible for a well-formed machine: it already began.
            return
        case (.recognized, _), (.ended, _), (.cancelled, _), (.failed, _):
            return
        }
    }

    /// A recognizer asks to begin or to recognize: it waits for failure requirements, loses to
    /// a recognizer that already owns a shared touch, or wins.
    private mutating func request(_ verdict: RecognizerVerdict, for index: Int, at time: Timestamp,
                                  events: inout EngineEvents, cancellations: inout [Cancellation]) {
        // A control's own tracking wins a one-finger single tap on the control over the
        // recognizers of its ancestors (UIKit: UIControl.gestureRecognizerShouldBegin says no).
        if slots[index].yieldsToControls && !slots[index].controlTouches.isEmpty {
            fail(index, at: time, events: &events, cancellations: &cancellations)
            return
        }
        let required = slots[index].requiredToFail
        if required.contains(where: { slots[$0].isActive || slots[$0].state == .ended }) {
            fail(index, at: time, events: &events, cancellations: &cancellations)
            return
        }
        if required.contains(where: { slots[$0].state == .possible && slots[$0].isEngaged }) {
            slots[index].pending = verdict
            return
        }
        for other in slots.indices where other != index && slots[other].isActive
            && slots[other].shares(slots[index]) && !slots[index].simultaneous.contains(other) {
            fail(index, at: time, events: &events, cancellations: &cancellations)
            return
        }
        slots[index].pending = nil
        let position = events.count
        transition(index, to: verdict == .began ? .began : .recognized, at: time, events: &events)
        // Exclusivity: everyone else holding one of its touches loses.
        for other in slots.indices where other != index && slots[other].shares(slots[index])
            && !slots[index].simultaneous.contains(other) {
            switch slots[other].state {
            case .possible: fail(other, at: time, events: &events, cancellations: &cancellations)
            case .began, .changed: transition(other, to: .cancelled, at: time, events: &events)
            case .recognized, .ended, .cancelled, .failed: break
            }
        }
        if slots[index].cancelsTouchesInView {
            for touch in slots[index].sequenceTouches where slots[index].owns(touch)
                && !cancellations.contains(where: { $0.touch == touch }) {
                cancellations.append(Cancellation(touch: touch, position: position))
            }
        }
        // Recognizers that required this one to fail fail now.
        for other in slots.indices where slots[other].requiredToFail.contains(index) && slots[other].state == .possible {
            fail(other, at: time, events: &events, cancellations: &cancellations)
        }
    }

    private mutating func fail(_ index: Int, at time: Timestamp, events: inout EngineEvents,
                               cancellations: inout [Cancellation]) {
        guard slots[index].state == .possible else { return }
        slots[index].pending = nil
        transition(index, to: .failed, at: time, events: &events)
        // Recognizers waiting for this failure may now go ahead.
        for other in slots.indices where slots[other].pending != nil && slots[other].requiredToFail.contains(index) {
            let stillWaiting = slots[other].requiredToFail.contains {
                slots[$0].state == .possible && slots[$0].isEngaged
            }
            if !stillWaiting, let verdict = slots[other].pending {
                request(verdict, for: other, at: time, events: &events, cancellations: &cancellations)
            }
        }
    }

    private mutating func transition(_ index: Int, to state: GestureState, at time: Timestamp,
                                     events: inout EngineEvents) {
        slots[index].state = state
        guard state != .failed || tracing else { return }
        // The values read in place, then each field on its own: read whole (or through a
        // getter reading two of its fields), the 2 KB slot was copied.
        let values = slots[index].machine.valuesInPlace()
        // The owned touches (the sequence's, less those held aside) go straight into the pool.
        let entry = events.gesturePoolForAdding().add(time: time, recognizer: slots[index].spec.id, quotedRecognizer: slots[index].quotedID,
                                    kind: slots[index].spec.kind,
                                    tree: slots[index].tree, view: slots[index].view, state: state,
                                    touches: slots[index].sequenceTouches, ignoring: slots[index].ignoredTouches,
                                    values: values)
        events.appendGesture(time: time, entry: entry)
    }
}
