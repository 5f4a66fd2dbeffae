import EvdevInput
import GestureCore
import GestureSystem
import Logging
import Recordings

/// Runs a ``GesturePipeline`` on a live device, on an ``EventLoop`` (docs/input.md, "Devices"): a driver that
/// reads the device and the clock and feeds the pipeline. The device's descriptor readable →
/// read everything → the pipeline → its records to the sinks: the JSON Lines encoder (whose
/// lines go to the ``EventSink``: the socket server, stdout), the virtual panel's writer, and
/// any other ``RecordSink`` the runner is given. The pipeline's deadlines are armed on the loop's
/// timer directly, because evdev stamps events with `CLOCK_MONOTONIC` (``EvdevDevice``), the
/// timer's clock. A removed device ends its touches and the runner waits for the provider's
/// hotplug notification to open it again; `SYN_DROPPED` is reconciled against the device's
/// true state read back.
///
/// The loop never polls: it sleeps until the device, the hotplug watcher, the deadline timer
/// or a signal (the owner's) wakes it. Not `Sendable`: it lives on the loop's thread.
///
/// Time never goes backwards into the pipeline (``EventTimeClamp``): evdev's own stamps are
/// monotonic, but a driver may stamp events with its hardware's clock (`input_set_timestamp`)
/// and a program writing to uinput may give its own times (Linux 6.5 and later, up to 10 s in
/// the past), so an event stamped before an earlier one takes the earlier one's time, with a
/// "kernel bug:" warning at the first and at the 10th, 100th, … and when the device goes. An
/// event stamped before a deadline already fired (or a resynchronisation) goes on at that
/// time too, silently: the engine has already acted there.
///
/// The runner owns the pipeline; the daemon reaches into it between two reads (a layout
/// replaced, a point hit-tested, tracing switched) through the methods under *Requests*.
public final class LiveRunner {
    private let loop: EventLoop
    /// The loop has one deadline: the first screen's runner uses it, every other screen's
    /// runner a timer of its own (``ownsTimer``), so that one screen's deadlines never replace
    /// another's (docs/architecture.md, "The host and its pipelines").
    private let ownsTimer: Bool
    private var timer: DeadlineTimer?
    private let provider: any InputSourceProvider
    private let sink: any EventSink
    private let logger: Logger
    private let clock: () -> Timestamp
    private let overrides: DeviceOverrides
    /// Unchecked exclusivity: the runner lives on its loop's thread and the pipeline is pure
    /// (nothing it calls reaches back into the runner), so the dynamic check this class
    /// property otherwise costs on every raw event bought nothing.
    @exclusivity(unchecked) private var pipeline: GesturePipeline
    // The same for what every read touches: no access to these spans a call out of the runner
    // that could come back into it (`spare` included: see ``publish()``).
    @exclusivity(unchecked) private var source: (any InputSource)?
    private var sourceToken: EventLoop.Token?
    private var changeToken: EventLoop.Token?
    @exclusivity(unchecked) private var readings: [RawEvent] = []
    /// Keeps the device's event times from going backwards (see the type's doc).
    @exclusivity(unchecked) private var timeClamp = EventTimeClamp()
    /// The count of events that went back at which the next warning is due (1, 10, 100, …),
    /// and the count the last warning gave.
    private var nextTimeWarning = 1
    private var warnedEventsBack = 0
    /// The stream's JSON Lines and what the socket server needs of them: the daemon's one
    /// stream, shared by every screen's runner (one `seq`).
    private let stream: StreamLines
    /// This runner's screen, written into its events when the daemon has several (nil: one).
    private let screenID: String?
    /// The caller's sinks, after the JSON Lines and the virtual panel's writer, in order.
    @exclusivity(unchecked) private var recordSinks: [any RecordSink]
    /// The deadline the loop's timer is armed for, so it is re-armed only when it changes.
    @exclusivity(unchecked) private var armed: Timestamp?
    @exclusivity(unchecked) public private(set) var isStopped = false
    /// Makes the virtual panel for a panel just opened and grabbed; nil: no copy (the daemon
    /// without routing, as before it existed).
    private let makePanelCopy: PanelCopyFactory?
    /// Writes the virtual panel while there is one (docs/routing.md, "The virtual panel");
    /// nil without `makePanelCopy`.
    private let panelWriter: PanelCopyWriter?
    /// Debugging and the kernel tests only: every frame read is written to the copy as it
    /// came, before routing decides anything (``PanelCopyMode/passThrough``).
    private let panelCopyMode: PanelCopyMode
    /// Set by a daemon of several screens: what runs when the device has been read (without
    /// feeding it) or a deadline comes due, so that the screens are stepped together in input
    /// time once the loop has run every handler of its wake-up (``LiveScreens``). Nil (one
    /// screen): the runner reads and feeds its panel on its own.
    var turn: (() -> Void)?
    /// Within a turn of ``LiveScreens``: the panel was read in it, the next of ``readings`` to
    /// feed, how the read ended and why it failed.
    private var readInTurn = false
    @exclusivity(unchecked) private var turnCursor = 0
    private var turnEnd: ReadEnd = .drained
    private var turnFailure: EvdevError?

