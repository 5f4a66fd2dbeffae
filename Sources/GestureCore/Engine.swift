/// The pure, deterministic gesture engine: touch frames and "advance to time T" in, resolved
/// events out (SPEC 1). It never reads a clock and performs no I/O, so live input, replays and
/// tests run the very same code.
///
/// The pipeline of one frame, in order (see ``process(_:into:)``):
/// 1. touches that begin are hit-tested once and attached to their view for life;
/// 2. positions and phases are updated;
/// 3. touch deliveries are grouped per view and phase and sent along the responder chain;
/// 4. controls turn their deliveries into control events;
/// 5. touches whose last delivery was made are forgotten.
public struct Engine {
    public private(set) var tree: ViewTree
    public let settings: GestureSettings
    /// Emit `hitTest` events with the trace for every touch that begins.
    public var tracing: Bool

    private var touches: [TouchRecord] = []
    private var nextTouchID = 1
    private var lastTap: (tree: ViewTree, view: ViewIndex, location: Point, time: Timestamp, count: Int)?
    /// Scratch buffers reused from frame to frame.
    private var pending: [(touch: Int, info: TouchInfo)] = []

    public init(tree: ViewTree, settings: GestureSettings = GestureSettings(), tracing: Bool = false) {
        self.tree = tree
        self.settings = settings
        self.tracing = tracing
    }

    /// Number of touches the engine still tracks (down, or awaiting their last delivery).
    public var activeTouchCount: Int { touches.count }

    /// The next time at which the engine needs ``advance(to:into:)``; `nil` when none.
    public var nextDeadline: Timestamp? { nil }

    /// Replaces the layout. Touches already down keep their views (SPEC 9).
    public mutating func replaceLayout(_ newTree: ViewTree) {
        tree = newTree
    }

    /// Fires every deadline up to `time`.
    public mutating func advance(to time: Timestamp, into events: inout [EngineEvent]) {
        _ = time
    }

    /// Runs one frame through the pipeline, appending the resolved events to `events`.
    public mutating func process(_ frame: TouchFrame, into events: inout [EngineEvent]) {
        advance(to: frame.time, into: &events)
        pending.removeAll(keepingCapacity: true)
        for change in frame.changes {
            switch change {
            case .down(let contact, let point, let radius, let force):
                if let existing = touchIndex(contact: contact) {
                    // The input layer never sends two downs for one contact; end the old touch so
                    // it cannot be left without an end.
                    endInput(existing, phase: .cancelled, at: frame.time)
                }
                begin(contact: contact, at: point, radius: radius, force: force, time: frame.time, events: &events)
            case .move(let contact, let point, let radius, let force):
                guard let index = touchIndex(contact: contact) else { continue }
                touches[index].previousLocation = touches[index].location
                touches[index].location = point
                if let radius { touches[index].majorRadius = radius }
                if let force { touches[index].force = force }
                queue(index, .moved)
            case .up(let contact):
                guard let index = touchIndex(contact: contact) else { continue }
                endInput(index, phase: .ended, at: frame.time)
            case .cancel(let contact):
                guard let index = touchIndex(contact: contact) else { continue }
                endInput(index, phase: .cancelled, at: frame.time)
            }
        }
        deliver(at: frame.time, into: &events)
        forgetFinishedTouches()
    }

