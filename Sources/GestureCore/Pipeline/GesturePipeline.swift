/// What a pipeline runs on: the layout, the settings, the screen and what the configuration
/// says about the device.
public struct PipelineSetup: Sendable {
    public var tree: ViewTree
    public var settings: GestureSettings
    public var screen: ScreenGeometry
    /// The configuration's `device.type` and `device.axes`.
    public var device: DeviceOverrides
    /// The configuration's `routing` (docs/routing.md); nil: touches are not routed.
    public var routing: RoutingConfiguration?

    public init(tree: ViewTree, settings: GestureSettings, screen: ScreenGeometry, device: DeviceOverrides = .none,
                routing: RoutingConfiguration? = nil) {
        (self.tree, self.settings, self.screen, self.device, self.routing) = (tree, settings, screen, device, routing)
    }
}

/// The whole of gestured between a device and a client, as one pure value (keyd's shape):
/// timestamped raw events and the few other things that happen to a running daemon go in —
/// a device added or removed, a resynchronisation after `SYN_DROPPED`, a layout replaced, a
/// new screen, a warning, "advance to T", "the input ends" — and what it decided comes out as
/// typed records (``records``: the engine's events, the edges' events, the route decisions,
/// the virtual panel's frames), with the next deadline at which time must be advanced. It knows
/// no JSON, no `seq` and none of its consumers: those are sinks (``RecordSink``).
///
/// Live input, replay to stdout and replay to socket subscribers are thin drivers around this
/// one value: each reads input or a clock, calls the pipeline, and hands ``records`` to the
/// sinks it composed. No ordering rule is written anywhere else; the order of one frame is
/// ``feed(_:)``.
///
/// Time only moves forward: every input's time is clamped to the latest time seen, so a late
/// clock reading (a removal noticed after the last frame was stamped) never goes back.
public struct GesturePipeline {
    /// How the pipeline runs.
    public struct Options: Sendable {
        /// Emit `hitTest` events and `failed` gesture transitions (`--trace`).
        public var tracing: Bool
        /// Emit a `contacts` event after every frame that changed a contact (`--contacts`).
        public var listsContacts: Bool

        public init(tracing: Bool = false, listsContacts: Bool = false) {
            (self.tracing, self.listsContacts) = (tracing, listsContacts)
        }
    }

    /// The records produced since the driver last emptied them (``removeRecords()``), in order.
    public private(set) var records = PipelineRecords()
    /// The latest input time seen: "now" for the inputs that carry no time of their own.
    public private(set) var currentTime: Timestamp
    /// Touch frames the engine processed.
    public private(set) var frameCount = 0
    /// The current device as it declared itself, `nil` while there is none.
    public private(set) var device: DeviceDescription?
    /// The screen touches that begin now are mapped onto: the configuration's, or the last
    /// `screen.set`'s. Its calibration is the configuration's (nil when it sets none).
    public private(set) var screen: ScreenGeometry
    /// The current device's calibration and where it came from; nil while there is no device.
    public private(set) var calibration: DeviceCalibration?
    /// What the operator should read about the device (position axes that never move, udev's
    /// calibration ignored): each also went out as a `warning` event; the driver logs them.
    public private(set) var notices: [String] = []

    private var engine: Engine
    private var input: InputStage?
    private let overrides: DeviceOverrides
    /// The configuration's settings, distances in millimetres not yet converted.
    private let settings: GestureSettings
    private let makeConverter: RawEventConverterFactory?
    private var reportedRecognizerAnomalies = 0
    /// A routing stage runs (in the input stage: a device is read and the configuration
    /// routes touches); asked once per frame, never per event.
    private var routesTouches = false

    /// - Parameters:
    ///   - start: the input time the stream starts at.
    ///   - makeConverter: the protocol A converter (libmtdev) for devices that need one.
    public init(setup: PipelineSetup, options: Options = Options(), start: Timestamp = .zero,
                makeConverter: RawEventConverterFactory? = nil) {
        screen = setup.screen
        overrides = setup.device
        settings = setup.settings
        self.makeConverter = makeConverter
        currentTime = start
        engine = Engine(tree: setup.tree, settings: setup.settings, screen: setup.screen.bounds, tracing: options.tracing,
                        routing: setup.routing)
        engine.listsContacts = options.listsContacts
    }

    // MARK: - Inputs

