/// The pure, deterministic gesture engine: touch frames and "advance to time T" in, resolved
/// events out (docs/architecture.md, "One touch, from the panel to a client"). It never reads a clock and
/// performs no I/O, so live input, replays and tests run the very same code.
///
/// The pipeline of one frame, in order (``process(_:into:)``):
/// 1. deadlines due by the frame's time fire first (``advance(to:into:)``);
/// 2. touches that begin are hit-tested once and attached to their view and recognizers;
///    positions and phases of the others are updated;
/// 3. recognizers receive the frame's touch inputs before any view (docs/touches.md, "Delivery to views") and
/// the arena    resolves their verdicts into gesture events; a touch that joins a gesture which already
///    began and cancels touches in view belongs to it and is never delivered to its view (5.2);
/// 4. touch deliveries: the touches a recognition cancels (`cancelsTouchesInView`) get
///    `cancelled` just before the recognition's event; deliveries held per
///    `delaysTouchesBegan/Ended` are released; views that can no longer receive touches get
///    `cancelled`; then the frame's own deliveries, grouped per view and phase, go along the
///    responder chain; controls turn theirs into control events, judged where the control
///    now stands (5.7);
/// 5. finished recognizers reset and finished touches are forgotten.
///
/// With routing (docs/routing.md), each touch also gets a route when it begins (its hit view's
/// rule), and after stage 3 (and after each deadline) the routes change: touches a claiming
/// recognizer took are claimed, and held touches are decided. Each decision is a
/// ``RouteChange`` in ``routeChanges``, for the pipeline's virtual panel.
public struct Engine {
    public private(set) var tree: ViewTree
    public private(set) var settings: GestureSettings
    /// Emit `hitTest` events for touches that begin and `failed` gesture transitions.
    public var tracing: Bool {
        didSet { arena.tracing = tracing }
    }

    /// List every finger down after each frame, for ``takeContacts()`` (the `contacts` stream,
    /// docs/events.md): on only while a subscriber asks, so a frame otherwise pays one test.
    public var listsContacts = false
    /// The last frame's contacts while ``listsContacts``, until ``takeContacts()``.
    private var contacts: ContactsEvent?

    private var arena: GestureArena
    private var touches: [TouchRecord] = []
    private var nextTouchID = 1
    private var lastTap: (tree: ViewTree, view: ViewIndex, location: Point, time: Timestamp, count: Int)?
    // Scratch buffers reused from frame to frame.
    private var inputs: [(touch: Int, phase: TouchPhase)] = []
    private var pending: [PendingDelivery] = []
    private var cancellations: [GestureArena.Cancellation] = []
    /// The undecided recognizers that get this frame's end, in the order they were first given
    /// an input in it; which of those past the first 64 are in it (the first 64 are known by a
    /// mask in a register: the common case, for the price of a bit test).
    private var framed: [Int] = []
    private var framedBeyond64 = SlotSet()
    /// Where an ``EngineEvent`` call collects its events before they are made (see
    /// ``process(_:into:)-(_,inout [EngineEvent])``).
    private var scratch = EngineEvents()

    /// The configuration's routing; nil when touches are not routed (no route is decided,
    /// recorded or reported).
    public let routing: RoutingConfiguration?
    /// Route decisions since the driver last emptied the list (``removeRouteChanges()``), in
    /// the order they were taken.
    public private(set) var routeChanges: [RouteChange] = []
    /// The panel's points per millimetre, for holds whose distance is in millimetres (nil: the
    /// panel reports no resolution, and such a distance never forwards a touch).
    public var pointsPerMillimetre: Double?
    /// The touches whose route is ``Route/held``, in the order they began.
    private var holds: [HeldTouch] = []

    /// A held touch and what decides it.
    private struct HeldTouch {
        var touch: TouchID
        var contact: ContactID
        /// Its down's time plus the hold: forwarded then.
        var deadline: Timestamp
        var fingers: Int?
        /// In points.
        var distance: Double?
        /// How its input ended, once it did.
        var ended: TouchPhase?
    }

    /// - Parameter screen: the screen in points; edge pans measure their bands from its edges
    ///   (defaults to the root view's frame).
    public init(tree: ViewTree, settings: GestureSettings = GestureSettings(), screen: Rect? = nil,
                tracing: Bool = false, routing: RoutingConfiguration? = nil) {
        self.tree = tree
        self.routing = routing
        self.settings = settings
        let basis = PreparedLayout.Basis(settings: settings, screen: screen ?? tree[tree.root].spec.frame)
        arena = GestureArena(PreparedLayout(tree: tree, basis: basis), tracing: tracing)
        arena.collectsClaims = routing != nil
        self.tracing = tracing
    }

    /// Number of touches the engine still tracks (down, or awaiting their last delivery).
    public var activeTouchCount: Int { touches.count }

    /// Impossible inputs its recognizers were given and ignored: 0 unless the arena has a bug.
    public var recognizerAnomalies: Int { arena.anomalies }

    /// The next time at which the engine needs ``advance(to:into:)``; `nil` when none. Kept
    /// after every change, as drivers ask for it after every input.
    public private(set) var nextDeadline: Timestamp?

    /// Recognizers the engine and its arena have looked at so far: work that does not depend
    /// on the machine, for the tests that check it grows linearly with a layout's recognizers.
    /// Counted in debug builds only (``countsRecognizerVisits``).
    var recognizerVisits: Int { arena.visits }

