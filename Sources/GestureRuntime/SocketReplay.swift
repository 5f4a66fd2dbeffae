#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureCore
import GestureServer
import GestureSystem
import Logging
import Recordings

/// `gestured replay --socket` (SPEC 11): a replay that publishes to socket subscribers instead
/// of stdout, so the whole protocol can be tried and tested without a touchscreen. It waits
/// until `waitClients` clients have subscribed, replays, and exits once the replay has ended
/// and every queue is written (or its client dropped).
///
/// In virtual time the replay goes as fast as its subscribers read: it waits while a
/// subscriber that is still reading has a backlog, so a normal reader is never outrun; a
/// subscriber that takes nothing for `stallMicroseconds` stops holding it back and is dropped
/// when its queue overflows, as live. With `--realtime`, frames are published at their
/// recorded times and nobody holds the replay back, exactly as a live device would.
public final class SocketReplay: EventServerOwner {
    /// How a socket replay runs.
    public struct Options: Sendable {
        public var waitClients = 1
        /// `--wait-layout`: also wait until a client has set a layout (`layout.set`), for at most
        /// this many seconds (``waitLayoutSeconds``); `nil`: do not wait for one.
        public var waitLayoutSeconds: Int?
        /// The range of `--wait-layout-timeout` (docs/limits.md § Command line): a page in a
        /// browser that starts with the replay sends its layout within seconds; an hour is far beyond.
        public static let waitLayoutSeconds = 1...3600
        /// `--wait-layout-timeout` when not given: time for a browser to start and load a page.
        public static let defaultWaitLayoutSeconds = 30
        public var realtime = false
        /// `--trace`: every subscriber gets hit-test traces and failed transitions.
        public var trace = false
        public var stallMicroseconds: Int64 = 500_000
        public var server: EventServer.Options

        public init(server: EventServer.Options) {
            self.server = server
        }
    }

    private var replayer: Replayer
    /// The stream's JSON Lines, with what the subscribers' filters look at in each event.
    private var lines: JSONLinesSink
    private let running: RunningLayout
    private let options: Options
    private let logger: Logger
    private let notifier: ServiceNotifier
    private let loop: EventLoop
    private let server: EventServer
    private let sink: ServerSink
    private var stepTimer: DeadlineTimer?
    private var watchdog: DeadlineTimer?
    private var started = false
    /// A client's `layout.set` arrived (what `--wait-layout` waits for).
    private var layoutSet = false
    /// `--wait-layout`: the deadline by which a layout must have come.
    private var layoutTimer: DeadlineTimer?
    /// Set when `--wait-layout`'s time ran out: the sentence that says so (the replay never began).
    public private(set) var waitLayoutExpired: String?
    /// Enough clients subscribed: the next turn of the step timer begins the replay.
    private var beginRequested = false
    private var subscribers = 0
    private var ended = false
    private var stopping = false
    /// `--realtime`: the monotonic time the recording's first event maps to.
    private var anchor: Int64 = 0
    private let origin: Timestamp

    public init(replayer: Replayer, configuration: Configuration, listener: ListeningSocket, options: Options,
                logger: Logger, notifier: ServiceNotifier = ServiceNotifier()) throws(SystemError) {
        self.replayer = replayer
        lines = JSONLinesSink(writesRoutes: replayer.pipeline.routing != nil, keepsSummaries: true)
        running = RunningLayout(configuration: configuration, logger: logger)
        self.options = options
        self.logger = logger
        self.notifier = notifier
        origin = replayer.start
        loop = try EventLoop()
        var serverOptions = options.server
        serverOptions.traceAll = options.trace
        server = EventServer(loop: loop, clock: SystemClock(loop: loop), listener: listener,
                             policy: ControlPolicy(socket: configuration.socket), options: serverOptions, logger: logger)
        sink = ServerSink(server: server, stdout: nil)
    }

    /// Serves clients and replays; returns when the replay has ended (or SIGTERM/SIGINT
    /// stopped it) and every client has been told and closed.
    public func run() throws(SystemError) {
        server.owner = self
        sink.announce = { [unowned self] notices in self.warnings(notices) }
        stepTimer = try DeadlineTimer(loop: loop) { [unowned self] in self.pump() }
        try loop.handleSignals(DaemonSignal.handled) { [unowned self] signal in self.received(signal) }
        try server.start()
        watchdog = try notifier.startWatchdog(on: loop)
        logger.info("serving a replay", metadata: [
            "socket": "\(server.socketPath)", "recording": "\(replayer.file ?? "")",
            "waitClients": "\(options.waitClients)",
        ])
        notifier.ready(status: statusLine)
        if let seconds = options.waitLayoutSeconds {
            layoutTimer = try DeadlineTimer(loop: loop) { [unowned self] in self.layoutWaitExpired(seconds) }
            layoutTimer?.arm(at: MonotonicClock.microseconds() + Int64(seconds) * 1_000_000)
        }
        if readyToBegin { begin() }
        try loop.run()
    }