    /// - Parameters:
    ///   - provider: finds and opens the device, and signals hotplug.
    ///   - tracing: emit `hitTest` events and `failed` transitions (`--trace`).
    ///   - sink: receives the event stream, one batch per wake-up.
    ///   - logger: the operator's lines (device found, removed, unusable), never per touch.
    ///   - clock: now on `CLOCK_MONOTONIC`, for removal and stop times (a fixed value in tests).
    ///   - recordSinks: more consumers of the pipeline's records (tests collect them; a new
    ///     output is a new sink), each handed every batch after the virtual panel's writer. A
    ///     batch's lines carry each event's summary, which is what the socket server needs,
    ///     whenever the sink wants them (``EventSink/wantsSummaries``: not while no client is
    ///     connected).
    ///   - makePanelCopy: makes the virtual panel each time a grabbed panel opens (routing);
    ///     nil, the default: no copy, nothing written anywhere but the sink.
    ///   - panelCopyMode: what is written to the copy (``PanelCopyMode``).
    public init(loop: EventLoop, provider: any InputSourceProvider, setup: PipelineSetup, tracing: Bool = false,
                sink: any EventSink, logger: Logger,
                clock: @escaping () -> Timestamp = { Timestamp(microseconds: MonotonicClock.microseconds()) },
                recordSinks: [any RecordSink] = [], makePanelCopy: PanelCopyFactory? = nil,
                panelCopyMode: PanelCopyMode = .routed, stream: StreamLines? = nil, screenID: String? = nil,
                ownsTimer: Bool = false) {
        self.ownsTimer = ownsTimer
        self.makePanelCopy = makePanelCopy
        self.panelCopyMode = panelCopyMode
        let panelWriter = makePanelCopy.map { _ in PanelCopyWriter(mode: panelCopyMode, logger: logger) }
        self.panelWriter = panelWriter
        self.recordSinks = recordSinks
        self.stream = stream ?? StreamLines(writesRoutes: setup.routing != nil)
        self.screenID = screenID
        (self.loop, self.provider, self.sink, self.logger, self.clock) = (loop, provider, sink, logger, clock)
        overrides = setup.device
        pipeline = GesturePipeline(setup: setup, options: .init(tracing: tracing),
                                   start: clock(), makeConverter: { try ProtocolAConverter(description: $0) })
    }

    /// The pipeline's next deadline (tests wait for it to be nil before stopping).
    public var nextDeadline: Timestamp? { pipeline.nextDeadline }

    /// Touch frames processed since the start (`status`).
    public var frameCount: Int { pipeline.frameCount }

    /// True while a device is open.
    public var isAttached: Bool { source != nil }