    /// The recognizers the arena holds: the current layout's, and those of retired layouts
    /// that touches still down began in.
    var recognizerCount: Int { arena.slots.count }

    /// Whether this build counts ``recognizerVisits``: debug builds do, release builds do not.
    static var countsRecognizerVisits: Bool {
        #if DEBUG
        true
        #else
        false
        #endif
    }

    /// Replaces the layout at `time`, between two frames. Touches already down keep their
    /// views and recognizers (docs/protocol.md), except that a recognizer the new layout
    /// disables is cancelled if it began and fails if not (``GestureArena/disable(_:at:events:cancellations:)``).
    /// Makes the new layout's recognizers here: a driver with an event loop prepares them
    /// elsewhere and calls ``replaceLayout(_:at:into:)-(PreparedLayout,_,inout EngineEvents)``.
    public mutating func replaceLayout(_ newTree: ViewTree, at time: Timestamp, into events: inout [EngineEvent]) {
        replaceLayout(PreparedLayout(tree: newTree, basis: basis), at: time, into: &events)
    }

    /// ``replaceLayout(_:at:into:)-(PreparedLayout,_,inout EngineEvents)``, its events made as values.
    public mutating func replaceLayout(_ prepared: PreparedLayout, at time: Timestamp, into events: inout [EngineEvent]) {
        var collected = takeScratch()
        replaceLayout(prepared, at: time, into: &collected)
        hand(&collected, to: &events)
    }

    /// What a layout's recognizers are made with now: the settings and the screen.
    public var basis: PreparedLayout.Basis {
        PreparedLayout.Basis(settings: settings, screen: arena.context.screen)
    }

    /// Replaces the layout at `time` with one prepared away from the loop. Deadlines due by
    /// `time` fire first, as before a frame; then the recognizers the new layout disables are
    /// cancelled or fail, with what that sets off (held deliveries released, waiting
    /// recognizers going ahead), in the old layout; then the new layout is installed. Touches
    /// already down keep their views and recognizers (docs/protocol.md). A layout prepared
    /// for settings or a screen that have changed since (``reconfigure(settings:screen:)``) is
    /// made again here, so what it does never depends on when it was prepared.
    public mutating func replaceLayout(_ prepared: PreparedLayout, at time: Timestamp, into events: inout EngineEvents) {
        guard prepared.basis == basis else {
            replaceLayout(PreparedLayout(tree: prepared.tree, basis: basis), at: time, into: &events)
            return
        }
        fireDeadlines(upTo: time, into: &events)
        disable(prepared, at: time, into: &events)
        install(prepared)
    }

    /// The disabling half of ``replaceLayout(_:at:into:)-(PreparedLayout,_,inout EngineEvents)``:
    /// its verdicts settle the deliveries as a frame's do, against the layout still in force.
    private mutating func disable(_ prepared: PreparedLayout, at time: Timestamp, into events: inout EngineEvents) {
        guard !prepared.disabledIDs.isEmpty else { return }
        inputs.removeAll(keepingCapacity: true)
        cancellations.removeAll(keepingCapacity: true)
        arena.disable(prepared, at: time, events: &events, cancellations: &cancellations)
        if routing != nil { updateRoutes(at: time) }
        settleDeliveries(at: time, into: &events)
    }

    private mutating func install(_ prepared: PreparedLayout) {
        if prepared.tree !== tree { replacedTrees.append(tree) }
        tree = prepared.tree
        // Idle retired layouts go first: retiring fails every recognizer in play that holds
        // no touch, the long retired ones' again. No step costs the layouts' recognizers.
        if !touches.isEmpty { arena.dropIdleLayouts(touches: touches) }
        arena.replaceLayout(prepared, keepingRetired: !touches.isEmpty)
        nextDeadline = earliestDeadline()
        releaseReplacedTrees()
    }

    /// Replaced trees that touches or the last tap may still refer to: held here until none
    /// does, then let go of with the rest (``takeReleased()``), so that the last reference to
    /// a tree of 10,000 views is not dropped by a touch that ends, on the driver's loop. At
    /// most two a touch (its tree, and the one its view was last looked up in) and the last
    /// tap's.
    private var replacedTrees: [ViewTree] = []

    private mutating func releaseReplacedTrees() {
        var position = 0
        while position < replacedTrees.count {
            let held = replacedTrees[position]
            if lastTap?.tree === held || touches.contains(where: { $0.tree === held || $0.live?.tree === held }) {
                position += 1
            } else {
                arena.release(tree: replacedTrees.remove(at: position))
            }
        }
    }
    /// What the engine let go of since the last call (dropped layouts' recognizers, replaced
    /// trees), for the driver to release where it costs its loop nothing.
    public mutating func takeReleased() -> ReleasedStorage {
        arena.takeReleased()
    }

    /// Whether there is something for ``takeReleased()``: asked after every frame.
    public var hasReleased: Bool { arena.hasReleased }

    /// The screen in points that edge pans measure from.
    public var screen: Rect { arena.context.screen }

    /// New settings (distances in millimetres resolved for a device) or a new screen
    /// (`screen.set`): the layout's recognizers are made again with them, as for a new layout,
    /// so touches already down keep the recognizers they began with. Nothing happens when
    /// both are unchanged.
    /// `prepared` is the layout in force made for them off the driver's loop; one made for
    /// another tree or basis is made again here.
    public mutating func reconfigure(settings: GestureSettings, screen: Rect, prepared: PreparedLayout? = nil) {
        guard settings != self.settings || screen != arena.context.screen else { return }
        self.settings = settings
        let basis = PreparedLayout.Basis(settings: settings, screen: screen)
        if let prepared, prepared.tree === tree, prepared.basis == basis {
            install(prepared)
        } else {
            install(PreparedLayout(tree: tree, basis: basis))
        }
    }

