import GestureCore
import Recordings

/// How a replay runs.
public struct ReplayOptions: Sendable {
    /// Emit `hitTest` events and `failed` gesture transitions.
    public var tracing = false
    /// Replay a recording of a device that is not a touchscreen (a touchpad) anyway.
    public var allowNonTouchscreen = false

    public init(tracing: Bool = false, allowNonTouchscreen: Bool = false) {
        self.tracing = tracing
        self.allowNonTouchscreen = allowNonTouchscreen
    }
}

/// What a replay runs on: the layout, the settings, the screen and axis overrides.
public struct ReplaySetup: Sendable {
    public var tree: ViewTree
    public var settings: GestureSettings
    public var screen: ScreenGeometry
    public var axes: AxisOverrides

    public init(tree: ViewTree, settings: GestureSettings, screen: ScreenGeometry, axes: AxisOverrides = .none) {
        self.tree = tree
        self.settings = settings
        self.screen = screen
        self.axes = axes
    }
}

/// Why a recording cannot be replayed.
public enum ReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    case notATouchscreen(file: String, reason: String)
    case noDescription(file: String)
    case input(file: String, message: String)

    public var description: String {
        switch self {
        case .notATouchscreen(let file, let reason):
            "\(file): the recorded device is not a touchscreen (\(reason)); gestured only replays direct-touch devices. Pass --force to replay it anyway."
        case .noDescription(let file):
            "\(file): the recording has no device description, so its axis ranges are unknown; give the description file as well (RECORDING EVENTS-FILE), or set `axes: { x: { min, max }, y: { min, max } }` in the configuration."
        case .input(let file, let message):
            "\(file): \(message)"
        }
    }
}

/// Runs a recording through the engine in input time (SPEC 7): frames in order, deadlines fired
/// at their input-time instants, and at the end every touch still down cancelled and every
/// pending deadline fired. The pacing of `--realtime` is the caller's (``Pacer``).
///
/// Two ways to drive it: ``run(pacer:stop:output:)`` replays everything to JSON Lines, and
/// ``start(into:)`` then ``step(into:)`` one frame or deadline at a time, for a driver that
/// serves socket clients between steps (and may replace the layout in between).
public struct Replayer {
    public let recording: Recording
    public private(set) var engine: Engine
    private var input: InputChain
    private var encoder = EventEncoder()
    private var events: [EngineEvent] = []
    /// While ``run(pacer:stop:output:)`` writes JSON Lines itself, engine events are encoded
    /// here as they come instead of being wrapped into ``OutputEvent``s first.
    private var directOutput: [UInt8]?
    private let deviceName: String

    /// Where a stepped replay is.
    private enum Phase {
        /// Frames of the recording (and the deadlines between them).
        case input
        /// The recording ended: cancel what is still down.
        case ending
        /// Fire the deadlines left after the end.
        case deadlines
        case finished
    }
    private var phase = Phase.input
    private var nextEvent = 0
    /// A frame read ahead of time, so ``nextStepTime`` can name it.
    private var pendingFrame: TouchFrame?
    private var stopRequested = false
    /// Where the input ends when a stop was requested from outside (SIGTERM during a wait).
    private var stopTime: Timestamp?
    /// The input time of the latest raw event read (frames are read one ahead for pacing).
    private var lastReadTime: Timestamp
    /// The input time of the latest frame processed or deadline fired: "now" for events the
    /// driver adds (a layout change) and for `status`.
    public private(set) var currentTime: Timestamp
    /// Frames the engine processed.
    public private(set) var frameCount = 0

