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
public struct Replayer {
    public let recording: Recording
    public private(set) var engine: Engine
    private var input: InputChain
    private var encoder = EventEncoder()
    private var events: [EngineEvent] = []
    private let deviceName: String

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
        let screen = Rect(x: 0, y: 0, width: setup.screen.size.width, height: setup.screen.size.height)
        engine = Engine(tree: setup.tree, settings: setup.settings, screen: screen, tracing: options.tracing)
    }

    /// Replays the whole recording, handing JSON Lines to `output` in chunks. With a `pacer`,
    /// waits before each frame and deadline until its input time has come (`--realtime`).
    /// When `stop` is set (SIGTERM) the replay ends early as a recording that ends there would:
    /// touches still down are cancelled and the output is flushed.
    public mutating func run(pacer: Pacer? = nil, stop: StopFlag? = nil, output: (inout [UInt8]) -> Void) {
        var buffer: [UInt8] = []
        buffer.reserveCapacity(1 << 16)
        let start = recording.events.first?.time ?? .zero
        let flushAt = pacer == nil ? 1 << 16 : 0
        func flush() {
            if !buffer.isEmpty { output(&buffer) }
            buffer.removeAll(keepingCapacity: true)
        }
        encoder.encode(.device(time: start, action: "added", name: deviceName,
                               message: "replaying \(recording.format) recording of \(deviceName)"), into: &buffer)
        for warning in recording.warnings {
            encoder.encode(.warning(time: start, message: warning), into: &buffer)
        }
        var lastTime = start
        for event in recording.events {
            if stop?.isSet == true { break }
            lastTime = event.time
            if let frame = input.feed(event) {
                if let pacer {
                    // Deadlines that fall before the frame fire at their own time.
                    while let deadline = engine.nextDeadline, deadline < frame.time {
                        pacer.wait(until: deadline)
                        engine.advance(to: deadline, into: &events)
                        emit(into: &buffer)
                        flush()
                    }
                    pacer.wait(until: frame.time)
                }
                engine.process(frame, into: &events)
                emit(into: &buffer)
                reportAnomalies(at: frame.time, into: &buffer)
                if buffer.count >= flushAt { flush() }
            }
        }
        // The recording ends: fingers still down are cancelled, then pending deadlines fire.
        if let last = input.finish(at: lastTime) {
            engine.process(last, into: &events)
            emit(into: &buffer)
        }
        reportAnomalies(at: lastTime, into: &buffer)
        engine.cancelAll(at: lastTime, into: &events)
        emit(into: &buffer)
        while stop?.isSet != true, let deadline = engine.nextDeadline {
            pacer?.wait(until: deadline)
            engine.advance(to: deadline, into: &events)
            emit(into: &buffer)
        }
        flush()
    }

    private mutating func emit(into buffer: inout [UInt8]) {
        for event in events { encoder.encode(.engine(event), into: &buffer) }
        events.removeAll(keepingCapacity: true)
    }

    private mutating func reportAnomalies(at time: Timestamp, into buffer: inout [UInt8]) {
        for anomaly in input.takeAnomalies() {
            encoder.encode(.warning(time: time, message: anomaly.description), into: &buffer)
        }
    }
}

/// Paces a replay by the input timeline (`--realtime`): `wait(until:)` returns once the wall
/// clock has advanced as far past the replay's start as `time` is past the recording's start.
public protocol Pacer {
    func wait(until time: Timestamp)
}