    /// Fires every deadline up to and including `time`, earliest first.
    public mutating func advance(to time: Timestamp, into events: inout EngineEvents) {
        nextDeadline = fireDeadlines(upTo: time, into: &events)
    }

    /// ``advance(to:into:)-(_,inout EngineEvents)``, its events made as values.
    public mutating func advance(to time: Timestamp, into events: inout [EngineEvent]) {
        var collected = takeScratch()
        advance(to: time, into: &collected)
        hand(&collected, to: &events)
    }

    /// ``process(_:into:)-(_,inout EngineEvents)``, its events made as values (tests, tools):
    /// each with a copy of the touches or values it carries (see ``EngineEvents``).
    public mutating func process(_ frame: TouchFrame, into events: inout [EngineEvent]) {
        var collected = takeScratch()
        process(frame, into: &collected)
        hand(&collected, to: &events)
    }

    /// ``cancelAll(at:into:)-(_,inout EngineEvents)``, its events made as values.
    public mutating func cancelAll(at time: Timestamp, into events: inout [EngineEvent]) {
        var collected = takeScratch()
        cancelAll(at: time, into: &collected)
        hand(&collected, to: &events)
    }

    private mutating func takeScratch() -> EngineEvents {
        var collected = EngineEvents()
        swap(&collected, &scratch)
        return collected
    }

    private mutating func hand(_ collected: inout EngineEvents, to events: inout [EngineEvent]) {
        events.append(contentsOf: collected)
        collected.removeAll()
        swap(&collected, &scratch)
    }

    /// Returns the next deadline after `time`, if any. Starts from ``nextDeadline``, which
    /// every change keeps, so a frame with no deadline due asks the arena nothing.
    @discardableResult
    private mutating func fireDeadlines(upTo time: Timestamp, into events: inout EngineEvents) -> Timestamp? {
        var next = nextDeadline
        while let deadline = next, deadline <= time {
            cancellations.removeAll(keepingCapacity: true)
            arena.fireDeadline(deadline, events: &events, cancellations: &cancellations)
            updateRoutesIfAny(at: deadline)
            settleDeliveries(at: deadline, into: &events)
            next = earliestDeadline()
        }
        return next
    }

    /// Runs one frame through the pipeline, appending the resolved events to `events`.
    public mutating func process(_ frame: TouchFrame, into events: inout EngineEvents) {
        let time = frame.time
        fireDeadlines(upTo: time, into: &events)
        inputs.removeAll(keepingCapacity: true)
        cancellations.removeAll(keepingCapacity: true)

        // Stage 2: touches begin, move and end.
        for change in frame.changes {
            switch change {
            case .down(let contact, let point, let radius, let force):
                if let existing = touchIndex(contact: contact) {
                    // The input layer never sends two downs for one contact; end the old touch so
                    // it cannot be left without an end.
                    endInput(existing, phase: .cancelled, at: time)
                }
                begin(contact: contact, at: point, radius: radius, force: force, time: time, events: &events)
            case .move(let contact, let point, let radius, let force):
                guard let index = touchIndex(contact: contact) else { continue }
                // One access to the record (one uniqueness check of the array), not one per field.
                touches[index].move(to: point, radius: radius, force: force)
                inputs.append((index, .moved))
            case .up(let contact):
                guard let index = touchIndex(contact: contact) else { continue }
                endInput(index, phase: .ended, at: time)
            case .cancel(let contact):
                guard let index = touchIndex(contact: contact) else { continue }
                endInput(index, phase: .cancelled, at: time)
            }
        }

        // Stage 3: recognizers see every input of the frame before any view does. A recognizer
        // that gave its verdict stays decided until stage 5 resets it, and a move or the frame's
        // end changes nothing for it, so it is not given them (on a crowded view, once one
        // recognizer won, nearly all the others). Which recognizers are in `framed` is known
        // for the first 64 by a mask: one test instead of a set's.
        var framedMask: UInt64 = 0
        for (index, phase) in inputs {
            let sample = TouchSample(touch: touches[index].id, location: touches[index].location, time: time)
            arena.count(visits: touches[index].recognizers.count)
            if phase == .moved {
                // Nearly every input: most recognizers take a move without a verdict.
                for position in 0..<touches[index].recognizers.count {
                    let slot = touches[index].recognizers[position]
                    if arena.hasDecided(slot) { continue }
                    if !arena.moveQuietly(sample, to: slot) {
                        arena.feed(.touchMoved(sample), to: slot, at: time, events: &events, cancellations: &cancellations)
                    }
                    addToFramed(slot, mask: &framedMask)
                }
                continue
            }
            let view = touches[index].view
            let input: RecognizerInput = switch phase {
            case .began: .touchBegan(sample)
            case .moved: .touchMoved(sample)
            case .ended: .touchEnded(sample)
            case .cancelled: .touchCancelled(sample)
            }
            // The touch's recognizers read in place, one at a time (feeding changes the arena,
            // never the touch): a copy of the list was a retain and a release per input.
            for position in 0..<touches[index].recognizers.count {
                let slot = touches[index].recognizers[position]
                arena.feed(input, to: slot, hitting: view, at: time, events: &events,
                           cancellations: &cancellations)
                if !arena.hasDecided(slot) { addToFramed(slot, mask: &framedMask) }
            }
        }
        arena.count(visits: framed.count)
        for position in 0..<framed.count {
            arena.feed(.frameEnd(time), to: framed[position], at: time, events: &events, cancellations: &cancellations)
        }
        framed.removeAll(keepingCapacity: true)
        if !framedBeyond64.isEmpty { framedBeyond64.removeAll() }
        // A finger that joined a gesture already under way is that gesture's
        // (docs/recognizers-and-arbitration.md, "Which recognizers see a touch").
        for (index, phase) in inputs where phase == .began {
            arena.count(visits: touches[index].recognizers.count)
            if case .notBegun = touches[index].delivery, arena.claims(touches[index].id, recognizers: touches[index].recognizers) {
                touches[index].delivery = .finished
            }
        }
        updateRoutesIfAny(at: time)
        // Every finger as the recognizers left it, before stage 5 forgets those that ended.
        if listsContacts { listContacts(at: time) }

        // Stage 4: the views' deliveries.
        settleDeliveries(at: time, into: &events)
        nextDeadline = earliestDeadline()
    }

