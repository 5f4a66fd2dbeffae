import EvdevInput
import GestureCore
import GestureSystem
import Logging

/// Runs the engine on a live device, on an ``EventLoop`` (SPEC 6): the device's descriptor
/// readable → read everything → the same ``InputChain`` as replay → engine → sink. Engine
/// deadlines are armed on the loop's timer directly, because evdev stamps events with
/// `CLOCK_MONOTONIC` (``EvdevDevice``), the timer's clock. A removed device cancels every
/// touch and the runner waits for the provider's hotplug notification to open it again;
/// `SYN_DROPPED` is reconciled against the device's true state.
///
/// The loop never polls: it sleeps until the device, the hotplug watcher, the deadline timer
/// or a signal (the owner's) wakes it. Not `Sendable`: it lives on the loop's thread.
///
/// The runner owns the engine; the daemon reaches into it between two reads (a layout
/// replaced, a point hit-tested, tracing switched) through the methods under *Requests*.
public final class LiveRunner {
    private let loop: EventLoop
    private let provider: any InputSourceProvider
    private let setup: ReplaySetup
    private let sink: any EventSink
    private let logger: Logger
    private let clock: () -> Timestamp
    private var engine: Engine
    private var source: (any InputSource)?
    private var chain: InputChain?
    private var sourceToken: EventLoop.Token?
    private var changeToken: EventLoop.Token?
    private var readings: [DeviceReading] = []
    private var events: [EngineEvent] = []
    /// The latest time the engine has seen, so times handed to it never go backwards.
    private var lastTime = Timestamp.zero
    public private(set) var isStopped = false
    /// Touch frames processed since the start (`status`).
    public private(set) var frameCount = 0

    /// - Parameters:
    ///   - provider: finds and opens the device, and signals hotplug.
    ///   - tracing: emit `hitTest` events and `failed` transitions (`--trace`).
    ///   - sink: receives the event stream.
    ///   - logger: the operator's lines (device found, removed, unusable), never per touch.
    ///   - clock: now on `CLOCK_MONOTONIC`, for removal and stop times (a fixed value in tests).
    public init(loop: EventLoop, provider: any InputSourceProvider, setup: ReplaySetup, tracing: Bool = false,
                sink: any EventSink, logger: Logger,
                clock: @escaping () -> Timestamp = { Timestamp(microseconds: MonotonicClock.microseconds()) }) {
        self.loop = loop
        self.provider = provider
        self.setup = setup
        self.sink = sink
        self.logger = logger
        self.clock = clock
        let screen = Rect(x: 0, y: 0, width: setup.screen.size.width, height: setup.screen.size.height)
        engine = Engine(tree: setup.tree, settings: setup.settings, screen: screen, tracing: tracing)
    }

    /// The engine's next deadline (tests wait for it to be nil before stopping).
    public var nextDeadline: Timestamp? { engine.nextDeadline }

    /// True while a device is open.
    public var isAttached: Bool { source != nil }

    /// Watches for hotplug and opens the device if it is there. A device that cannot be
    /// opened (permissions) or used (no axis ranges) is an error at start, so the operator
    /// learns at once; later the runner logs it and keeps waiting.
    public func start() throws(EvdevError) {
        do {
            changeToken = try loop.watch(provider.changeDescriptor) { [unowned self] _ in devicesChanged() }
        } catch {
            throw .system(error)
        }
        try attachIfPresent()
        if source == nil {
            logger.notice("waiting for the touchscreen to appear", metadata: ["selector": "\(provider.selectorDescription)"])
        }
        sink.flush()
    }

    /// Ends the run (SIGTERM, SIGINT) when nothing else is on the loop: ``stopInput()``, then
    /// the loop stopped.
    public func shutdown() {
        stopInput()
        loop.stop()
    }