    private var statusLine: String {
        if !started, options.waitLayoutSeconds != nil, !layoutSet {
            return "waiting for \(options.waitClients) subscriber(s) and a layout.set on \(server.socketPath)"
        }
        if !started { return "waiting for \(options.waitClients) subscriber(s) on \(server.socketPath)" }
        if ended { return "replay ended; closing connections" }
        return "replaying to \(subscribers) subscriber(s) on \(server.socketPath)"
    }

    /// Enough clients subscribed and, with `--wait-layout`, a layout set.
    private var readyToBegin: Bool {
        subscribers >= options.waitClients && (options.waitLayoutSeconds == nil || layoutSet)
    }

    /// `--wait-layout-timeout` passed with no `layout.set`: the replay does not begin; every
    /// client is told why and the command fails with the same sentence.
    private func layoutWaitExpired(_ seconds: Int) {
        guard !started, !stopping, !layoutSet else { return }
        let why = "--wait-layout: no client set a layout (layout.set) within \(seconds) s; \(subscribers) client(s) subscribed. "
            + "Load the page that sends its layout (or raise --wait-layout-timeout), then run the replay again"
        waitLayoutExpired = why
        logger.error("no layout came; the replay did not begin", metadata: ["waited": "\(seconds) s"])
        stopping = true
        ended = true
        notifier.stopping(status: "no layout came within \(seconds) s")
        server.shutdown(reason: "stopping", message: why)
    }

    private func begin() {
        started = true
        layoutTimer?.arm(at: nil)
        anchor = MonotonicClock.microseconds()
        logger.info("replay started", metadata: ["subscribers": "\(subscribers)"])
        notifier.status(statusLine)
        publishProduced() // the device added, the reader's warnings
        schedule()
    }

    private func schedule() {
        stepTimer?.arm(at: MonotonicClock.microseconds())
    }

    /// Takes steps until the replay must wait: for the recorded time (`--realtime`), for a
    /// reader's backlog, or for the loop to serve clients (after a batch). The replay begins
    /// here too, once enough clients subscribed.
    private func pump() {
        guard !ended else { return }
        guard started else {
            if beginRequested { begin() }
            return
        }
        var budget = 256
        while budget > 0 {
            budget -= 1
            let now = MonotonicClock.microseconds()
            if options.realtime && !stopping {
                if let time = replayer.nextStepTime {
                    let due = anchor + (time.microseconds - origin.microseconds)
                    if due > now {
                        stepTimer?.arm(at: due)
                        return
                    }
                }
            } else if !stopping {
                let (held, recheck) = server.holdsBack(stallMicroseconds: options.stallMicroseconds)
                if held {
                    // onDrain resumes earlier when a backlog shrinks.
                    stepTimer?.arm(at: recheck)
                    return
                }
            }
            guard replayer.step() else {
                finish()
                return
            }
            publishProduced()
        }
        // Let the loop write to and read from clients before the next batch.
        schedule()
    }

    private func publishProduced() {
        if replayer.hasNotices {
            for notice in replayer.takeNotices() {
                logger.warning("recording or input device warning", metadata: ["notice": "\(notice)"])
            }
        }
        guard !replayer.pipeline.records.isEmpty else { return }
        var batch = take()
        if !batch.released.isEmpty { sink.release(&batch.released) }
        sink.publish(batch)
    }

    /// What the replay's pipeline produced since the last batch, encoded, with what it let go
    /// of; the records emptied.
    private func take() -> JSONLinesBatch {
        lines.consume(replayer.pipeline.records)
        var taken = JSONLinesBatch()
        swap(&taken, &lines.batch)
        taken.released = replayer.pipeline.takeReleased()
        replayer.pipeline.removeRecords()
        return taken
    }

    /// The stream's `warning`s for clients the server dropped.
    private func warnings(_ notices: [ServerNotice]) -> JSONLinesBatch {
        for notice in notices { replayer.pipeline.warn(notice.message) }
        return take()
    }

    /// The malformed line that ended the replay early, if one did (its clients got a warning).
    public var readError: RecordingError? { replayer.readError }

    private func finish() {
        guard !ended else { return }
        ended = true
        stepTimer?.arm(at: nil)
        if let error = replayer.readError {
            logger.error("the recording has a malformed line; the replay ended before it", metadata: ["error": "\(error)"])
        }
        let file = replayer.file ?? "the recording"
        logger.info("replay ended", metadata: ["frames": "\(replayer.pipeline.frameCount)",
                                               "events": "\(server.counters.eventsPublished)"])
        if !stopping { notifier.stopping(status: "replay ended; closing connections") }
        server.shutdown(reason: stopping ? "stopping" : "end",
                        message: stopping ? "gestured is stopping" : "the replay of \(file) has ended")
    }

    /// A signal, as ``DaemonSignal`` says (the same meanings as `gestured run`).
    private func received(_ signal: Int32) {
        DaemonSignal.handle(signal, server: server, logger: logger, status: statusLine) { stop(signal: $0) }
    }