    /// The virtual panel's node while there is one (`status`, tests).
    public var panelCopyPath: String? { panelWriter?.copy?.path }

    /// Watches for hotplug and opens the device if it is there. A device that cannot be
    /// opened (permissions) or used (no axis ranges) is an error at start, so the operator
    /// learns at once; later the runner logs it and keeps waiting.
    public func start() throws(EvdevError) {
        do {
            if ownsTimer && timer == nil {
                timer = try DeadlineTimer(loop: loop) { [unowned self] in deadlineFired() }
            }
            changeToken = try loop.watch(provider.changeDescriptor) { [unowned self] _ in devicesChanged() }
        } catch {
            throw .system(error)
        }
        try attachIfPresent()
        if source == nil {
            logger.notice("waiting for the touchscreen to appear", metadata: ["selector": "\(provider.selectorDescription)"])
            for device in provider.passedOver {
                logger.notice("auto passed over a device that may be the touchscreen", metadata: ["device": "\(device)"])
            }
        }
        publish()
    }

    /// Ends the run (SIGTERM, SIGINT) when nothing else is on the loop: ``stopInput()``, then
    /// the loop stopped.
    public func shutdown() {
        stopInput()
        loop.stop()
    }

    /// Ends the input (SIGTERM, SIGINT): every touch still down is cancelled and published,
    /// and neither the device nor hotplug is watched any more. The loop goes on, for whoever
    /// else is on it (the socket server telling its clients).
    public func stopInput() {
        guard !isStopped else { return }
        isStopped = true
        if let source { warnAboutTime(of: source, closing: true) }
        pipeline.finish(at: clock())
        publish()
        removePanelCopy(because: "gestured is stopping")
        setDeadline(nil)
        armed = nil
        if let sourceToken { loop.unwatch(sourceToken) }
        sourceToken = nil
        if let changeToken { loop.unwatch(changeToken) }
        changeToken = nil
    }

    // MARK: - Requests

    /// The open device's name and node, `nil` while there is none (unplugged, not found yet).
    public var device: (name: String, path: String)? {
        source.map { ($0.description.name, $0.path) }
    }

    /// Now on the input timeline (`CLOCK_MONOTONIC`), never before the latest input.
    public var currentTime: Timestamp { max(clock(), pipeline.currentTime) }

    /// Touches the pipeline still tracks.
    public var activeTouchCount: Int { pipeline.activeTouchCount }

    /// Touches down per route; nil when the configuration routes none.
    public var routeCounts: RouteCounts? { pipeline.routeCounts }

    /// Hit-test traces and failed transitions (`--trace`, or a subscriber that asks).
    public var tracing: Bool { get { pipeline.tracing } set { pipeline.tracing = newValue } }

    /// A `contacts` event after every frame that changed a contact (a subscriber asks).
    public var listsContacts: Bool { get { pipeline.listsContacts } set { pipeline.listsContacts = newValue } }

    /// Replaces the layout between two reads, announced as `revision`; touches already down
    /// keep their views (docs/protocol.md, "Changing the layout"). Returns the stream's `layout` event
    /// instead of handing it to the sink: the socket server publishes what its owner returns.
    public func replaceLayout(_ prepared: PreparedLayout, revision: Int, hash: LayoutHash, message: String) -> JSONLinesBatch {
        publish()
        pipeline.replaceLayout(prepared, revision: revision, hash: hash, message: message, at: clock())
        return take()
    }

    /// What a new layout's recognizers are made with now (``PreparedLayout/Basis``).
    public var layoutBasis: PreparedLayout.Basis { pipeline.basis }

    /// What a new layout's recognizers would be made with on a screen of `rotation` and `size`.
    public func basis(rotation: ScreenRotation, size: Size) -> PreparedLayout.Basis {
        pipeline.basis(rotation: rotation, size: size)
    }

    /// The layout in force.
    public var tree: ViewTree { pipeline.tree }