    /// Adds `slot` to the recognizers that get this frame's end, once.
    @inline(__always)
    private mutating func addToFramed(_ slot: Int, mask: inout UInt64) {
        if slot < 64 {
            let bit: UInt64 = 1 &<< UInt64(slot)
            if mask & bit == 0 {
                mask |= bit
                framed.append(slot)
            }
        } else if framedBeyond64.insert(slot) {
            framed.append(slot)
        }
    }

    /// Cancels every touch still down (device removed, daemon stopping, end of a recording).
    public mutating func cancelAll(at time: Timestamp, into events: inout EngineEvents) {
        let contacts = touches.compactMap(\.contact)
        guard !contacts.isEmpty else { return }
        process(TouchFrame(time: time, changes: contacts.map { .cancel($0) }), into: &events)
    }

    /// Hit-tests a point without a touch (the `hit-test` command, the socket's `hitTest`).
    public func hitTest(_ point: Point, at time: Timestamp = .zero) -> HitTestEvent {
        var trace = HitTestTrace()
        let view = HitTester.hitTest(tree, at: point, trace: &trace)
        return HitTestEvent(time: time, touch: nil, location: point, tree: tree, view: view, trace: trace)
    }

    // MARK: - Stage 2: touches

    /// A loop over the contacts in place: a `firstIndex` closure copied each record it looked at.
    /// Where a contact was found last is remembered, by its tracking id's low bits, and tried
    /// first: a move looks at one record instead of half of them. A remembered index is only
    /// a guess (touches come and go), checked before use; at most one touch has a given
    /// contact (a touch loses its contact when it ends), so a guess that matches is the answer.
    private mutating func touchIndex(contact: ContactID) -> Int? {
        let key = contact.rawValue & 15
        let guess = withUnsafeBytes(of: &contactHints) { $0.load(fromByteOffset: key &* 8, as: Int.self) }
        if guess < touches.count && touches[guess].contact == contact { return guess }
        for index in touches.indices where touches[index].contact == contact {
            withUnsafeMutableBytes(of: &contactHints) { $0.storeBytes(of: index, toByteOffset: key &* 8, as: Int.self) }
            return index
        }
        return nil
    }

