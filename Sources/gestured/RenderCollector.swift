import GestureCore

/// The record sink of `gestured render`: reads the replay's records as they come (the same
/// records `replay --trace --contacts` prints) and keeps what the picture needs, within
/// ``RenderLimits``, so that its memory does not grow with the recording.
///
/// Where the pieces come from: a touch's path from the `contacts` events (every finger,
/// including those a recognizer took from their view), its hit view from its `hitTest` event,
/// its responder chain from its first `touches` delivery, the recognizers' states from the
/// `gesture` events (with `failed`, which tracing adds).
///
/// A `failed` or `cancelled` event says why (its `reason`, docs/protocol.md § Why a recognizer
/// failed), which the picture shows. Beside it, the picture gives as a failure's context what else the replay reported at that instant, in this order
/// of preference: another recognizer that began or recognized (sharing a touch, then any); then
/// its own touches that lifted, were cancelled, moved or landed; and when nothing of that
/// happened, that no finger changed at that instant (a time limit of the recognizer ran out).
/// Nothing is recomputed: each phrase is an event the replay printed.
final class RenderCollector: RecordSink {
    private(set) var model: RenderModel
    /// The time of the first event (the replay's `device` event, at the recording's start), in
    /// microseconds on the input timeline: the picture's time 0.
    private var start: Int64?
    /// Each drawn touch's position in ``RenderModel/touches``.
    private var touchIndex: [Int: Int] = [:]
    /// The highest touch id met: ids are fresh for every touch and increase, so a touch over
    /// the limit is counted once, when its id is first met.
    private var highestTouch = 0
    private var recognizerIndex: [String: Int] = [:]

    /// What happened at the instant being read, for the context of its failures.
    private struct Instant {
        var time: Int64 = .min
        /// Recognizers that began or recognized, with their touches.
        var successes: [(recognizer: String, state: GestureState, touches: [Int])] = []
        /// Touches whose contact changed, with the phase.
        var contacts: [(touch: Int, phase: ContactsEvent.Phase)] = []
        /// Failures waiting for the instant to end: recognizer and transition positions.
        var failures: [(recognizer: Int, transition: Int)] = []
    }
    private var instant = Instant()

    init(model: RenderModel) {
        self.model = model
        for (index, recognizer) in model.recognizers.enumerated() where recognizerIndex[recognizer.id] == nil {
            recognizerIndex[recognizer.id] = index
        }
    }

    func consume(_ records: PipelineRecords) {
        for segment in records.segments {
            switch segment {
            case .engineEvents(let range):
                for index in range { take(records.engineEvents[index]) }
            case .edgeEvent(let index):
                take(records.edgeEvents[index])
            case .routeChanges, .panelFrames:
                break
            }
        }
    }

    /// The replay has ended: the last instant's failures get their context, and every path its last point.
    func finish() {
        resolveInstant()
        for index in model.touches.indices {
            let touch = model.touches[index]
            if touch.points.last?.time != touch.last.time || touch.points.isEmpty {
                model.touches[index].points.append(touch.last)
            }
        }
    }

    private func relative(_ time: Int64) -> Int64 {
        if start == nil { start = time }
        let value = time - (start ?? time)
        model.duration = max(model.duration, value)
        return value
    }

    private func take(_ event: OutputEvent) {
        switch event {
        case .engine(let engine):
            take(engine)
        case .device(let time, _, let name, _):
            device(name, at: time.microseconds)
        case .warning(let time, let message):
            warning(message, at: time.microseconds)
        case .contacts(let event):
            contacts(at: event.time.microseconds, event.contacts.map { contact in
                (contact.id.rawValue, contact.phase, contact.location, contact.recognizer)
            })
        case .layout, .screen:
            break
        }
    }

    private func take(_ event: EngineEvent) {
        switch event {
        case .hitTest(let hit):
            guard let touch = hit.touch else { return }
            hitTest(touch: touch.rawValue, view: hit.view.map { hit.tree.id(of: $0) }, at: hit.time.microseconds)
        case .touches(let delivery):
            // The chain is built only for a touch whose first delivery this is.
            let first = delivery.touches.contains { touch in
                touchIndex[touch.id.rawValue].map { model.touches[$0].responders.isEmpty } ?? false
            }
            delivered(touches: delivery.touches.map(\.id.rawValue), responders: first ? delivery.responders.ids : [],
                      at: delivery.time.microseconds)
        case .gesture(let gesture):
            self.gesture(gesture.recognizer, state: gesture.state, touches: gesture.touches.map(\.rawValue),
                         reason: gesture.failure.map { RenderText.reason($0) }, at: gesture.time.microseconds)
        case .control(let event):
            control(event.tree.id(of: event.view), event: event.event.rawValue, touch: event.touch.rawValue,
                    at: event.time.microseconds)
        }
    }