    /// The stream's `warning`s for `messages` (clients the server dropped), returned instead
    /// of handed to the sink, for the same reason.
    public func encodeWarnings(_ messages: [String]) -> JSONLinesBatch {
        publish()
        for message in messages { pipeline.warn(message, at: clock()) }
        return take()
    }

    /// The screen touches that begin now are mapped onto (`status`).
    public var screen: ScreenGeometry { pipeline.screen }

    /// A new screen for touches that begin from now on (`screen.set`); returns the stream's
    /// `screen` event instead of handing it to the sink, as ``replaceLayout(_:revision:message:)``.
    public func setScreen(rotation: ScreenRotation, size: Size, message: String, prepared: PreparedLayout? = nil) -> JSONLinesBatch {
        publish()
        pipeline.setScreen(rotation: rotation, size: size, message: message, at: clock(), prepared: prepared)
        return take()
    }

    /// Hit-tests a point of the current layout without a touch.
    public func hitTest(_ point: Point) -> HitTestEvent {
        var event = pipeline.hitTest(point)
        event.time = currentTime
        return event
    }

    // MARK: - Device life

    private func attachIfPresent() throws(EvdevError) {
        guard source == nil, !isStopped, let opened = try provider.open() else { return }
        let classification = overrides.classify(opened.description, udevProperties: opened.udevProperties)
        do {
            try pipeline.addDevice(opened.description, udevProperties: opened.udevProperties,
                                   message: "reading \(opened.path) (\(classification.reason))", at: clock())
        } catch {
            throw .noMatchingDevice(selector: "\(opened.path) (\(opened.description.name))",
                                    detail: "it cannot be used: \(error.description)")
        }
        let token: EventLoop.Token
        do {
            // One screen reads and feeds in the handler itself, as before there were several.
            token = try turn == nil ? loop.watch(opened.fileDescriptor) { [unowned self] _ in readSource() }
                : loop.watch(opened.fileDescriptor) { [unowned self] _ in readForTurnAndSchedule() }
        } catch {
            throw .system(error)
        }
        source = opened
        sourceToken = token
        if makePanelCopy != nil { attachPanelCopy(for: opened) }
        timeClamp.startInput()
        nextTimeWarning = 1
        warnedEventsBack = 0
        logger.notice("reading the touchscreen", metadata: [
            "calibration": "\(pipeline.calibration?.summary ?? "none")", "kind": "\(classification.reason)",
            "name": "\(opened.description.name)", "path": "\(opened.path)",
        ])
        // Events may be waiting already (the finger was down when the device came back).
        readSource()
    }

    /// - Parameter lookAgainNow: after a removal another matching device may be there already;
    ///   after a read error, reopening at once could fail the same way forever, so the next
    ///   hotplug notification decides.
    private func detach(because message: String, lookAgainNow: Bool) {
        guard let current = source else { return }
        warnAboutTime(of: current, closing: true)
        pipeline.removeDevice(message: message, at: clock())
        if panelWriter?.copy != nil {
            // What ends the forwarded touches goes to the copy before it goes.
            publish()
            removePanelCopy(because: "the panel is gone")
        }
        timeClamp.raise(to: pipeline.currentTime)
        if let sourceToken { loop.unwatch(sourceToken) }
        sourceToken = nil
        source = nil
        logger.warning("the touchscreen is gone; its touches were cancelled", metadata: [
            "path": "\(current.path)", "reason": "\(message)",
        ])
        // It may be back already (a quick unplug and replug, or another device matches).
        if lookAgainNow { lookAgain() }
    }

    private func devicesChanged() {
        let changed: Bool
        do {
            changed = try provider.takeChanges()
        } catch {
            // The notifications are lost, not the devices: look again, as if one had come.
            logger.error("cannot read the device change notifications; looking for the touchscreen anyway",
                         metadata: ["error": "\(error)"])
            changed = true
        }
        guard changed, source == nil else { return }
        lookAgain()
        publish()
    }