    /// Cancels every touch still down (device removed, daemon stopping, end of a recording).
    public mutating func cancelAll(at time: Timestamp, into events: inout [EngineEvent]) {
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

    // MARK: - Stages

    private func touchIndex(contact: ContactID) -> Int? {
        touches.firstIndex { $0.contact == contact }
    }

    /// Stage 1: a new touch is hit-tested once and attached to its view.
    private mutating func begin(contact: ContactID, at point: Point, radius: Double?, force: Double?,
                                time: Timestamp, events: inout [EngineEvent]) {
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
        let delivers = view.map { acceptsNewTouch($0) } ?? false
        var tapCount = 1
        if let view, let last = lastTap, last.tree === tree, last.view == view,
           (time - last.time).seconds <= settings.touchTapInterval,
           last.location.distance(to: point) <= settings.touchTapDistance {
            tapCount = last.count + 1
        }
        var record = TouchRecord(id: id, contact: contact, tree: tree, view: view, deliversToView: delivers,
                                 beganAt: time, beganLocation: point, location: point, previousLocation: point,
                                 tapCount: tapCount, majorRadius: radius, force: force)
        if !delivers { record.delivery = .finished }
        if let view, delivers, tree[view].spec.kind == .control { record.control = ControlTracking() }
        touches.append(record)
        queue(touches.count - 1, .began)
    }

    /// Whether the view `view` of the current tree receives a touch that begins now
    /// (`multipleTouchEnabled` and `exclusiveTouch`, SPEC 3).
    private func acceptsNewTouch(_ view: ViewIndex) -> Bool {
        let spec = tree[view].spec
        for other in touches where other.deliversToView && other.delivery != .finished && other.contact != nil {
            guard let otherView = other.view else { continue }
            let sameView = other.tree === tree && otherView == view
            // UIKit: a view that is not multipleTouchEnabled is delivered only the first touch.
            if sameView && !spec.multipleTouchEnabled { return false }
            // UIKit's isExclusiveTouch: while an exclusive view tracks a touch no other view gets
            // one, and an exclusive view gets none while other views track touches.
            if !sameView && (spec.exclusiveTouch || other.tree[otherView].spec.exclusiveTouch) { return false }
        }
        return true
    }

    /// Stage 2: the finger lifted or the contact was cancelled at the input.
    private mutating func endInput(_ index: Int, phase: TouchPhase, at time: Timestamp) {
        touches[index].contact = nil
        touches[index].inputEnded = true
        if phase == .ended, let view = touches[index].view,
           touches[index].beganLocation.distance(to: touches[index].location) <= settings.touchTapDistance {
            lastTap = (touches[index].tree, view, touches[index].beganLocation, time, touches[index].tapCount)
        }
        queue(index, phase)
    }

    private mutating func queue(_ index: Int, _ phase: TouchPhase) {
        let touch = touches[index]
        guard touch.deliversToView else { return }
        switch (touch.delivery, phase) {
        case (.notBegun, .began), (.delivering, .moved), (.delivering, .ended), (.delivering, .cancelled):
            pending.append((index, touch.info(phase)))
            touches[index].delivery = (phase == .began || phase == .moved) ? .delivering : .finished
        case (.notBegun, _), (.delivering, .began), (.finished, _):
            // A touch that never began at its view gets nothing else there; one that finished
            // gets nothing after its end.
            if phase == .ended || phase == .cancelled { touches[index].delivery = .finished }
        }
    }

    /// Stages 3 and 4: deliveries grouped per view and phase, along the responder chain, and
    /// the control events they produce. Order: phases in the order began, moved, ended,
    /// cancelled; within a phase, views in the order of their first touch in the frame.
    private mutating func deliver(at time: Timestamp, into events: inout [EngineEvent]) {
        guard !pending.isEmpty else { return }
        for phase in [TouchPhase.began, .moved, .ended, .cancelled] {
            var groups: [(touch: Int, infos: [TouchInfo])] = []
            for (index, info) in pending where info.phase == phase {
                let touch = touches[index]
                if let group = groups.firstIndex(where: {
                    touches[$0.touch].tree === touch.tree && touches[$0.touch].view == touch.view
                }) {
                    groups[group].infos.append(info)
                } else {
                    groups.append((index, [info]))
                }
            }
            for (index, infos) in groups {
                let touch = touches[index]
                guard let view = touch.view else { continue }
                events.append(.touches(TouchesEvent(
                    time: time, phase: phase, tree: touch.tree, view: view,
                    responders: ResponderChain.responders(from: view, in: touch.tree), touches: infos)))
                if touch.control != nil {
                    for info in infos { controlEvents(for: info, at: time, into: &events) }
                }
            }
        }
    }

    private mutating func controlEvents(for info: TouchInfo, at time: Timestamp, into events: inout [EngineEvent]) {
        guard let index = touches.firstIndex(where: { $0.id == info.id }), let view = touches[index].view,
              var tracking = touches[index].control else { return }
        let node = touches[index].tree[view]
        let slop = node.spec.trackingSlop ?? settings.trackingSlop
        let (first, second) = tracking.events(for: info.phase, at: info.viewLocation, bounds: node.spec.frame.size,
                                              slop: slop, tapCount: info.tapCount)
        touches[index].control = tracking
        let tree = touches[index].tree
        events.append(.control(ControlEvent(time: time, tree: tree, view: view, event: first, touch: info.id)))
        if let second {
            events.append(.control(ControlEvent(time: time, tree: tree, view: view, event: second, touch: info.id)))
        }
    }

    /// Stage 5: a touch is forgotten once its input ended and its view has had its last delivery.
    private mutating func forgetFinishedTouches() {
        touches.removeAll { $0.inputEnded && $0.delivery == .finished }
    }
}