    // MARK: - What the replay reported (times in microseconds on the input timeline)

    /// The replay's device (its first `device` event).
    func device(_ name: String, at time: Int64) {
        _ = relative(time)
        if model.device.isEmpty { model.device = name }
    }

    /// A `warning` event.
    func warning(_ message: String, at time: Int64) {
        let time = relative(time)
        guard model.warnings.count < RenderLimits.warnings else {
            model.warningsLeftOut += 1
            return
        }
        model.warnings.append(.init(time: time, message: String(message.prefix(RenderLimits.warningCharacters))))
    }

    /// A touch's `hitTest` event: the touch begins here.
    func hitTest(touch: Int, view: String?, at time: Int64) {
        guard let index = touchPosition(touch, time: time) else { return }
        model.touches[index].hitView = view
    }

    /// A `touches` delivery: the first one of a touch gives its responder chain.
    func delivered(touches: [Int], responders: [String], at time: Int64) {
        _ = relative(time)
        for touch in touches {
            guard let index = touchIndex[touch], model.touches[index].responders.isEmpty else { continue }
            model.touches[index].responders = Array(responders.prefix(RenderLimits.responders))
        }
    }

    /// A `control` event.
    func control(_ view: String, event: String, touch: Int, at time: Int64) {
        let time = relative(time)
        guard model.controls.count < RenderLimits.controlEvents else {
            model.controlsLeftOut += 1
            return
        }
        model.controls.append(.init(time: time, view: view, event: event, touch: touch))
    }

    /// A `gesture` event; `reason`, a failure's or cancellation's (``RenderText/reason(_:measured:limit:by:)``).
    func gesture(_ recognizer: String, state: GestureState, touches: [Int], reason: String? = nil, at time: Int64) {
        let time = relative(time)
        enterInstant(time)
        guard let index = recognizerIndex[recognizer] else { return }
        if (state == .began || state == .recognized), instant.successes.count < RenderLimits.instantEntries {
            instant.successes.append((recognizer, state, touches))
        }
        let previous = model.recognizers[index].lastState
        model.recognizers[index].lastState = state
        // Values that change while a gesture goes on are not changes of state.
        if state == .changed, previous == .began || previous == .changed { return }
        guard model.recognizers[index].transitions.count < RenderLimits.transitionsPerRecognizer else {
            model.recognizers[index].transitionsLeftOut += 1
            return
        }
        model.recognizers[index].transitions.append(.init(time: time, state: state, touches: touches, reason: reason))
        if state == .failed, instant.failures.count < RenderLimits.instantEntries {
            instant.failures.append((index, model.recognizers[index].transitions.count - 1))
        }
    }

    /// A `contacts` event: every finger's id, phase, position and the recognizer that has it.
    func contacts(at time: Int64, _ contacts: [(id: Int, phase: ContactsEvent.Phase, location: Point, recognizer: String?)]) {
        let eventTime = time
        let time = relative(time)
        enterInstant(time)
        for contact in contacts {
            if contact.phase != .stationary, instant.contacts.count < RenderLimits.instantEntries {
                instant.contacts.append((contact.id, contact.phase))
            }
            guard contact.phase != .stationary, let index = touchPosition(contact.id, time: eventTime) else { continue }
            add(Sample(time: time, location: Self.asPrinted(contact.location)), to: &model.touches[index])
            if let recognizer = contact.recognizer, !model.touches[index].recognizers.contains(recognizer),
               model.touches[index].recognizers.count < RenderLimits.recognizerLanes {
                model.touches[index].recognizers.append(recognizer)
            }
            if contact.phase == .ended || contact.phase == .cancelled {
                model.touches[index].end = time
                model.touches[index].endPhase = contact.phase.rawValue
            }
        }
    }

    private typealias Sample = RenderModel.Sample

    /// `point` to the ten-thousandth the JSON Lines print it with (docs/events.md, rounded half
    /// away from zero as the encoder does): a replay's records and its saved events then give
    /// the same numbers, and the same picture.
    static func asPrinted(_ point: Point) -> Point {
        Point(x: (point.x * 10_000).rounded() / 10_000, y: (point.y * 10_000).rounded() / 10_000)
    }