    private func lookAgain() {
        do {
            try attachIfPresent()
        } catch {
            // Often transient (udev has not yet given the node its group): the next change
            // notification tries again.
            logger.error("cannot use the touchscreen yet; waiting for the next device change", metadata: ["error": "\(error)"])
        }
    }

    // MARK: - The virtual panel

    /// Makes the copy of the panel just opened. Routing needs the grab (without it the desktop
    /// reads the panel itself, and would get every touch twice), so an ungrabbed panel gets no
    /// copy. A copy that cannot be made is logged with its cause and fix, and gestured goes on
    /// serving its own clients; the next time the panel opens (a replug) it tries again.
    private func attachPanelCopy(for panel: any InputSource) {
        guard let makePanelCopy, let panelWriter else { return }
        guard panel.isGrabbed else {
            logger.error("""
                no virtual panel: routing forwards touches only from a grabbed panel; touches are not \
                forwarded to the desktop (set grab: true)
                """, metadata: ["path": "\(panel.path)"])
            return
        }
        do {
            let copy = try makePanelCopy(panel)
            panelWriter.copy = copy
            logger.notice("virtual panel created", metadata: [
                "copy": "\(copy.path)", "panel": "\(panel.path)", "name": "\(panel.description.name)",
            ])
        } catch {
            logger.error("no virtual panel: touches are not forwarded to the desktop; gestured serves its own clients",
                         metadata: ["error": "\(error)", "panel": "\(panel.path)"])
        }
    }

    private func removePanelCopy(because reason: String) {
        guard let panelWriter, let copy = panelWriter.copy else { return }
        panelWriter.copy = nil
        logger.notice("virtual panel removed", metadata: ["copy": "\(copy.path)", "reason": "\(reason)"])
    }

    // MARK: - Input and time

    /// The device can be read, in a daemon of several screens: read it for the turn.
    private func readForTurnAndSchedule() {
        readForTurn()
        turn?()
    }

    private func readSource() {
        guard !isStopped, let current = source else { return }
        // The input's batch is published at the end of this call, and no client can connect
        // before (one thread): without one there is no filter to build summaries for. Every
        // other batch (requests' replies, device changes) keeps them.
        stream.lines.keepsSummaries = sink.wantsSummaries
        defer { stream.lines.keepsSummaries = true }
        let (end, failure) = read(current)
        readings.withUnsafeBufferPointer { pipeline.feed(contentsOf: $0) }
        if panelCopyMode == .passThrough, let panelWriter, panelWriter.copy != nil, !readings.isEmpty {
            readings.withUnsafeBufferPointer { panelWriter.write($0) }
        }
        take(end, failure: failure, of: current)
        armDeadline()
        publish()
    }

    /// Reads what `current` has into `readings`, emptied first, with times that go back clamped
    /// (and warned about): how the read ended, and the error that ended it (then `.removed`).
    private func read(_ current: any InputSource) -> (end: ReadEnd, failure: EvdevError?) {
        readings.removeAll(keepingCapacity: true)
        let end: ReadEnd
        var failure: EvdevError?
        do {
            end = try current.readAvailable(into: &readings)
        } catch {
            failure = error
            end = .removed
        }
        let back = readings.withUnsafeMutableBufferPointer { timeClamp.clamp($0) }
        if back > 0 { warnAboutTime(of: current, closing: false) }
        return (end, failure)
    }

    /// How a read ended, taken after its events were fed: a resynchronisation, or a removal
    /// (`failure`: the read failed; the next hotplug notification decides, not a reopening now).
    @inline(__always)
    private func take(_ end: ReadEnd, failure: EvdevError?, of current: any InputSource) {
        switch end {
        case .drained:
            break
        case .resynchronised(let snapshot, let time):
            pipeline.resynchronise(with: snapshot, at: time)
            timeClamp.raise(to: pipeline.currentTime)
        case .removed:
            detach(because: failure.map { "\(current.path) could not be read: \($0); waiting for it to be plugged in again" }
                ?? "\(current.path) was removed; every touch on it was cancelled",
                   lookAgainNow: failure == nil)
        }
    }

