/// Raw events → touch frames, the same for every device and for replay: the configuration's
/// `device.axes` first put the position on the axes gestured reads (``AxisRemap``), a protocol
/// A device's events then go through its converter (``RawEventConverter``), and the
/// ``ContactTracker`` cuts frames at `SYN_REPORT`, follows slots and maps device values to
/// screen points. Beside them, ``AxisActivityMonitor`` watches for position axes that never
/// move.
struct InputStage {
    /// The device as the tracker sees it (after the axes are remapped and protocol A converted).
    let description: DeviceDescription
    private let remapped: DeviceDescription
    private let remap: AxisRemap?
    private var tracker: ContactTracker
    private var converter: (any RawEventConverter)?
    private let makeConverter: RawEventConverterFactory?
    private var converted: [RawEvent] = []
    /// No remap and no converter: events go to the tracker as they are. (`converter` is only
    /// ever replaced by a fresh one, never removed or added, so this holds for the stage's life.)
    private let passesThrough: Bool
    /// `passesThrough` once the monitor is done: one test per event on the common path,
    /// whether touches are routed or not.
    private var direct = false
    private var monitor: AxisActivityMonitor
    /// The monitor's warning, until the pipeline takes it.
    private var axisWarning: String?
    /// The routing stage (docs/routing.md), when touches are routed. It reads the panel's
    /// values from the tracker, which keeps them for it (a protocol A device's as converted),
    /// so a raw event costs the same whether touches are routed or not; only a device whose
    /// `device.axes` rewrite its events has them kept as read in `observed`.
    private(set) var router = PanelRouter()
    /// ``router`` routes this device's touches (``startRouting(_:)``).
    private(set) var routes = false
    /// The panel's events as read, before `device.axes` rewrite them: the router's values
    /// for such a device (nil for every other).
    private var observed: ObservedPanel?
    /// `observed != nil`, kept apart: testing the optional copies the table (retains and
    /// releases its arrays) on every frame.
    private var keepsOwnTable = false

    /// The router routes this device's touches from now on.
    mutating func startRouting(_ router: PanelRouter) {
        self.router = router
        routes = true
        if remap != nil && converter == nil {
            observed = ObservedPanel(slotCount: router.slotCount)
            keepsOwnTable = true
        } else {
            tracker.keepPanelValues()
        }
    }

    /// Applies the engine's route decisions (``PanelRouter/apply(_:values:into:)``).
    mutating func applyRoutes(_ changes: [RouteChange], into out: inout [RawEvent]) {
        if keepsOwnTable {
            router.apply(changes, values: &observed!, into: &out)
        } else {
            router.apply(changes, values: &tracker, into: &out)
        }
    }

    /// The routing stage writes the frame that ended at `time`, the engine having decided it.
    @inline(__always)
    mutating func commitRoutedFrame(at time: Timestamp, into out: inout [RawEvent]) {
        if keepsOwnTable {
            router.commit(at: time, msc: observed!.msc, values: &observed!, into: &out)
            observed!.commit()
        } else {
            router.commit(at: time, msc: tracker.frameMsc, values: &tracker, into: &out)
            tracker.frameMsc = nil
        }
    }

    /// Every contact is lost at once (the input's end): forwarded touches lift on the copy.
    mutating func loseRoutedTouches(at time: Timestamp, into out: inout [RawEvent]) {
        router.loseEveryTouch(at: time, into: &out)
    }

    /// Whether a converter (libmtdev, protocol A) rewrites the device's events.
    var converts: Bool { converter != nil }

    /// - Parameters:
    ///   - description: what the device declares (axis ranges, codes, properties).
    ///   - screen: the screen and the panel's rotation and calibration (docs/configuration.md, "`screen`:
    /// from the panel to points").
    ///   - axes: the configuration's `device.axes`: other axes, ranges or resolutions.
    ///   - makeConverter: for a protocol A device; without it such a device cannot be used.
    init(description: DeviceDescription, screen: ScreenGeometry, axes: AxisOverrides,
         makeConverter: RawEventConverterFactory?) throws(PipelineError) {
        self.makeConverter = makeConverter
        let remap: AxisRemap
        do {
            remap = try AxisRemap(description, overrides: axes)
        } catch {
            throw .unusableDevice(error.description)
        }
        self.remap = remap.rewritesEvents ? remap : nil
        remapped = remap.description
        monitor = AxisActivityMonitor(positionCodes: remap.positionCodes, device: description.name)
        var source = remap.description
        if case .protocolA = DeviceClassification(description).contactProtocol {
            guard let makeConverter else {
                throw .unusableDevice("it speaks multitouch protocol A and no converter (libmtdev) was given")
            }
            do {
                let made = try makeConverter(description)
                converter = made
                source = made.convertedDescription
            } catch {
                throw .unusableDevice("\(error)")
            }
        }
        self.description = source
        passesThrough = self.remap == nil && converter == nil
        do {
            tracker = ContactTracker(description: source, mapping: try DeviceMapping(description: source, screen: screen))
        } catch {
            throw .unusableDevice(error.description)
        }
    }