    /// SIGTERM, SIGINT, SIGQUIT: touches still down are cancelled and delivered, clients told, exit 0.
    private func stop(signal: String) {
        guard !stopping else { return }
        stopping = true
        logger.info("stopping", metadata: ["signal": "\(signal)"])
        notifier.stopping(status: "stopping")
        guard started, !ended else {
            ended = true
            server.shutdown(reason: "stopping", message: "gestured is stopping")
            return
        }
        // In real time the input has reached "now"; in virtual time, the last step taken.
        let now = Timestamp(microseconds: origin.microseconds + (MonotonicClock.microseconds() - anchor))
        replayer.requestStop(at: options.realtime ? now : nil)
        while replayer.step() { publishProduced() }
        publishProduced()
        finish()
    }

    // MARK: EventServerOwner

    public var currentLayout: ViewSpec { running.layout }

    public var layoutBasis: PreparedLayout.Basis { replayer.pipeline.basis }

    public func replaceLayout(_ layout: ViewSpec, prepared: PreparedLayout?, reason: String) -> LayoutReplacement {
        if !started, !layoutSet, reason.hasPrefix(EventServer.layoutSetReason) {
            layoutSet = true
            // Begun from the step timer, after the client had its reply.
            if readyToBegin, !stopping {
                beginRequested = true
                schedule()
            }
        }
        publishProduced()
        var replaced = ReleasedStorage()
        let revision = running.replace(with: layout, reason: reason, released: &replaced)
        replayer.pipeline.replaceLayout(prepared ?? PreparedLayout(tree: ViewTree(validated: layout), basis: layoutBasis),
                                        revision: revision, message: "layout replaced: \(reason)",
                                        at: replayer.pipeline.currentTime)
        var output = take()
        var events = sink.forServer(&output)
        events.released.add(contentsOf: replaced)
        return LayoutReplacement(revision: revision, events: events)
    }

    public func setScreen(rotation: ScreenRotation, width: Double?, height: Double?, reason: String,
                          prepared: PreparedLayout?) -> ScreenReplacement {
        let wanted = running.setScreen(rotation: rotation, width: width, height: height,
                                       current: replayer.pipeline.screen, reason: reason)
        let events = applyScreen(rotation: wanted.rotation, size: wanted.size, message: "screen set: \(reason)", prepared: prepared)
        return ScreenReplacement(screen: replayer.pipeline.screen, events: events)
    }

    public func screenWork(rotation: ScreenRotation, width: Double?, height: Double?) -> (@Sendable () -> PreparedLayout)? {
        // Read in place: a copy of the pipeline would share, and then copy, the arena's slots.
        let size = RunningLayout.size(width: width, height: height, current: replayer.pipeline.screen)
        let basis = replayer.pipeline.basis(rotation: rotation, size: size)
        guard basis != layoutBasis else { return nil }
        let tree = replayer.pipeline.tree
        return { PreparedLayout(tree: tree, basis: basis) }
    }

    private func applyScreen(rotation: ScreenRotation, size: Size, message: String, prepared: PreparedLayout? = nil) -> EncodedEvents {
        publishProduced()
        replayer.pipeline.setScreen(rotation: rotation, size: size, message: message, at: replayer.pipeline.currentTime,
                                    prepared: prepared)
        var output = take()
        return sink.forServer(&output)
    }

    public func hitTest(_ point: Point) -> HitTestEvent {
        replayer.pipeline.hitTest(point)
    }

    public func inputStatus() -> InputStatus {
        InputStatus(source: "replay", device: replayer.deviceDescriptionName, path: replayer.file,
                    layoutRevision: running.revision, activeTouches: replayer.pipeline.activeTouchCount,
                    frames: replayer.pipeline.frameCount, time: replayer.pipeline.currentTime.microseconds,
                    screen: replayer.pipeline.screen, routes: replayer.pipeline.routeCounts)
    }

    public var layoutRevision: Int { running.revision }

    public func reloadWork() -> @Sendable () -> ReloadPreparation {
        running.reloadWork(basis: layoutBasis)
    }

    public func reload(origin: String, prepared: ReloadPreparation?) -> ReloadOutcome {
        running.reload(origin: origin, prepared: prepared, notifier: notifier, status: { statusLine },
                       replaceLayout: { replaceLayout($0, prepared: $1, reason: $2) }) {
            applyScreen(rotation: $0.rotation, size: $0.size, message: $1)
        }
    }

    public func announce(_ notices: [ServerNotice]) -> EncodedEvents {
        var output = warnings(notices)
        return sink.forServer(&output)
    }

    public func serverChanged(_ change: ServerChange) {
        switch change {
        case .subscribers(let count):
            subscribers = count
            // Begun from the step timer, not from inside the server's request handler.
            if !started, !stopping, readyToBegin {
                beginRequested = true
                schedule()
            }
        case .tracingDemand(let wanted):
            replayer.pipeline.tracing = options.trace || wanted
        case .drained:
            if started, !ended, !options.realtime { schedule() }
        case .closed:
            loop.stop()
        }
    }
}