    /// The touch's position in the model, made when its id is first met; nil for a touch over the limit.
    private func touchPosition(_ id: Int, time: Int64) -> Int? {
        if let index = touchIndex[id] { return index }
        guard id > highestTouch else { return nil }
        highestTouch = id
        guard model.touches.count < RenderLimits.touches else {
            model.touchesLeftOut += 1
            return nil
        }
        let began = relative(time)
        let origin = Sample(time: began, location: .zero)
        model.touches.append(RenderModel.Touch(id: id, began: began, last: origin, nextTick: began + RenderLimits.tickInterval))
        touchIndex[id] = model.touches.count - 1
        return model.touches.count - 1
    }

    /// A sample of a touch's path: kept by the stride rule of ``RenderLimits/pointsPerTouch``,
    /// and the ticks it passes placed where the touch was at each.
    private func add(_ sample: Sample, to touch: inout RenderModel.Touch) {
        if touch.samples > 0 {
            // Where the touch was at each tick before this sample: at the last sample's place.
            while touch.nextTick < sample.time { addTick(Sample(time: touch.nextTick, location: touch.last.location), to: &touch) }
            if touch.nextTick == sample.time { addTick(sample, to: &touch) }
        }
        if touch.samples % touch.stride == 0 {
            if touch.points.count == RenderLimits.pointsPerTouch {
                touch.points = touch.points.enumerated().filter { $0.offset % 2 == 0 }.map(\.element)
                touch.stride *= 2
            }
            if touch.samples % touch.stride == 0 { touch.points.append(sample) }
        }
        touch.samples += 1
        touch.last = sample
    }

    private func addTick(_ tick: Sample, to touch: inout RenderModel.Touch) {
        if touch.ticks.count == RenderLimits.ticksPerTouch {
            // Tick i (from 0) is at (i + 1) intervals: those at an even number of intervals stay.
            touch.ticks = touch.ticks.enumerated().filter { $0.offset % 2 == 1 }.map(\.element)
            touch.tickInterval *= 2
        }
        let since = tick.time - touch.began
        if since % touch.tickInterval == 0 { touch.ticks.append(tick) }
        touch.nextTick = touch.began + (since / touch.tickInterval + 1) * touch.tickInterval
    }

    /// Moves to the instant at `time`: the failures of the instant before get their context.
    private func enterInstant(_ time: Int64) {
        guard time != instant.time else { return }
        resolveInstant()
        instant = Instant()
        instant.time = time
    }

    private func resolveInstant() {
        for failure in instant.failures {
            let transition = model.recognizers[failure.recognizer].transitions[failure.transition]
            model.recognizers[failure.recognizer].transitions[failure.transition].context =
                context(of: model.recognizers[failure.recognizer].id, touches: transition.touches)
        }
        instant.failures.removeAll()
    }

    /// What else the replay reported at the instant of a failure (see the type's comment).
    private func context(of recognizer: String, touches: [Int]) -> String {
        var phrases: [String] = []
        let others = instant.successes.filter { $0.recognizer != recognizer }
        let sharing = others.filter { other in other.touches.contains { touches.contains($0) } }
        for other in (sharing.isEmpty ? others : sharing).prefix(3) {
            let shared = other.touches.filter { touches.contains($0) }
            phrases.append("\(other.recognizer) \(other.state.rawValue)"
                + (shared.isEmpty ? "" : " (shares touch \(shared.map(String.init).joined(separator: ", ")))"))
        }
        let own = instant.contacts.filter { touches.contains($0.touch) }
        for (touch, phase) in own.prefix(4) {
            let verb = switch phase {
            case .began: "landed"
            case .moved: "moved"
            case .ended: "lifted"
            case .cancelled: "was cancelled"
            case .stationary: "stayed"
            }
            phrases.append("touch \(touch) \(verb)")
        }
        if phrases.isEmpty {
            let newcomers = instant.contacts.filter { $0.phase == .began }.prefix(4)
            if !newcomers.isEmpty {
                phrases.append("touch " + newcomers.map { String($0.touch) }.joined(separator: ", ") + " landed")
            } else if instant.contacts.isEmpty {
                phrases.append("no finger landed, moved or lifted: a time limit ran out")
            } else {
                phrases.append("another touch changed")
            }
        }
        return phrases.joined(separator: "; ")
    }
}