    /// One raw event of the current device. The order of one frame, for the whole product:
    /// 1. the event goes through the device's converter (protocol A) and the contact tracker,
    ///    which cuts frames at `SYN_REPORT` and maps device values to screen points (docs/configuration.md,
    /// "`screen`: from the panel to points");
    /// 2. a frame it completes goes to the engine (``Engine/process(_:into:)``): deadlines due
    ///    by its time fire first, then hit tests, recognizers and arbitration, deliveries;
    /// 3. the engine appends the frame's events to ``records`` (and its route decisions, with
    ///    routing);
    /// 4. with routing, the routing stage (``PanelRouter``, which saw the frame's events in
    ///    the input stage) takes the engine's route decisions and writes the virtual panel's
    ///    share of the frame into ``PipelineRecords/panel``;
    /// 5. anomalies the frame revealed follow as `warning` events: the kernel's or device's
    ///    (input, and position axes that never move, at any frame's end) and gestured's own (a
    ///    recognizer given an impossible input).
    public mutating func feed(_ event: RawEvent) {
        feedInline(event)
    }

    /// Raw events in order, exactly as ``feed(_:)`` one at a time: the live driver's batch
    /// from one read. The common event, a value within a frame, then costs no call.
    public mutating func feed(contentsOf events: UnsafeBufferPointer<RawEvent>) {
        for event in events { feedInline(event) }
    }

    /// Hands the engine's route decisions to the router, and records them.
    private mutating func applyRoutes() {
        guard !engine.routeChanges.isEmpty else { return }
        let start = records.panel.count
        input?.applyRoutes(engine.routeChanges, into: &records.panel)
        records.append(routeChanges: engine.routeChanges)
        records.panelFramesWritten(from: start)
        engine.removeRouteChanges()
    }

    /// The routing stage writes the frame that just ended, the engine having decided it.
    private mutating func commitRoutedFrame(at time: Timestamp) {
        let start = records.panel.count
        input?.commitRoutedFrame(at: time, into: &records.panel)
        if records.panel.count > start { records.panelFramesWritten(from: start) }
    }

    @inline(__always)
    private mutating func feedInline(_ event: RawEvent) {
        // Optional chaining mutates the stage in place: a copy would copy its slot tables.
        guard let frame = input?.feed(event) ?? nil else {
            // A frame that moved no contact can still complete the evidence of axes that never move.
            if event.isFrameEnd { frameEndedEmpty(at: event.time) }
            return
        }
        process(frame)
    }

    @inline(never)
    private mutating func frameEndedEmpty(at time: Timestamp) {
        if routesTouches { commitRoutedFrame(at: time) }
        if let warning = input?.takeAxisWarning() {
            currentTime = max(currentTime, time)
            notice(warning)
        }
    }

    /// A frame the input stage completed: the engine, then its events and anomalies.
    @inline(never)
    private mutating func process(_ frame: TouchFrame) {
        currentTime = max(currentTime, frame.time)
        complete(frame, routedAt: frame.time)
    }

    /// The stages after the input stage, in order, for a frame (or none: a resynchronisation
    /// that changed no touch still routes, collects and reports): the engine and its
    /// `contacts`, the routes committed at `time`, the released touches, the anomalies.
    @inline(__always)
    private mutating func complete(_ frame: TouchFrame?, routedAt time: Timestamp) {
        if let frame {
            engine.process(frame, into: &records.engineEvents)
            if engine.listsContacts { emitContacts() }
            nextDeadline = engine.nextDeadline
            frameCount += 1
        }
        if routesTouches {
            applyRoutes()
            commitRoutedFrame(at: time)
        }
        collectReleased()
        reportAnomalies()
    }

    /// Time passed with no input: deadlines due by `time` fire (a tap's interval, a long
    /// press's duration).
    public mutating func advance(to time: Timestamp) {
        guard let deadline = nextDeadline, deadline <= time else { return }
        currentTime = max(currentTime, time)
        engine.advance(to: currentTime, into: &records.engineEvents)
        nextDeadline = engine.nextDeadline
        if routesTouches { applyRoutes() }
        collectReleased()
    }

