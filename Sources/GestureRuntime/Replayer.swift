import EvdevInput
import GestureCore
import Recordings

/// How a replay runs.
public struct ReplayOptions: Sendable {
    /// Emit `hitTest` events and `failed` gesture transitions.
    public var tracing = false
    /// Replay a recording of a device that is not a touchscreen (a touchpad) anyway.
    public var allowNonTouchscreen = false
    /// Emit a `contacts` event after every frame that changed a contact (`--contacts`).
    public var listsContacts = false

    public init(tracing: Bool = false, allowNonTouchscreen: Bool = false, listsContacts: Bool = false) {
        (self.tracing, self.allowNonTouchscreen, self.listsContacts) = (tracing, allowNonTouchscreen, listsContacts)
    }
}

/// Why a recording cannot be replayed.
public enum ReplayError: Error, Hashable, Sendable, CustomStringConvertible {
    case notATouchscreen(file: String, device: String, reason: String)
    case noDescription(file: String)
    case input(file: String, message: String)

    public var description: String {
        switch self {
        case .notATouchscreen(let file, let device, let reason):
            "\(file): the recorded device is not a touchscreen (\(reason)); gestured only replays touchscreens. Pass --force to replay it anyway, or, if it is a touchscreen that misdescribes itself, set device: { name: \"\(device)\", type: \"touchscreen\" } in the configuration (and axes: { x: …, y: … } beside type if its positions come on other axes)."
        case .noDescription(let file):
            "\(file): the recording has no device description, so its axis ranges are unknown; give the description file as well (RECORDING EVENTS-FILE), or set `device: { axes: { x: { min, max }, y: { min, max } } }` in the configuration."
        case .input(let file, let message):
            "\(file): \(message)"
        }
    }
}

/// Replays a recording through a ``GesturePipeline`` in input time (docs/input.md, "Recordings"): its raw
/// events in order, deadlines fired at their input-time instants, and at the end every touch still down
/// cancelled and every pending deadline fired. A driver: it reads the recording and the clock
/// (`--realtime`, through a ``Pacer``) and feeds the pipeline; the order of things is the
/// pipeline's.
///
/// The recording is streamed (``RecordingStream``): one raw event is read ahead, so memory does
/// not grow with the recording's length. A malformed line met on the way ends the input there,
/// as a recording that ended before it would (touches cancelled), after a `warning` that names
/// file and line; ``readError`` keeps the error for the driver to exit with.
///
/// Two ways to drive it: ``run(pacer:stop:sinks:output:)`` replays everything to JSON Lines
/// (and to the other sinks it is given), and ``step(stop:)`` one raw event or deadline at a
/// time, for a driver that serves socket clients between steps (and may replace the layout in
/// between); it hands ``pipeline``'s records to its own sinks.
public struct Replayer {
    /// The recording's file (the description file for a split recording), for messages.
    public let file: String?
    /// The input time the recording starts at.
    public let start: Timestamp
    /// Where the raw events come from, read as they are replayed.
    private var stream: RecordingStream
    /// The next raw event, read ahead so that pacing and deadlines can see its time; nil once
    /// the input has ended.
    private var upcoming: RawEvent?
    /// The malformed line that ended the input early, if one did.
    public private(set) var readError: RecordingError?
    /// What the reader said among the events (times that went back), each also a `warning`
    /// in the stream, for the driver's log or stderr (``takeNotices()``).
    private var readerNotices: [String] = []
    /// The pipeline; its `records` hold what the steps produced until the driver empties them.
    public var pipeline: GesturePipeline
    private let deviceName: String

    /// Where a replay is.
    private enum Phase {
        /// The recording's raw events (and the deadlines between them).
        case input
        /// The recording ended: the deadlines left fire.
        case deadlines
        case finished
    }
    private var phase = Phase.input
    private var stopRequested = false
    /// Where the input ends when a stop was requested from outside (SIGTERM during a wait).
    private var stopTime: Timestamp?
    /// The input time of the latest raw event read: a recording ends there.
    private var lastReadTime: Timestamp