    public init(recording: Recording, setup: ReplaySetup, options: ReplayOptions) throws(ReplayError) {
        let file = recording.sourcePaths.first ?? "recording"
        var description: DeviceDescription
        if let recorded = recording.description {
            description = recorded
        } else if let x = setup.axes.x, let y = setup.axes.y {
            // A capture without a description (Android getevent): the configuration's ranges
            // describe a multitouch protocol B device.
            description = DeviceDescription(
                name: "unknown device", codes: [:],
                absInfo: [AbsCode.mtPositionX: x, AbsCode.mtPositionY: y,
                          AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
                          AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535)],
                properties: [InputProperty.direct])
        } else {
            throw .noDescription(file: file)
        }
        let classification = DeviceClassification(description)
        if !classification.isDirectTouch && !options.allowNonTouchscreen {
            throw .notATouchscreen(file: file, reason: classification.reason)
        }
        do {
            input = try InputChain(description: description, screen: setup.screen, axes: setup.axes)
        } catch {
            throw .input(file: file, message: error.description)
        }
        deviceName = description.name
        self.recording = recording
        currentTime = recording.events.first?.time ?? .zero
        lastReadTime = currentTime
        let screen = Rect(x: 0, y: 0, width: setup.screen.size.width, height: setup.screen.size.height)
        engine = Engine(tree: setup.tree, settings: setup.settings, screen: screen, tracing: options.tracing)
    }

    /// The recorded device's name.
    public var deviceDescriptionName: String { deviceName }

    /// Replays the whole recording, handing JSON Lines to `output` in chunks. With a `pacer`,
    /// waits before each frame and deadline until its input time has come (`--realtime`).
    /// When `stop` is set (SIGTERM) the replay ends early as a recording that ends there would:
    /// touches still down are cancelled and the output is flushed.
    public mutating func run(pacer: Pacer? = nil, stop: StopFlag? = nil, output: (inout [UInt8]) -> Void) {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        directOutput = buffer
        defer { directOutput = nil }
        let flushAt = pacer == nil ? 1 << 16 : 0
        var unused: [OutputEvent] = []
        func flush() {
            guard var pending = directOutput, !pending.isEmpty else { return }
            directOutput = nil
            output(&pending)
            pending.removeAll(keepingCapacity: true)
            directOutput = pending
        }
        start(into: &unused)
        while true {
            if stop?.isSet == true { requestStop() }
            if let pacer, let time = nextStepTime {
                pacer.wait(until: time)
                if stop?.isSet == true { requestStop() }
            }
            guard step(into: &unused, stop: stop) else { break }
            if directOutput?.count ?? 0 >= flushAt { flush() }
        }
        flush()
    }

    /// The events that open a replay: the device, and the recording's warnings.
    public mutating func start(into output: inout [OutputEvent]) {
        let start = recording.events.first?.time ?? .zero
        append(.device(time: start, action: "added", name: deviceName,
                       message: "replaying \(recording.format) recording of \(deviceName)"), to: &output)
        for warning in recording.warnings {
            append(.warning(time: start, message: warning), to: &output)
        }
    }

    /// The input time of the next step, for pacing (`--realtime`): a deadline due before the
    /// next frame, or that frame; after the recording, the next pending deadline. `nil` when
    /// the next step does not wait (the end of the input) or the replay has finished.
    public mutating func nextStepTime(stop: StopFlag? = nil) -> Timestamp? {
        switch phase {
        case .input:
            if stopRequested { return nil }
            if pendingFrame == nil { pendingFrame = readFrame(stop: stop) }
            guard let frame = pendingFrame else { return nil }
            if let deadline = engine.nextDeadline, deadline < frame.time { return deadline }
            return frame.time
        case .ending, .finished:
            return nil
        case .deadlines:
            return stopRequested ? nil : engine.nextDeadline
        }
    }

    /// See ``nextStepTime(stop:)``.
    public var nextStepTime: Timestamp? {
        mutating get { nextStepTime(stop: nil) }
    }

    /// True once every step has been taken.
    public var isFinished: Bool { phase == .finished }

    /// Ends the replay early (SIGTERM) as a recording that ends here would: the next step
    /// cancels the touches still down, at `time` (default: the latest processed input time);
    /// a frame read ahead but not yet due is dropped; deadlines after that are not waited for.
    public mutating func requestStop(at time: Timestamp? = nil) {
        guard !stopRequested, phase == .input || phase == .deadlines else { return }
        stopRequested = true
        // The engine never saw the frame read ahead; the tracker did, and the engine ignores
        // ends of contacts it does not know.
        pendingFrame = nil
        stopTime = max(time ?? currentTime, currentTime)
    }

    /// Takes one step: a deadline due before the next frame, the next frame, the end of the
    /// recording (touches still down cancelled), or one deadline after it. Appends the events
    /// it produced; returns `false` once there is nothing left to do.
    public mutating func step(into output: inout [OutputEvent], stop: StopFlag? = nil) -> Bool {
        switch phase {
        case .input:
            if !stopRequested, pendingFrame == nil { pendingFrame = readFrame(stop: stop) }
            guard let frame = pendingFrame else {
                phase = .ending
                return step(into: &output, stop: stop)
            }
            // Deadlines that fall before the frame fire at their own time.
            if let deadline = engine.nextDeadline, deadline < frame.time {
                engine.advance(to: deadline, into: &events)
                currentTime = max(currentTime, deadline)
                emit(into: &output)
                return true
            }
            pendingFrame = nil
            currentTime = frame.time
            engine.process(frame, into: &events)
            frameCount += 1
            emit(into: &output)
            reportAnomalies(at: frame.time, into: &output)
            return true
        case .ending:
            // The recording ends: fingers still down are cancelled, then pending deadlines fire.
            currentTime = stopTime ?? lastReadTime
            if let last = input.finish(at: currentTime) {
                engine.process(last, into: &events)
                emit(into: &output)
            }
            reportAnomalies(at: currentTime, into: &output)
            engine.cancelAll(at: currentTime, into: &events)
            emit(into: &output)
            phase = .deadlines
            return true
        case .deadlines:
            guard !stopRequested, stop?.isSet != true, let deadline = engine.nextDeadline else {
                phase = .finished
                return false
            }
            engine.advance(to: deadline, into: &events)
            currentTime = max(currentTime, deadline)
            emit(into: &output)
            return true
        case .finished:
            return false
        }
    }

    /// Replaces the layout between steps; touches already down keep their views (SPEC 9).
    public mutating func replaceLayout(_ tree: ViewTree) {
        engine.replaceLayout(tree)
    }

    /// Turns hit-test traces and failed transitions on or off between steps.
    public mutating func setTracing(_ tracing: Bool) {
        engine.tracing = tracing
    }

    /// Feeds raw events until one completes a frame; `nil` at the end of the recording (or
    /// when `stop` is set, which ends the input there).
    private mutating func readFrame(stop: StopFlag?) -> TouchFrame? {
        while nextEvent < recording.events.count {
            if stop?.isSet == true {
                stopRequested = true
                return nil
            }
            let event = recording.events[nextEvent]
            nextEvent += 1
            lastReadTime = event.time
            if let frame = input.feed(event) { return frame }
        }
        return nil
    }

    private mutating func emit(into output: inout [OutputEvent]) {
        if var buffer = directOutput {
            directOutput = nil
            for index in events.indices { encoder.encode(events[index], into: &buffer) }
            directOutput = buffer
        } else {
            for event in events { output.append(.engine(event)) }
        }
        events.removeAll(keepingCapacity: true)
    }

    /// Hands on one event that is not the engine's, in order with the engine's.
    private mutating func append(_ event: OutputEvent, to output: inout [OutputEvent]) {
        if var buffer = directOutput {
            directOutput = nil
            encoder.encode(event, into: &buffer)
            directOutput = buffer
        } else {
            output.append(event)
        }
    }

    private mutating func reportAnomalies(at time: Timestamp, into output: inout [OutputEvent]) {
        for anomaly in input.takeAnomalies() {
            append(.warning(time: time, message: anomaly.description), to: &output)
        }
    }
}

/// Paces a replay by the input timeline (`--realtime`): `wait(until:)` returns once the wall
/// clock has advanced as far past the replay's start as `time` is past the recording's start.
public protocol Pacer {
    func wait(until time: Timestamp)
}