    /// Feeds one raw event; returns the touch frame it completes, if any. One raw event
    /// completes at most one frame: mtdev turns each `SYN_REPORT` it is given into exactly one.
    ///
    /// Every event of the device comes through here, so once the monitor is done a device with
    /// neither remapped axes nor a converter (nearly all of them) goes straight to the tracker
    /// after one test, instead of testing the monitor and unwrapping the optional `remap` (an
    /// ``AxisRemap`` holding a ``DeviceDescription``) and `converter` per event. Inlined into
    /// the pipeline's `feed`, where a call would cost half as much again as the work
    /// (docs/performance.md, "Measured reasons behind the code's shape").
    @inline(__always)
    mutating func feed(_ event: RawEvent) -> TouchFrame? {
        if direct { return tracker.process(event) }
        return feedOtherwise(event)
    }

    /// ``feed(_:)`` while the monitor watches, or for a device with remapped axes or a converter.
    private mutating func feedOtherwise(_ event: RawEvent) -> TouchFrame? {
        if monitor.state == .watching {
            if let warning = monitor.observe(event) { axisWarning = warning }
            if monitor.state == .done { direct = passesThrough }
        }
        if keepsOwnTable { observed!.observe(event) }
        if passesThrough { return tracker.process(event) }
        var event = event
        if let remap {
            guard let rewritten = remap.apply(event) else { return nil }
            event = rewritten
        }
        guard let converter else { return tracker.process(event) }
        converted.removeAll(keepingCapacity: true)
        converter.convert(event, into: &converted)
        var completed: TouchFrame?
        for event in converted {
            if let frame = tracker.process(event) { completed = frame }
        }
        return completed
    }

    /// After `SYN_DROPPED` on a live device: the tracker reconciles with the device's true
    /// state (lost touches cancelled, surviving ones continue). Without a snapshot (a protocol
    /// A device has no slots to read back) every contact is cancelled and the converter starts
    /// over, so the next frame's contacts begin afresh. With routing, the router's values are
    /// reconciled the same way, or, when every contact is cancelled, every forwarded touch
    /// lifts on the copy (written into `panel`).
    mutating func resynchronise(with snapshot: DeviceSnapshot?, at time: Timestamp,
                                panel: inout [RawEvent]) -> TouchFrame? {
        if routes {
            if keepsOwnTable {
                observed!.resynchronise(with: snapshot)
            }
            if snapshot == nil || converter != nil {
                router.loseEveryTouch(at: time, into: &panel)
            }
        }
        if let snapshot, converter == nil {
            return tracker.reconcile(with: snapshot, at: time)
        }
        if converter != nil, let makeConverter, let fresh = try? makeConverter(remapped) {
            // The converter's contact state is as stale as the tracker's; a fresh one forgets it.
            converter = fresh
        }
        return tracker.finish(at: time)
    }

    /// The end of the input: a half frame is discarded and every contact still down cancelled.
    mutating func finish(at time: Timestamp) -> TouchFrame? {
        tracker.finish(at: time)
    }

    /// Input anomalies seen since the last call ("kernel bug:"-style sentences).
    mutating func takeAnomalies() -> [InputAnomaly] {
        tracker.takeAnomalies()
    }

    /// The warning about position axes that never move, once, when it is due.
    mutating func takeAxisWarning() -> String? {
        defer { axisWarning = nil }
        return axisWarning
    }

    /// The mapping from device values to points (its screen is the one new contacts get).
    var mapping: DeviceMapping { tracker.mapping }

    /// Contacts that begin from now on are mapped onto `screen`; contacts already down keep
    /// the screen they began on (`screen.set`, docs/protocol.md, "The screen").
    mutating func setScreen(_ screen: ScreenGeometry) {
        tracker.mapping.screen = screen
    }
}