    /// A device to read from: its frames are mapped through the configuration's `device.axes`
    /// onto the screen, with the configuration's calibration, else the one udev gives the
    /// device (`udevProperties`, its database entry: `LIBINPUT_CALIBRATION_MATRIX`, docs/configuration.md,
    /// "`screen`: from the panel to points"); distances given in millimetres are converted with its
    /// resolution. Throws when the device cannot be used (no axis ranges, configured axes it lacks, a
    /// protocol A device without converter, millimetres without a resolution). A device with more slots than
    /// ``ContactTracker/maximumSlots`` gets a warning after its `added` event.
    public mutating func addDevice(_ description: DeviceDescription, udevProperties: [String: String]? = nil,
                                   message: String, at time: Timestamp) throws(PipelineError) {
        let calibration = DeviceCalibration(configured: screen.calibration, udevProperties: udevProperties)
        let stage = try InputStage(description: description, screen: mappedScreen(screen, calibration),
                                   axes: overrides.axes, makeConverter: makeConverter)
        let resolved = try settings(for: stage.mapping, device: description.name)
        input = stage
        device = description
        self.calibration = calibration
        currentTime = max(currentTime, time)
        engine.reconfigure(settings: resolved, screen: screen.bounds)
        nextDeadline = engine.nextDeadline
        collectReleased()
        let said = calibration.source == .udev ? message + "; calibration \(calibration.summary)" : message
        emit(.device(time: currentTime, action: "added", name: description.name, message: said))
        if let ignored = calibration.ignoredUdevValue { notice("device \"\(description.name)\": \(ignored)") }
        if let declared = description.slotCount, declared > ContactTracker.maximumSlots {
            emit(.warning(time: currentTime,
                          message: "device \"\(description.name)\" " + ContactTracker.slotLimitMessage(declared: declared)))
        }
        startRouting(stage: stage, panel: description)
    }

    /// The routing stage for a new device: it reads the panel's events as read, or a protocol
    /// A panel's converted stream (the copy then speaks protocol B, as the converter does).
    private mutating func startRouting(stage: InputStage, panel: DeviceDescription) {
        routesTouches = false
        copySource = nil
        guard engine.routing != nil else { return }
        engine.pointsPerMillimetre = stage.mapping.pointsPerMillimetre
        let converts = stage.converts
        let source = converts ? stage.description : panel
        guard let made = PanelRouter(stream: source) else {
            notice("device \"\(panel.name)\": routing needs a multitouch panel (ABS_MT_TRACKING_ID); this one has none, "
                + "so no touch reaches the virtual panel: every touch is gestured's alone")
            return
        }
        input?.startRouting(made)
        routesTouches = true
        copySource = source
    }

    /// The device the virtual panel copies, as its stream speaks (the panel's own description,
    /// or a protocol A panel's converted one): give it to
    /// ``PanelCopy/description(of:udevProperties:)``. Nil unless touches are routed.
    public private(set) var copySource: DeviceDescription?

    /// Touches down whose route is `route` (docs/routing.md); 0 when touches are not routed.
    public func touchCount(route: Route) -> Int {
        engine.touchCount(route: route)
    }

    /// Touches the routing stage keeps because they may still reach the virtual panel
    /// (forwarded and held ones; never a claimed one): for tests.
    var routedTouchCount: Int { input?.router.keptTouchCount ?? 0 }

    /// The configuration's routing, nil when touches are not routed.
    public var routing: RoutingConfiguration? { engine.routing }

    /// Touches down per route; nil when touches are not routed.
    public var routeCounts: RouteCounts? {
        guard engine.routing != nil else { return nil }
        return RouteCounts(claimed: engine.touchCount(route: .claimed), forwarded: engine.touchCount(route: .forwarded),
                           held: engine.touchCount(route: .held))
    }

    /// A new screen for touches that begin from now on (`screen.set`, docs/protocol.md, "The screen"): the
    /// panel's rotation, and the size in points. Touches already down keep the screen they began on
    /// (their mapping) and their recognizers; edge pans and distances in millimetres follow
    /// the new size. The stream announces it.
    /// `prepared` is the layout in force prepared off the driver's loop for
    /// ``basis(rotation:size:)``; one prepared for another tree or basis is made again here.
    public mutating func setScreen(rotation: ScreenRotation, size: Size, message: String, at time: Timestamp,
                                   prepared: PreparedLayout? = nil) {
        currentTime = max(currentTime, time)
        screen.rotation = rotation
        screen.size = size
        if let calibration {
            let mapped = mappedScreen(screen, calibration)
            input?.setScreen(mapped)
            // Holds that begin from now on measure millimetres on the new screen.
            if engine.routing != nil { engine.pointsPerMillimetre = input?.mapping.pointsPerMillimetre }
        }
        let resolved = resolvedSettings(for: screen)
        engine.reconfigure(settings: resolved, screen: screen.bounds, prepared: prepared)
        nextDeadline = engine.nextDeadline
        emit(.screen(time: currentTime, screen: screen, message: message))
        collectReleased()
    }

    /// What the layout's recognizers would be made with after ``setScreen(rotation:size:message:at:prepared:)``
    /// with `rotation` and `size`: the screen's bounds, and the settings with distances in
    /// millimetres converted for the device's mapping onto it.
    public func basis(rotation: ScreenRotation, size: Size) -> PreparedLayout.Basis {
        var screen = self.screen
        screen.rotation = rotation
        screen.size = size
        return PreparedLayout.Basis(settings: resolvedSettings(for: screen), screen: screen.bounds)
    }