    /// Ends the input (SIGTERM, SIGINT): every touch still down is cancelled and published,
    /// the sink flushed, and neither the device nor hotplug is watched any more. The loop
    /// goes on, for whoever else is on it (the socket server telling its clients).
    public func stopInput() {
        guard !isStopped else { return }
        isStopped = true
        endTouches(at: now())
        sink.flush()
        loop.setDeadline(nil) {}
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
    public var currentTime: Timestamp { now() }

    /// Touches the engine still tracks.
    public var activeTouchCount: Int { engine.activeTouchCount }

    /// Hit-test traces and failed transitions (`--trace`, or a subscriber that asks).
    public var tracing: Bool {
        get { engine.tracing }
        set { engine.tracing = newValue }
    }

    /// Replaces the layout between two reads; touches already down keep their views (SPEC 9).
    public func replaceLayout(_ tree: ViewTree) {
        engine.replaceLayout(tree)
    }

    /// Hit-tests a point of the current layout without a touch.
    public func hitTest(_ point: Point) -> HitTestEvent {
        engine.hitTest(point, at: now())
    }

    // MARK: - Device life

    private func attachIfPresent() throws(EvdevError) {
        guard source == nil, !isStopped, let opened = try provider.open() else { return }
        let chain: InputChain
        do {
            chain = try InputChain(description: opened.description, screen: setup.screen, axes: setup.axes)
        } catch {
            throw .noMatchingDevice(selector: "\(opened.path) (\(opened.description.name))",
                                    detail: "it cannot be used: \(error.description)")
        }
        let token: EventLoop.Token
        do {
            token = try loop.watch(opened.fileDescriptor) { [unowned self] _ in readSource() }
        } catch {
            throw .system(error)
        }
        source = opened
        self.chain = chain
        sourceToken = token
        let classification = DeviceClassification(opened.description)
        sink.publish(.device(time: now(), action: "added", name: opened.description.name,
                             message: "reading \(opened.path) (\(classification.reason))"))
        logger.notice("reading the touchscreen", metadata: ["path": "\(opened.path)", "name": "\(opened.description.name)"])
        // Events may be waiting already (the finger was down when the device came back).
        readSource()
    }

    /// The input ends here (stop, removal, read error): a half frame is discarded, every touch
    /// still down is cancelled, and the events go out.
    private func endTouches(at time: Timestamp) {
        if var chain, let frame = chain.finish(at: time) {
            engine.process(frame, into: &events)
            self.chain = chain
        }
        engine.cancelAll(at: time, into: &events)
        emit()
    }

    /// - Parameter lookAgainNow: after a removal another matching device may be there already;
    ///   after a read error, reopening at once could fail the same way forever, so the next
    ///   hotplug notification decides.
    private func detach(because message: String, lookAgainNow: Bool) {
        guard let current = source else { return }
        let time = now()
        endTouches(at: time)
        if let sourceToken { loop.unwatch(sourceToken) }
        sourceToken = nil
        source = nil
        chain = nil
        sink.publish(.device(time: time, action: "removed", name: current.description.name, message: message))
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
        sink.flush()
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

    // MARK: - Input and time

    private func readSource() {
        guard !isStopped, let current = source, var chain else { return }
        readings.removeAll(keepingCapacity: true)
        let end: ReadEnd
        var failure: EvdevError?
        do {
            end = try current.readAvailable(into: &readings)
        } catch {
            failure = error
            end = .removed
        }
        for reading in readings {
            switch reading {
            case .event(let event):
                if let frame = chain.feed(event) {
                    lastTime = max(lastTime, frame.time)
                    engine.process(frame, into: &events)
                    frameCount += 1
                }
            case .resynchronised(let snapshot, let time):
                let at = max(lastTime, time)
                lastTime = at
                let before = engine.activeTouchCount
                let frame = chain.resynchronise(with: snapshot, at: at)
                if let frame {
                    engine.process(frame, into: &events)
                    frameCount += 1
                }
                let cancelled = frame?.changes.count(where: { if case .cancel = $0 { true } else { false } }) ?? 0
                sink.publish(.device(time: at, action: "resynchronised", name: current.description.name,
                                     message: "the kernel dropped events (SYN_DROPPED) because they were not read "
                                        + "fast enough; resynchronised with the device: \(cancelled) of \(before) "
                                        + "touches cancelled"))
            }
            emit()
            for anomaly in chain.takeAnomalies() {
                sink.publish(.warning(time: lastTime, message: anomaly.description))
            }
        }
        self.chain = chain
        switch end {
        case .drained:
            break
        case .removed:
            detach(because: failure.map { "\(current.path) could not be read: \($0); waiting for it to be plugged in again" }
                ?? "\(current.path) was removed; every touch on it was cancelled",
                   lookAgainNow: failure == nil)
        }
        armDeadline()
        sink.flush()
    }

    private func deadlineReached() {
        // Input stamped before the deadline may still be unread (the loop was busy): take it
        // first, so frames and deadlines go to the engine in input-time order, as in replay.
        if source != nil { readSource() }
        let time = now()
        if let deadline = engine.nextDeadline, deadline <= time {
            engine.advance(to: time, into: &events)
            lastTime = max(lastTime, time)
            emit()
        }
        armDeadline()
        sink.flush()
    }

    private func armDeadline() {
        guard !isStopped else { return }
        loop.setDeadline(engine.nextDeadline?.microseconds) { [unowned self] in deadlineReached() }
    }

    private func emit() {
        for event in events { sink.publish(.engine(event)) }
        events.removeAll(keepingCapacity: true)
    }

    private func now() -> Timestamp {
        max(clock(), lastTime)
    }
}

@available(*, unavailable, message: "a LiveRunner lives on its event loop's thread")
extension LiveRunner: Sendable {}