    /// The timer went off: this runner's deadlines, or the daemon's turn for every screen.
    private func deadlineFired() {
        armed = nil
        if let turn { turn() } else { deadlineReached() }
    }

    private func deadlineReached() {
        // Input stamped before the deadline may still be unread (the loop was busy): take it
        // first, so frames and deadlines go to the pipeline in input-time order, as in replay.
        if source != nil { readSource() }
        // One deadline at a time, so that the clamp knows each time the engine was given.
        let now = clock()
        while let deadline = pipeline.nextDeadline, deadline <= now {
            pipeline.advance(to: deadline)
            timeClamp.raise(to: deadline)
        }
        armDeadline()
        publish()
    }

    /// The device's events went back in its own time: a warning (an event in the stream and a
    /// log line) at the 1st such event, the 10th, the 100th, …, and when the device goes
    /// (`closing`) if some went back since the last one; never one per event.
    private func warnAboutTime(of device: any InputSource, closing: Bool) {
        let count = timeClamp.eventsBack
        guard closing ? count > warnedEventsBack : count >= nextTimeWarning else { return }
        let name = "device \"\(device.description.name)\" (\(device.path))"
        let back = "\(count) event\(count == 1 ? " was" : "s were") stamped before an earlier one (in "
            + "\(timeClamp.stepsBack) place\(timeClamp.stepsBack == 1 ? "" : "s"), at most \(timeClamp.furthestBack.microseconds) µs)"
        let message = if warnedEventsBack == 0 {
            "kernel bug: \(name): \(back); an event earlier than the one before it is processed at that event's time, so "
                + "that no gesture sees time go backwards (a driver that stamps events with its hardware's clock, or a "
                + "program writing to uinput, can send such times); counted again at the 10th, 100th, … and when the "
                + "device goes"
        } else {
            "kernel bug: \(name): \(closing ? "in all" : "so far"), \(back); each was processed at the time of the event "
                + "before it"
        }
        warnedEventsBack = count
        while nextTimeWarning <= count {
            let (next, overflow) = nextTimeWarning.multipliedReportingOverflow(by: 10)
            nextTimeWarning = overflow ? .max : next
            if overflow { break }
        }
        pipeline.warn(message)
        logger.warning("input device time went backwards", metadata: ["notice": "\(message)"])
    }

    /// Arms the loop's timer for the pipeline's next deadline, unless it already is.
    private func armDeadline() {
        guard !isStopped, pipeline.nextDeadline != armed else { return }
        armed = pipeline.nextDeadline
        setDeadline(armed?.microseconds)
    }

    /// Arms this runner's deadline: the loop's own, or this screen's timer.
    private func setDeadline(_ microseconds: Int64?) {
        if let timer {
            timer.arm(at: microseconds)
        } else {
            loop.setDeadline(microseconds) { [unowned self] in deadlineFired() }
        }
    }

    // MARK: - A turn of several screens (``LiveScreens``)

    /// Reads what the device has (clamped in time, as ``readSource()`` does) without feeding
    /// it, for the turn that follows.
    private func readForTurn() {
        guard !isStopped, let current = source, !readInTurn else { return }
        readInTurn = true
        // What the runner fed itself when the panel opened (``readSource()``) is not this turn's.
        turnCursor = 0
        (turnEnd, turnFailure) = read(current)
    }

    /// When this screen's next step comes in input time: a deadline due before its next event
    /// read, else that event; with every event read fed, a deadline due by `now`; nil when
    /// there is nothing to do before the next turn. As ``Replayer/nextStepTime``.
    func nextTurnStep(now: Timestamp) -> Timestamp? {
        guard !isStopped else { return nil }
        let deadline = pipeline.nextDeadline
        // Only what this turn read: `readings` also holds what the runner fed itself when the
        // panel opened (``readSource()``).
        if readInTurn, turnCursor < readings.count {
            let time = readings[turnCursor].time
            if let deadline, deadline < time { return deadline }
            return time
        }
        if let deadline, deadline <= now { return deadline }
        return nil
    }