    /// The engine's settings for `screen`: converted again for the device's mapping onto it
    /// when there is a device (unchanged when they cannot be).
    private func resolvedSettings(for screen: ScreenGeometry) -> GestureSettings {
        guard let calibration, var mapping = input?.mapping else { return engine.settings }
        mapping.screen = mappedScreen(screen, calibration)
        return (try? settings(for: mapping, device: device?.name ?? "")) ?? engine.settings
    }

    /// The screen a device's contacts are mapped onto: `screen` with the calibration in force.
    private func mappedScreen(_ screen: ScreenGeometry, _ calibration: DeviceCalibration) -> ScreenGeometry {
        var mapped = screen
        mapped.calibration = calibration.source == .none ? nil : calibration.matrix
        return mapped
    }

    /// The configuration's settings with distances in millimetres converted for `mapping`.
    private func settings(for mapping: DeviceMapping, device: String) throws(PipelineError) -> GestureSettings {
        guard !settings.millimetres.isEmpty else { return settings }
        guard let pointsPerMillimetre = mapping.pointsPerMillimetre else {
            let keys = settings.millimetres.entries.map(\.key)
            throw .unusableDevice("\(keys.joined(separator: ", ")) \(keys.count == 1 ? "is" : "are") given in millimetres, "
                + "but device \"\(device)\" reports no resolution (units per millimetre) for its position axes; give it as "
                + "device.axes: { x: { resolution: … }, y: { resolution: … } }, or state the distances in points")
        }
        return settings.inPoints(pointsPerMillimetre: pointsPerMillimetre)
    }

    /// The kernel dropped events (`SYN_DROPPED`): the touches are reconciled with the device's
    /// state read back (`snapshot`), lost ones cancelled, and the stream says so first.
    public mutating func resynchronise(with snapshot: DeviceSnapshot?, at time: Timestamp) {
        guard input != nil, let device else { return }
        currentTime = max(currentTime, time)
        let before = engine.activeTouchCount
        let start = records.panel.count
        let frame = input?.resynchronise(with: snapshot, at: currentTime, panel: &records.panel) ?? nil
        records.panelFramesWritten(from: start)
        let cancelled = frame?.changes.count(where: { if case .cancel = $0 { true } else { false } }) ?? 0
        emit(.device(time: currentTime, action: "resynchronised", name: device.name,
                     message: "the kernel dropped events (SYN_DROPPED) because they were not read fast enough; "
                        + "resynchronised with the device: \(cancelled) of \(before) touches cancelled"))
        complete(frame, routedAt: currentTime)
    }

    /// The input ends (a recording's end, the daemon stopping, a device gone): a half frame is
    /// discarded, and every touch still down is cancelled. Deadlines still pending stay, for
    /// the driver to fire or not.
    public mutating func finish(at time: Timestamp) {
        currentTime = max(currentTime, time)
        if input != nil {
            let start = records.panel.count
            input?.loseRoutedTouches(at: currentTime, into: &records.panel)
            records.panelFramesWritten(from: start)
            if let frame = input?.finish(at: currentTime) ?? nil {
                engine.process(frame, into: &records.engineEvents)
                if engine.listsContacts { emitContacts() }
                if routesTouches { applyRoutes() }
                collectReleased()
            }
            if routesTouches { commitRoutedFrame(at: currentTime) }
            reportAnomalies()
        }
        engine.cancelAll(at: currentTime, into: &records.engineEvents)
        if engine.listsContacts { emitContacts() }
        nextDeadline = engine.nextDeadline
        if routesTouches { applyRoutes() }
        collectReleased()
    }

    /// The device went away (unplugged, unreadable): the input ends, then the stream says why.
    public mutating func removeDevice(message: String, at time: Timestamp) {
        guard let device else { return }
        finish(at: time)
        input = nil
        routesTouches = false
        copySource = nil
        self.device = nil
        calibration = nil
        emit(.device(time: currentTime, action: "removed", name: device.name, message: message))
    }

    /// A new layout between two frames (`layout.set`, `view.update`, reload); touches already
    /// down keep their views (docs/protocol.md, "Changing the layout"). The stream announces it as revision
    /// `revision` with its ``LayoutHash`` `hash` (of the description the tree was made from).
    public mutating func replaceLayout(_ tree: ViewTree, revision: Int, hash: LayoutHash, message: String, at time: Timestamp) {
        replaceLayout(PreparedLayout(tree: tree, basis: engine.basis), revision: revision, hash: hash, message: message, at: time)
    }