    /// Sets the pipeline up with the recording's device; its `records` then hold the events
    /// that open a replay: the device added, and a warning for each thing the reader noticed
    /// before the first event.
    public init(stream: RecordingStream, setup: PipelineSetup, options: ReplayOptions) throws(ReplayError) {
        let file = stream.sourcePaths.first ?? "recording"
        var description: DeviceDescription
        let axes = setup.device.axes
        if let recorded = stream.description {
            description = recorded
        } else if let x = axes.x?.range, let y = axes.y?.range {
            // A capture without a description (Android getevent): the configuration's ranges
            // describe a multitouch protocol B device, on the axes it names.
            description = DeviceDescription(
                name: "unknown device", codes: [:],
                absInfo: [axes.x?.code ?? AbsCode.mtPositionX: AbsInfo(minimum: x.lowerBound, maximum: x.upperBound),
                          axes.y?.code ?? AbsCode.mtPositionY: AbsInfo(minimum: y.lowerBound, maximum: y.upperBound),
                          AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
                          AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535)],
                properties: [InputProperty.direct])
        } else {
            throw .noDescription(file: file)
        }
        let classification = setup.device.classify(description)
        if !classification.isDirectTouch && !options.allowNonTouchscreen {
            throw .notATouchscreen(file: file, device: description.name, reason: classification.reason)
        }
        let start = stream.startTime ?? .zero
        pipeline = GesturePipeline(setup: setup, options: .init(tracing: options.tracing, listsContacts: options.listsContacts),
                                   start: start, makeConverter: { try ProtocolAConverter(description: $0) })
        do {
            try pipeline.addDevice(description, message: "replaying \(stream.format) recording of \(description.name)",
                                   at: start)
        } catch {
            throw .input(file: file, message: error.description)
        }
        for warning in stream.warnings { pipeline.warn(warning, at: start) }
        deviceName = description.name
        self.file = stream.sourcePaths.first
        self.start = start
        var stream = stream
        // The first event was read with the description: no I/O, no error here.
        upcoming = try? stream.next()
        self.stream = stream
        lastReadTime = start
    }

    /// Replays a recording already in memory.
    public init(recording: Recording, setup: PipelineSetup, options: ReplayOptions) throws(ReplayError) {
        try self.init(stream: RecordingStream(recording), setup: setup, options: options)
    }

    /// The recorded device's udev properties, when the recording has them (libinput record).
    public var udevProperties: [String: String]? { stream.udevProperties }

    /// The recorded device's name.
    public var deviceDescriptionName: String { deviceName }

    /// Replays the whole recording, handing JSON Lines to `output` in chunks (its own
    /// ``JSONLinesSink``), and every batch of records to each of `sinks` too (`--panel`'s
    /// writer, a test's collector), in order. With a `pacer`, waits before each step until its
    /// input time has come (`--realtime`) and hands every step's lines on at once, each sink
    /// flushed. When `stop` is set (SIGTERM) the replay ends early as a recording that ends
    /// there would: touches still down are cancelled and the output flushed.
    public mutating func run(pacer: Pacer? = nil, stop: StopFlag? = nil, sinks: [any RecordSink] = [],
                             output: ([UInt8]) -> Void) {
        var lines = JSONLinesSink(writesRoutes: pipeline.routing != nil)
        var sinks = sinks
        var more = true
        if let pacer {
            var paced = Timestamp(microseconds: .min)
            while more {
                deliver(to: &lines, &sinks)
                if !lines.batch.bytes.isEmpty {
                    output(lines.batch.bytes)
                    lines.batch.removeAll()
                }
                for index in sinks.indices { sinks[index].flush() }
                // The raw events of one frame share its time: one wait per instant.
                if stop?.isSet != true, let time = nextStepTime, time > paced {
                    pacer.wait(until: time)
                    paced = time
                }
                more = step(stop: stop)
            }
        } else {
            // Nearly every step, inline: an input event with no deadline before it and no stop
            // asked for; anything else through step(stop:). Records are handed on every
            // ``stepsPerBatch`` frames' ends and other steps (a raw event within a frame makes
            // none, or a reader's warning that can wait for the frame's end).
            var steps = 0
            while more {
                if lines.batch.bytes.count >= 1 << 16 {
                    output(lines.batch.bytes)
                    lines.batch.removeAll()
                }
                if phase == .input, !stopRequested, stop?.isSet != true, let event = upcoming,
                   !(pipeline.nextDeadline.map { $0 < event.time } ?? false) {
                    feedUpcoming(event)
                    guard event.isFrameEnd else { continue }
                } else {
                    more = step(stop: stop)
                }
                steps += 1
                if steps == Self.stepsPerBatch {
                    deliver(to: &lines, &sinks)
                    steps = 0
                }
            }
        }
        deliver(to: &lines, &sinks)
        if !lines.batch.bytes.isEmpty { output(lines.batch.bytes) }
        for index in sinks.indices { sinks[index].flush() }
    }

    /// Steps (frames, deadlines) whose records a replay in virtual time hands on together: what
    /// a batch holds stays bounded (a frame's records are bounded by the touches down and the
    /// recognizers), and handing on and emptying a batch is paid once for all of them
    /// (docs/limits.md, "The pipeline's records").
    public static let stepsPerBatch = 4

    /// Hands the pipeline's records to the JSON Lines sink and to `sinks`, then empties them
    /// (what the engine let go of is released here: a replay has no other thread). Not
    /// inlined: the replay's loop, which runs once per raw event, stays small.
    @inline(never)
    private mutating func deliver(to lines: inout JSONLinesSink, _ sinks: inout [any RecordSink]) {
        guard !pipeline.records.isEmpty else { return }
        lines.consume(pipeline.records)
        for index in sinks.indices { sinks[index].consume(pipeline.records) }
        pipeline.removeRecords()
    }

    /// The input time of the next step, for pacing (`--realtime`): a deadline due before the
    /// next raw event, or that event; after the recording, the next pending deadline. `nil`
    /// when the next step does not wait (the end of the input) or the replay has finished.
    public var nextStepTime: Timestamp? {
        switch phase {
        case .input:
            guard !stopRequested, let time = upcoming?.time else { return nil }
            if let deadline = pipeline.nextDeadline, deadline < time { return deadline }
            return time
        case .deadlines:
            return stopRequested ? nil : pipeline.nextDeadline
        case .finished:
            return nil
        }
    }

    /// True once every step has been taken.
    public var isFinished: Bool { phase == .finished }

    /// Ends the replay early (SIGTERM) as a recording that ends here would: the next step
    /// cancels the touches still down, at `time` (default: the latest input time); deadlines
    /// after that are not waited for.
    public mutating func requestStop(at time: Timestamp? = nil) {
        guard !stopRequested, phase != .finished else { return }
        stopRequested = true
        stopTime = max(time ?? pipeline.currentTime, pipeline.currentTime)
    }

    /// Takes one step: a deadline due before the next raw event, that raw event, the end of the
    /// recording (touches still down cancelled), or one deadline after it. Returns `false` once
    /// there is nothing left to do.
    public mutating func step(stop: StopFlag? = nil) -> Bool {
        switch phase {
        case .input:
            if stop?.isSet == true { requestStop() }
            guard !stopRequested, let event = upcoming else {
                if !stopRequested { endOfInput() }
                pipeline.finish(at: stopTime ?? lastReadTime)
                phase = stopRequested ? .finished : .deadlines
                return true
            }
            // Deadlines that fall before the event fire at their own time.
            if let deadline = pipeline.nextDeadline, deadline < event.time {
                pipeline.advance(to: deadline)
                return true
            }
            feedUpcoming(event)
            return true
        case .deadlines:
            guard !stopRequested, stop?.isSet != true, let deadline = pipeline.nextDeadline else {
                phase = .finished
                return false
            }
            pipeline.advance(to: deadline)
            return true
        case .finished:
            return false
        }
    }
}