    /// Takes the step ``nextTurnStep(now:)`` gave `time` for: the deadline due then, or the
    /// events read that are stamped `time` (a frame's, normally: a device stamps one frame's
    /// events alike), then hands the records to the one stream, named by this screen.
    func takeTurnStep(at time: Timestamp) {
        if readInTurn, turnCursor < readings.count, readings[turnCursor].time <= time {
            let start = turnCursor
            while turnCursor < readings.count && readings[turnCursor].time <= time { turnCursor += 1 }
            readings.withUnsafeBufferPointer { pipeline.feed(contentsOf: UnsafeBufferPointer(rebasing: $0[start..<turnCursor])) }
        } else {
            pipeline.advance(to: time)
            timeClamp.raise(to: time)
        }
        drain()
    }

    /// The time of the last event read for the turn (nil: none was read).
    var lastTimeRead: Timestamp? { readInTurn ? readings.last?.time : nil }

    /// The end of a turn for this screen: the copy written in pass-through mode, the read's
    /// end (a resynchronisation, a removal) taken, the deadline armed. The turn publishes.
    func finishTurn() {
        guard readInTurn else { return }
        readInTurn = false
        defer {
            readings.removeAll(keepingCapacity: true)
            turnCursor = 0
        }
        guard !isStopped, let current = source else { return }
        if panelCopyMode == .passThrough, let panelWriter, panelWriter.copy != nil, !readings.isEmpty {
            readings.withUnsafeBufferPointer { panelWriter.write($0) }
        }
        let (end, failure) = (turnEnd, turnFailure)
        turnEnd = .drained
        turnFailure = nil
        take(end, failure: failure, of: current)
        drain()
    }

    /// Arms this screen's deadline and hands the one stream's batch to the sink (the first
    /// screen's call publishes every screen's lines; each logs its own notices).
    func publishTurn() {
        armDeadline()
        publish()
    }

    /// Hands the pipeline's records to every record sink, in order (the JSON Lines first, then
    /// the virtual panel's writer and the caller's sinks), and empties them; what the pipeline
    /// let go of goes with the lines, for the event sink to release off the loop.
    private func drain() {
        guard !pipeline.records.isEmpty else { return }
        stream.lines.screen = screenID
        stream.lines.consume(pipeline.records)
        // The virtual panel takes the panel's frames only, read in place: handing it the batch
        // through the sink protocol copied the batch's references every wake-up, which was all
        // that a copy with nothing forwarded cost (docs/performance.md, "The virtual panel's
        // existence").
        if let panelWriter, panelWriter.writesRecords, !pipeline.records.panel.isEmpty {
            pipeline.records.panel.withUnsafeBufferPointer { panelWriter.write($0) }
        }
        for index in recordSinks.indices { recordSinks[index].consume(pipeline.records) }
        if !pipeline.records.released.isEmpty { stream.lines.batch.released.add(contentsOf: pipeline.takeReleased()) }
        pipeline.removeRecords()
    }

    /// What the pipeline produced since the last batch, its lines taken out of the sink.
    private func take() -> JSONLinesBatch {
        drain()
        var taken = JSONLinesBatch()
        swap(&taken, &stream.lines.batch)
        return taken
    }

    /// Hands the batch to the sinks, once per wake-up. The lines are swapped out first: what
    /// the event sink does in turn (a client's request, a stop) starts the next batch.
    private func publish() {
        if !pipeline.notices.isEmpty {
            for notice in pipeline.takeNotices() { logger.warning("input device warning", metadata: ["notice": "\(notice)"]) }
        }
        drain()
        guard !stream.lines.batch.isEmpty else { return }
        // The batch goes out from a local: no access to a property spans the sink's call (which
        // could come back here), so `spare` needs no dynamic exclusivity check. Were it to come
        // back, the inner call would find no spare and start empty buffers: nothing lost.
        var batch = JSONLinesBatch.placeholder
        swap(&batch, &stream.spare)
        swap(&batch, &stream.lines.batch)
        if !batch.released.isEmpty { sink.release(&batch.released) }
        sink.publish(batch)
        batch.removeAll()
        stream.spare = batch
    }
}