    /// ``replaceLayout(_:revision:hash:message:at:)`` with the layout's recognizers prepared for
    /// ``basis`` elsewhere (off the driver's loop); one prepared for a basis that changed since
    /// is made again here, with the same result.
    public mutating func replaceLayout(_ prepared: PreparedLayout, revision: Int, hash: LayoutHash, message: String,
                                       at time: Timestamp) {
        currentTime = max(currentTime, time)
        // What the replacement sets off (deadlines due, recognizers it disables) comes first.
        engine.replaceLayout(prepared, at: currentTime, into: &records.engineEvents)
        nextDeadline = engine.nextDeadline
        if routesTouches { applyRoutes() }
        emit(.layout(time: currentTime, revision: revision, hash: hash, message: message))
        collectReleased()
    }

    /// What a layout's recognizers are made with now (``PreparedLayout/Basis``): changed by
    /// a device's resolution (millimetres), `screen.set`.
    public var basis: PreparedLayout.Basis { engine.basis }

    /// Moves what the engine let go of into ``records``, for the driver to release.
    private mutating func collectReleased() {
        if engine.hasReleased { records.addReleased(engine.takeReleased()) }
    }

    /// What the engine let go of since the driver last took it (a dropped layout's
    /// recognizers, a replaced tree), taken out of ``records``: a driver with an event loop
    /// hands it to another thread (``ReleasedStorage``) before it empties the records.
    public mutating func takeReleased() -> ReleasedStorage {
        records.takeReleased()
    }

    /// Forgets the records, every sink having consumed them; keeps their storage.
    public mutating func removeRecords() {
        records.removeAll()
    }

    /// A warning for the stream (a reader's skipped line, a slow client dropped).
    public mutating func warn(_ message: String, at time: Timestamp? = nil) {
        if let time { currentTime = max(currentTime, time) }
        emit(.warning(time: currentTime, message: message))
    }

    /// The notices not yet taken (for the driver's log), forgotten.
    public mutating func takeNotices() -> [String] {
        defer { notices.removeAll() }
        return notices
    }

    /// A warning for the stream that the operator must also read in the log.
    private mutating func notice(_ message: String) {
        notices.append(message)
        emit(.warning(time: currentTime, message: message))
    }

    // MARK: - Queries

    /// The next time at which ``advance(to:)`` is needed; `nil` when none. Stored, and
    /// brought up to date after every input that reached the engine, because drivers ask for it
    /// before every raw event and the engine's answer walks every recognizer.
    public private(set) var nextDeadline: Timestamp?

    /// Touches the engine still tracks.
    public var activeTouchCount: Int { engine.activeTouchCount }

    /// The current layout.
    public var tree: ViewTree { engine.tree }

    /// Hit-test traces and failed transitions, switched between inputs.
    public var tracing: Bool {
        get { engine.tracing }
        set { engine.tracing = newValue }
    }

    /// Every finger down listed after each frame that changed a contact, as a `contacts`
    /// event (docs/events.md), switched between inputs: on while a subscriber asks.
    public var listsContacts: Bool {
        get { engine.listsContacts }
        set { engine.listsContacts = newValue }
    }

    /// Hit-tests a point of the current layout without a touch (the socket's `hitTest`).
    public func hitTest(_ point: Point) -> HitTestEvent {
        engine.hitTest(point, at: currentTime)
    }

    // MARK: - Output

    private mutating func emit(_ event: OutputEvent) {
        records.append(edge: event)
    }

    /// The contacts the engine listed for the frame it just processed, after the frame's events.
    @inline(never)
    private mutating func emitContacts() {
        if let contacts = engine.takeContacts() { emit(.contacts(contacts)) }
    }

    /// Anomalies say who is at fault: the input's name the kernel or the device; a recognizer
    /// given an impossible input is gestured's own bug.
    private mutating func reportAnomalies() {
        for anomaly in input?.takeAnomalies() ?? [] {
            emit(.warning(time: currentTime, message: anomaly.description))
        }
        if let warning = input?.takeAxisWarning() { notice(warning) }
        let recognizerAnomalies = engine.recognizerAnomalies
        if recognizerAnomalies != reportedRecognizerAnomalies {
            let count = recognizerAnomalies - reportedRecognizerAnomalies
            reportedRecognizerAnomalies = recognizerAnomalies
            emit(.warning(time: currentTime, message: "gestured bug: a recognizer was given \(count) impossible "
                          + "input(s) and ignored them; please report this with a recording (gestured record)"))
        }
    }
}