    /// ``touchIndex(contact:)``'s 16 guesses, inline: no array to check for uniqueness on a
    /// write. A tuple read through a pointer, not an `InlineArray`: the package builds with
    /// Swift 6.1.
    private var contactHints: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int)
        = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)

    /// A new touch is hit-tested once and attached to its view and recognizers.
    private mutating func begin(contact: ContactID, at point: Point, radius: Double?, force: Double?,
                                time: Timestamp, events: inout EngineEvents) {
        let id = TouchID(nextTouchID)
        nextTouchID += 1
        let view: ViewIndex?
        if tracing {
            var trace = HitTestTrace()
            view = HitTester.hitTest(tree, at: point, trace: &trace)
            events.append(.hitTest(HitTestEvent(time: time, touch: id, location: point, tree: tree, view: view,
                                                trace: trace)))
        } else {
            view = HitTester.hitTest(tree, at: point)
        }
        let access = view.map { admission(of: $0) } ?? .nothing
        var tapCount = 1
        if let view, let last = lastTap, last.tree === tree, last.view == view,
           (time - last.time).seconds <= settings.touchTapInterval,
           last.location.distance(to: point) <= settings.touchTapDistance {
            tapCount = last.count + 1
        }
        var recognizers: [Int] = []
        if let view, access != .nothing {
            recognizers = arena.candidates(for: view)
        }
        var control: ControlTracking?
        if let view, access == .viewAndRecognizers, tree[view].spec.kind == .control { control = ControlTracking() }
        let route = routing.map { startRoute(touch: id, contact: contact, view: view, default: $0.defaultRule, at: time) }
        touches.append(TouchRecord(
            id: id, contact: contact, tree: tree, view: view, recognizers: recognizers, beganAt: time,
            beganLocation: point, location: point, previousLocation: point, tapCount: tapCount,
            majorRadius: radius, force: force, delivery: access == .viewAndRecognizers ? .notBegun : .finished,
            control: control, route: route))
        inputs.append((touches.count - 1, .began))
    }

    /// Who receives a touch that begins on `view` of the current tree (docs/layout.md, "Views").
    private enum Admission { case viewAndRecognizers, recognizersOnly, nothing }

    private func admission(of view: ViewIndex) -> Admission {
        let spec = tree[view].spec
        var result = Admission.viewAndRecognizers
        for other in touches where other.contact != nil && !other.delivery.isFinished {
            guard let otherView = other.view else { continue }
            let sameView = other.tree === tree && otherView == view
            // UIKit's isExclusiveTouch: while an exclusive view tracks a touch, no other view gets
            // one, and an exclusive view gets none while other views track touches. The touch is
            // dropped as a whole, recognizers included.
            if !sameView && (spec.exclusiveTouch || other.tree[otherView].spec.exclusiveTouch) { return .nothing }
            // A view that is not multipleTouchEnabled is delivered only the first touch; its
            // recognizers still get every touch.
            if sameView && !spec.multipleTouchEnabled { result = .recognizersOnly }
        }
        return result
    }

    /// The finger lifted or the contact was cancelled at the input.
    private mutating func endInput(_ index: Int, phase: TouchPhase, at time: Timestamp) {
        if touches[index].route == .held, let held = holds.firstIndex(where: { $0.touch == touches[index].id }) {
            holds[held].ended = phase
        }
        touches[index].contact = nil
        touches[index].inputEnded = true
        if phase == .ended, let view = touches[index].view,
           touches[index].beganLocation.distance(to: touches[index].location) <= settings.touchTapDistance {
            lastTap = (touches[index].tree, view, touches[index].beganLocation, time, touches[index].tapCount)
        }
        inputs.append((index, phase))
    }

    // MARK: - Contacts

    /// The contacts ``process(_:into:)-(_,inout EngineEvents)`` listed for its frame, taken
    /// (nil when it listed none: ``listsContacts`` off, or no contact changed).
    public mutating func takeContacts() -> ContactsEvent? {
        defer { contacts = nil }
        return contacts
    }

    /// Lists the frame's contacts: each touch down, and each that lifted or was cancelled in
    /// it, with the phase it had in the frame (stationary when it had none), its positions,
    /// its hit view, the recognizer whose gesture took it, and its route. Touches that lifted
    /// in an earlier frame (an `ended` a recognizer still holds) are no contact any more.
    private mutating func listContacts(at time: Timestamp) {
        guard !inputs.isEmpty else { return }
        var listed: [ContactsEvent.Contact] = []
        listed.reserveCapacity(min(touches.count, ContactsEvent.maximumContacts))
        for index in touches.indices where listed.count < ContactsEvent.maximumContacts {
            var phase: ContactsEvent.Phase? = touches[index].contact == nil ? nil : .stationary
            for input in inputs where input.touch == index {
                phase = switch input.phase {
                case .began: .began
                case .moved: phase == .began ? .began : .moved
                case .ended: .ended
                case .cancelled: .cancelled
                }
            }
            guard let phase else { continue }
            let location = touches[index].location
            let view = touches[index].view
            listed.append(ContactsEvent.Contact(
                id: touches[index].id, phase: phase, location: location, view: view.map { touches[index].tree.id(of: $0) },
                viewLocation: view.map { touches[index].tree.convert(screen: location, to: $0) } ?? location,
                recognizer: takingRecognizer(of: index), route: touches[index].route))
        }
        contacts = ContactsEvent(time: time, contacts: listed)
    }

    /// The first of the touch's recognizers whose gesture has it: under way (began, changed)
    /// or finished with it in this frame (ended, recognized), the touch part of its gesture
    /// (not one it holds aside).
    private func takingRecognizer(of index: Int) -> String? {
        let touch = touches[index].id
        for slot in touches[index].recognizers {
            switch arena.slots[slot].state {
            case .began, .changed, .ended, .recognized:
                if arena.slots[slot].owns(touch) { return arena.slots[slot].spec.id }
            case .possible, .cancelled, .failed:
                continue
            }
        }
        return nil
    }

    // MARK: - Routing

    /// The next deadline: the arena's, or a held touch's if earlier.
    @inline(__always)
    private mutating func earliestDeadline() -> Timestamp? {
        holds.isEmpty ? arena.earliestDeadline() : earliestWithHolds()
    }

    @inline(never)
    private mutating func earliestWithHolds() -> Timestamp? {
        var earliest = arena.earliestDeadline()
        for held in holds where earliest.map({ held.deadline < $0 }) ?? true { earliest = held.deadline }
        return earliest
    }

    /// Routes a touch that begins by its hit view's rule (the default when it hit none).
    private mutating func startRoute(touch: TouchID, contact: ContactID, view: ViewIndex?, default rule: RoutingRule,
                                     at time: Timestamp) -> Route {
        let route: Route
        switch view.flatMap({ tree.routingRule(of: $0) }) ?? rule {
        case .claim:
            route = .claimed
        case .forward:
            route = .forwarded
        case .hold(let hold):
            route = .held
            holds.append(HeldTouch(touch: touch, contact: contact, deadline: time + TimeSpan(seconds: hold.seconds),
                                   fingers: hold.fingers,
                                   distance: hold.distance?.inPoints(pointsPerMillimetre: pointsPerMillimetre)))
        }
        routeChanges.append(RouteChange(time: time, touch: touch, contact: contact, kind: .began(route)))
        return route
    }

    /// ``updateRoutes(at:)`` when there is anything to decide: a touch a claiming recognizer
    /// took, or a held touch. Without routing a frame costs one test; with every touch's route
    /// final (claimed, or forwarded with no claiming recognizer taking it), three and no call.
    @inline(__always)
    private mutating func updateRoutesIfAny(at time: Timestamp) {
        if routing != nil && (!holds.isEmpty || !arena.claimedTouches.isEmpty) { updateRoutes(at: time) }
    }

    /// Route decisions after the recognizers saw a frame or a deadline, in this order: the
    /// touches a claiming recognizer took are claimed; then each held touch is claimed when
    /// `fingers` touches are down, else dropped if the input cancelled it, else forwarded
    /// when it lifted, its hold ran out, it moved its `distance`, or no claiming recognizer
    /// may take it any more (and it has no `fingers` to wait for).
    private mutating func updateRoutes(at time: Timestamp) {
        if !arena.claimedTouches.isEmpty {
            for position in arena.claimedTouches.indices { claim(arena.claimedTouches[position], at: time) }
            arena.claimedTouches.removeAll(keepingCapacity: true)
        }
        guard !holds.isEmpty else { return }
        var down = 0
        for index in touches.indices where touches[index].contact != nil { down += 1 }
        var position = 0
        while position < holds.count {
            let held = holds[position]
            guard let index = touches.firstIndex(where: { $0.id == held.touch }) else {
                holds.remove(at: position)
                continue
            }
            let decision: RouteChange.Kind?
            if let fingers = held.fingers, down >= fingers {
                decision = .claimed
            } else if let ended = held.ended {
                decision = ended == .ended ? .forwarded : .dropped
            } else if time >= held.deadline {
                decision = .forwarded
            } else if let distance = held.distance,
                      touches[index].beganLocation.distance(to: touches[index].location) >= distance {
                decision = .forwarded
            } else if held.fingers == nil && !arena.mayClaim(held.touch, recognizers: touches[index].recognizers) {
                decision = .forwarded
            } else {
                decision = nil
            }
            guard let decision else {
                position += 1
                continue
            }
            holds.remove(at: position)
            touches[index].route = decision == .forwarded ? .forwarded : .claimed
            routeChanges.append(RouteChange(time: time, touch: held.touch, contact: held.contact, kind: decision))
        }
    }

    /// A claiming recognizer took `touch`: a held touch is claimed, a forwarded one still down
    /// is cancelled on the virtual panel (pilfered).
    private mutating func claim(_ touch: TouchID, at time: Timestamp) {
        guard let index = touches.firstIndex(where: { $0.id == touch }) else { return }
        switch touches[index].route {
        case .held?:
            guard let held = holds.firstIndex(where: { $0.touch == touch }) else { return }
            let contact = holds[held].contact
            holds.remove(at: held)
            touches[index].route = .claimed
            routeChanges.append(RouteChange(time: time, touch: touch, contact: contact, kind: .claimed))
        case .forwarded?:
            touches[index].route = .claimed
            if let contact = touches[index].contact {
                routeChanges.append(RouteChange(time: time, touch: touch, contact: contact, kind: .pilfered))
            }
        case .claimed?, nil:
            break
        }
    }

    /// Touches claiming recognizers took that the engine has not routed yet (0 between calls).
    var arenaClaimedTouchCount: Int { arena.claimedTouches.count }

    /// Forgets the route decisions taken so far (the driver has read ``routeChanges``).
    public mutating func removeRouteChanges() {
        routeChanges.removeAll(keepingCapacity: true)
    }

    /// Touches down (not lifted or cancelled at the input) whose route is `route`.
    public func touchCount(route: Route) -> Int {
        var count = 0
        for index in touches.indices where touches[index].contact != nil && touches[index].route == route { count += 1 }
        return count
    }

    // MARK: - Stage 4: deliveries

    /// Inserts recognitions' cancellations before their events, releases held deliveries
    /// whose recognizers decided and cancels those of views that can no longer receive
    /// touches, sends those, then offers the frame's inputs to the views and sends them, then
    /// resets finished recognizers and forgets finished touches.
    private mutating func settleDeliveries(at time: Timestamp, into events: inout EngineEvents) {
        insertCancellations(at: time, into: &events)
        pending.removeAll(keepingCapacity: true)
        for index in touches.indices {
            // Nothing held, in the current layout: nothing to release or cancel (nearly every
            // touch in nearly every frame, without the two calls).
            if !touches[index].delivery.isHeld && touches[index].tree === tree { continue }
            release(index, into: &events)
            if !viewStillReceives(index) { cancelDelivery(index, into: &events) }
        }
        // What the recognizers decided goes out before the frame's own deliveries, as in UIKit,
        // where a recognition cancels the view's touches while the event is being dispatched.
        send(at: time, into: &events)
        for (index, phase) in inputs { offer(index, phase, into: &events) }
        inputs.removeAll(keepingCapacity: true)
        send(at: time, into: &events)
        arena.resetFinished()
        touches.removeAll { $0.inputEnded && $0.delivery.isFinished }
        if !replacedTrees.isEmpty { releaseReplacedTrees() }
        if touches.isEmpty { arena.dropRetired() }
    }

    /// Sends the cancellations of this call's recognitions, each group just before the event
    /// of the recognition that caused it (docs/touches.md, "Delivery to views"). Positions only grow as
    /// recognitions happen, so the groups are inserted from the last, which keeps the earlier positions
    /// valid.
    private mutating func insertCancellations(at time: Timestamp, into events: inout EngineEvents) {
        var end = cancellations.count
        while end > 0 {
            let position = cancellations[end - 1].position
            var start = end - 1
            while start > 0 && cancellations[start - 1].position == position { start -= 1 }
            pending.removeAll(keepingCapacity: true)
            for cancellation in cancellations[start..<end] {
                if let index = touches.firstIndex(where: { $0.id == cancellation.touch }) {
                    cancelDelivery(index, into: &events)
                }
            }
            if !pending.isEmpty {
                let mark = events.count
                send(at: time, into: &events)
                events.moveTail(from: mark, to: position)
            }
            end = start
        }
        cancellations.removeAll(keepingCapacity: true)
    }

    /// Whether the touch's view can still receive it. After `view.update` or `layout.set`, a
    /// view that is now hidden, transparent or not interactive (itself or an ancestor) no
    /// longer receives touches (UIKit: "a hidden view … does not receive input events"; a view
    /// without user interaction has its events "ignored and removed from the event queue"):
    /// it gets `touchesCancelled`, a control `touchCancel`. A view the new layout no longer
    /// has keeps its touch as it was (touches already down keep their views: docs/protocol.md, "Changing the
    /// layout").
    private mutating func viewStillReceives(_ index: Int) -> Bool {
        guard touches[index].tree !== tree, !touches[index].delivery.isFinished,
              let current = touches[index].current(in: tree) else { return true }
        return tree.receivesTouches(current)
    }

    /// A recognizer recognized and cancels the touch in its view (`cancelsTouchesInView`).
    private mutating func cancelDelivery(_ index: Int, into events: inout EngineEvents) {
        switch touches[index].delivery {
        case .notBegun, .heldBegan:
            // The view never saw the touch: it gets nothing at all.
            touches[index].delivery = .finished
        case .delivering, .heldEnded:
            addPending(index, touchInfo(index, .cancelled), into: &events)
            touches[index].delivery = .finished
        case .finished:
            break
        }
    }

    /// Sends held deliveries whose recognizers no longer delay them.
    private mutating func release(_ index: Int, into events: inout EngineEvents) {
        // Whether a recognizer still holds the touch is asked first, of the record in place:
        // an ended touch stays held while a recognizer it took part in is undecided (a pan
        // kept `possible` by more fingers than it takes), and the state copied out to ask it
        // was a retain and a release per held touch per frame.
        let ended: Bool
        switch touches[index].delivery {
        case .notBegun, .delivering, .finished:
            // Nothing held (nearly every touch, every frame): no copy of the state.
            return
        case .heldBegan:
            ended = false
        case .heldEnded:
            ended = true
        }
        guard !holds(index, ended: ended) else { return }
        switch touches[index].delivery {
        case .heldBegan(let queue):
            touches[index].delivery = .delivering
            for info in queue { deliver(index, info, into: &events) }
        case .heldEnded(let info):
            addPending(index, info, into: &events)
            touches[index].delivery = .finished
        case .notBegun, .delivering, .finished:
            break
        }
    }

    /// Whether a recognizer of touch `index` holds its `began` or (`ended`) its `ended`.
    @inline(__always)
    private mutating func holds(_ index: Int, ended: Bool) -> Bool {
        arena.count(visits: touches[index].recognizers.count)
        return touches.withUnsafeBufferPointer { records in
            arena.holds(ended: ended, recordAt: records.baseAddress.unsafelyUnwrapped + index)
        }
    }

    /// One input phase of this frame reaches the touch's view, unless a recognizer holds it.
    private mutating func offer(_ index: Int, _ phase: TouchPhase, into events: inout EngineEvents) {
        // The two states of nearly every touch in nearly every frame first, without copying
        // the state (a held queue is an array) or making a delivery that goes nowhere.
        // (Asked as two questions, cheaper than a `switch` on the state: docs/performance.md,
        // "Measured reasons behind the code's shape".)
        if touches[index].delivery.isFinished { return }
        if touches[index].delivery.isDelivering {
            if phase == .moved {
                // A move of a touch its view receives: straight to the pending list.
                addPending(index, touchInfo(index, .moved), into: &events)
            } else {
                deliver(index, touchInfo(index, phase), into: &events)
            }
            return
        }
        let info = touchInfo(index, phase)
        switch (touches[index].delivery, phase) {
        case (.notBegun, .began):
            if holds(index, ended: false) {
                touches[index].delivery = .heldBegan([info])
            } else {
                touches[index].delivery = .delivering
                addPending(index, info, into: &events)
            }
        case (.heldBegan(var queue), .moved), (.heldBegan(var queue), .ended):
            // Consecutive held moves collapse into the latest, so a released queue carries at
            // most began, moved, ended.
            if phase == .moved, queue.last?.phase == .moved { queue.removeLast() }
            queue.append(info)
            touches[index].delivery = .heldBegan(queue)
        case (.heldBegan, .cancelled):
            touches[index].delivery = .finished
        case (.delivering, _):
            deliver(index, info, into: &events)
        case (.notBegun, _), (.heldBegan, .began), (.heldEnded, _), (.finished, _):
            // Nothing reaches a view that never began or already finished the touch.
            break
        }
    }

    /// Sends one delivery of a touch its view is receiving; an `ended` may be held.
    private mutating func deliver(_ index: Int, _ info: TouchInfo, into events: inout EngineEvents) {
        switch info.phase {
        case .began, .moved:
            addPending(index, info, into: &events)
        case .ended:
            if holds(index, ended: true) {
                touches[index].delivery = .heldEnded(info)
            } else {
                addPending(index, info, into: &events)
                touches[index].delivery = .finished
            }
        case .cancelled:
            addPending(index, info, into: &events)
            touches[index].delivery = .finished
        }
    }

    /// A delivery waiting for ``send(at:into:)``, with what groups it into one event: its phase,
    /// the hit view of its touch (-1 for none) and its tree, read once from the record in place
    /// (a whole record copied costs a retain and release of each of its references). The
    /// delivered touch itself is already in this call's touch pool, at `slot`.
    private struct PendingDelivery {
        var touch: Int
        var slot: Int
        var phase: TouchPhase
        var view: Int
        var tree: ObjectIdentifier
        var sent = false
    }

    /// The touch as a delivery carries it, read field by field from the array: a method of the
    /// record called there copied the whole record (a memcpy of 250 bytes) first.
    @inline(__always)
    private func touchInfo(_ index: Int, _ phase: TouchPhase) -> TouchInfo {
        let location = touches[index].location
        let viewLocation = touches[index].view.map { touches[index].tree.convert(screen: location, to: $0) } ?? location
        return TouchInfo(id: touches[index].id, phase: phase, location: location, viewLocation: viewLocation,
                         previousLocation: touches[index].previousLocation, tapCount: touches[index].tapCount,
                         majorRadius: touches[index].majorRadius, force: touches[index].force,
                         route: touches[index].route)
    }

    /// The delivered touch goes into the pool once, here: a delivery that is alone in its
    /// event (one finger per view, nearly always) is sent from where it is, not copied again.
    @inline(__always)
    private mutating func addPending(_ index: Int, _ info: TouchInfo, into events: inout EngineEvents) {
        let slot = events.addTouch(info)
        pending.append(PendingDelivery(touch: index, slot: slot, phase: info.phase, view: touches[index].view ?? -1,
                                       tree: ObjectIdentifier(touches[index].tree)))
    }

    /// Groups the pending deliveries per view and phase and sends them along the responder
    /// chain, with the control events they produce. Order: phases in the order began, moved,
    /// ended, cancelled; within a phase, views in the order of their first touch. Allocates
    /// nothing: groups are found by scanning the pending list, which holds a few entries. A
    /// delivery alone in its group is sent from its place in the pool; a group of several is
    /// copied to the pool's end, in order, so that its touches are one range.
    private mutating func send(at time: Timestamp, into events: inout EngineEvents) {
        guard !pending.isEmpty else { return }
        let count = pending.count
        var phases = 0
        for index in 0..<count { phases |= 1 << Self.rank(pending[index].phase) }
        for rank in 0..<4 where phases & (1 << rank) != 0 {
            let phase = Self.phase(rank: rank)
            // A `first` is never visited again, so only the later members of a group are marked.
            for first in 0..<count where !pending[first].sent && pending[first].phase == phase {
                let view = pending[first].view
                let tree = pending[first].tree
                var start = pending[first].slot
                var members = 1
                for other in first + 1..<count where !pending[other].sent && pending[other].view == view
                    && pending[other].phase == phase && pending[other].tree == tree {
                    if members == 1 { start = events.addTouch(events.touch(at: pending[first].slot)) }
                    _ = events.addTouch(events.touch(at: pending[other].slot))
                    pending[other].sent = true
                    members += 1
                }
                guard view >= 0 else { continue }
                let record = pending[first].touch
                events.appendTouches(time: time, phase: phase, treeID: tree, tree: touches[record].tree, view: view,
                                     start: start, count: members)
                if touches[record].control != nil {
                    for slot in start..<start + members {
                        controlEvents(for: events.touch(at: slot), at: time, into: &events)
                    }
                }
            }
        }
        pending.removeAll(keepingCapacity: true)
    }

    /// The order phases are sent in: began, moved, ended, cancelled.
    private static func rank(_ phase: TouchPhase) -> Int {
        switch phase {
        case .began: 0
        case .moved: 1
        case .ended: 2
        case .cancelled: 3
        }
    }

    private static func phase(rank: Int) -> TouchPhase {
        switch rank {
        case 0: .began
        case 1: .moved
        case 2: .ended
        default: .cancelled
        }
    }

    private mutating func controlEvents(for info: TouchInfo, at time: Timestamp, into events: inout EngineEvents) {
        guard let index = touches.firstIndex(where: { $0.id == info.id }), let view = touches[index].view,
              var tracking = touches[index].control else { return }
        // Inside or outside is judged against the control as it stands now, after any
        // `view.update` or `layout.set` that moved or resized it (docs/touches.md, "Controls").
        let currentView = touches[index].current(in: tree)
        let liveTree = currentView == nil ? touches[index].tree : tree
        let liveView = currentView ?? view
        let node = liveTree[liveView]
        let local = liveTree.convert(screen: info.location, to: liveView)
        let slop = node.spec.trackingSlop ?? settings.trackingSlop
        let (first, second) = tracking.events(for: info.phase, at: local, bounds: node.spec.frame.size,
                                              slop: slop, tapCount: info.tapCount)
        touches[index].control = tracking
        let tree = touches[index].tree
        events.append(.control(ControlEvent(time: time, tree: tree, view: view, event: first, touch: info.id)))
        if let second {
            events.append(.control(ControlEvent(time: time, tree: tree, view: view, event: second, touch: info.id)))
        }
    }
}