@available(*, unavailable, message: "a LiveRunner lives on its event loop's thread")
extension LiveRunner: Sendable {}

/// The daemon's one JSON Lines stream (one ``JSONLinesSink``, so one `seq`), shared by the
/// runners of all its screens on one loop; each runner sets the sink's screen before handing
/// it its pipeline's records. A runner's cost per frame does not depend on how many others
/// share it.
public final class StreamLines {
    /// Unchecked exclusivity: every runner that shares it lives on the one loop's thread and
    /// no access spans a call that could come back (see ``LiveRunner``'s `publish()`).
    @exclusivity(unchecked) var lines: JSONLinesSink
    /// The other output buffer (see ``LiveRunner``'s `publish()`).
    @exclusivity(unchecked) var spare = JSONLinesBatch()

    public init(writesRoutes: Bool) {
        lines = JSONLinesSink(writesRoutes: writesRoutes, keepsSummaries: true, keepsLines: true)
    }
}

@available(*, unavailable, message: "a StreamLines lives on its event loop's thread")
extension StreamLines: Sendable {}

/// Makes the virtual panel of a panel just opened and grabbed (``VirtualPanel``, or a stand-in
/// in tests).
public typealias PanelCopyFactory = (any InputSource) throws(VirtualPanelError) -> any PanelCopyOutput

/// What the runner writes to the virtual panel.
public enum PanelCopyMode: Sendable {
    /// The pipeline's ``PipelineRecords/panel``: the touches routing forwards.
    case routed
    /// Every event read, as read, whatever routing decides: for the kernel tests and for
    /// measuring the hop (docs/routing.md, "Times"); turned on by `GESTURED_DEBUG_PANEL_COPY=pass-through`.
    case passThrough
}

extension LiveRunner {
    /// The factory of the real copy: a ``VirtualPanel`` of the panel's description (as the
    /// forwarded stream speaks it) named after its physical path, after writing the panel's
    /// udev properties for the package's rule to `propertiesFile` (``PanelCopyProperties``).
    /// A properties file that cannot be written is logged (the copy then lacks the panel's
    /// calibration and output) and the copy made all the same.
    public static func virtualPanel(propertiesFile: String = PanelCopyProperties.defaultFile,
                                    logger: Logger) -> PanelCopyFactory {
        { (panel: any InputSource) throws(VirtualPanelError) -> any PanelCopyOutput in
            let (text, skipped) = PanelCopyProperties.contents(from: panel.udevProperties)
            if !skipped.isEmpty {
                logger.warning("""
                    the virtual panel does not get some of the panel's udev properties: their values cannot \
                    be written in a udev file
                    """, metadata: ["properties": "\(skipped.joined(separator: ", "))"])
            }
            do {
                try PanelCopyProperties.write(text, to: propertiesFile)
            } catch {
                if !text.isEmpty {
                    logger.warning("""
                        the virtual panel does not get the panel's udev properties (calibration, output): run \
                        gestured as the package's service (RuntimeDirectory=gestured) or make the file's directory \
                        writable
                        """, metadata: ["error": "\(error)"])
                }
            }
            // The copy speaks the forwarded stream: a protocol A panel's is the converted one.
            var forwarded = panel.description
            if case .protocolA = DeviceClassification(forwarded).contactProtocol {
                forwarded = ProtocolAConverter.convertedDescription(of: forwarded)
            }
            return try VirtualPanel(copying: forwarded, udevProperties: panel.udevProperties, panelPhys: panel.phys)
        }
    }
}