extension Replayer {
    /// The next raw event of the recording goes in, and the one after it is read.
    @inline(__always)
    private mutating func feedUpcoming(_ event: RawEvent) {
        lastReadTime = event.time
        pipeline.feed(event)
        do {
            upcoming = try stream.next()
        } catch {
            upcoming = nil
            readError = error
        }
        if !stream.eventWarnings.isEmpty { warnAboutReading() }
    }

    /// What the reader noticed reading the next event (its time went back) goes into the
    /// stream before that event.
    @inline(never)
    private mutating func warnAboutReading() {
        for warning in stream.takeEventWarnings() {
            pipeline.warn(warning)
            readerNotices.append(warning)
        }
    }

    /// True when ``takeNotices()`` has something.
    public var hasNotices: Bool { !readerNotices.isEmpty || !pipeline.notices.isEmpty }

    /// What the operator should read, not yet taken, forgotten: the reader's warnings among
    /// the events and the pipeline's notices about the device. Each also went out as a
    /// `warning` event.
    public mutating func takeNotices() -> [String] {
        defer { readerNotices.removeAll() }
        return readerNotices + pipeline.takeNotices()
    }

    /// The recording has no more events: what the reader could only say at its end, or the
    /// malformed line that ended it, goes into the stream before the touches are cancelled.
    private mutating func endOfInput() {
        if let readError {
            pipeline.warn("\(readError); the replay ends at the line before", at: lastReadTime)
        } else {
            for warning in stream.closingWarnings { pipeline.warn(warning, at: lastReadTime) }
        }
    }
}

/// Paces a replay by the input timeline (`--realtime`): `wait(until:)` returns once the wall
/// clock has advanced as far past the replay's start as `time` is past the recording's start.
public protocol Pacer {
    func wait(until time: Timestamp)
}
