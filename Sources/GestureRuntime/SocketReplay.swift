#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureCore
import GestureServer
import GestureSystem
import Logging
import Recordings

/// `gestured replay --socket` (docs/command-line.md, "gestured replay"): a replay that publishes to socket
/// subscribers instead of stdout, so the whole protocol can be tried and tested without a touchscreen. It
/// waits until `waitClients` clients have subscribed, replays, and exits once the replay has ended
/// and every queue is written (or its client dropped).
///
/// In virtual time the replay goes as fast as its subscribers read: it waits while a
/// subscriber that is still reading has a backlog, so a normal reader is never outrun; a
/// subscriber that takes nothing for `stallMicroseconds` stops holding it back and is dropped
/// when its queue overflows, as live. With `--realtime`, frames are published at their
/// recorded times and nobody holds the replay back, exactly as a live device would.
///
/// With one recording per screen (`--screen ID=RECORDING`), each screen replays through its own
/// pipeline and their steps are merged by input time as ``MergedReplay`` merges them (ties: the
/// configuration's order), into one stream with one `seq`, each event naming its screen; the
/// requests reach the screen they name through the ``ServerHost``, as live.
public final class SocketReplay: ServerHostDriver {
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

    /// Each screen's replayer, in the configuration's order.
    private let screens: [ReplayScreen]
    private let host: ServerHost
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

    /// A replay of one recording, as the configuration's first screen (the only one, or the
    /// first of several: its events then name no screen, as a one-screen daemon's).
    public convenience init(replayer: Replayer, configuration: Configuration, listener: ListeningSocket, options: Options,
                            logger: Logger, notifier: ServiceNotifier = ServiceNotifier()) throws(SystemError) {
        try self.init(screens: [(configuration.screens[0].id, replayer)], configuration: configuration, listener: listener,
                      options: options, logger: logger, notifier: notifier)
    }

    /// A replay of one recording per screen (`--screen ID=RECORDING`): `screens` in the
    /// configuration's order, each id one of its screens'. With more than one, every event
    /// names its screen.
    public init(screens: [(id: String, replayer: Replayer)], configuration: Configuration, listener: ListeningSocket,
                options: Options, logger: Logger, notifier: ServiceNotifier = ServiceNotifier()) throws(SystemError) {
        precondition(!screens.isEmpty, "a replay has at least one screen")
        self.options = options
        self.logger = logger
        self.notifier = notifier
        origin = screens.map(\.replayer.start).min()!
        loop = try EventLoop()
        var serverOptions = options.server
        serverOptions.traceAll = options.trace
        server = EventServer(loop: loop, clock: SystemClock(loop: loop), listener: listener,
                             policy: ControlPolicy(socket: configuration.socket), options: serverOptions, logger: logger)
        let sink = ServerSink(server: server, stdout: nil)
        self.sink = sink
        let stream = StreamLines(writesRoutes: configuration.routing != nil)
        let named = screens.count > 1
        self.screens = screens.map { ReplayScreen(id: named ? $0.id : nil, replayer: $0.replayer, stream: stream, sink: sink,
                                                  logger: named ? logger.screen($0.id) : logger) }
        host = ServerHost(configuration: configuration, screens: zip(screens, self.screens).map { pair, screen in
            (configuration.screen(id: pair.id) ?? configuration.screens[0], screen as any HostedPipeline)
        }, sink: sink, notifier: notifier, logger: logger)
        host.driver = self
    }

    /// The recordings, as messages name them.
    private var recordings: String {
        screens.map { $0.replayer.file ?? "the recording" }.joined(separator: ", ")
    }

    /// Serves clients and replays; returns when the replay has ended (or SIGTERM/SIGINT
    /// stopped it) and every client has been told and closed.
    public func run() throws(SystemError) {
        server.owner = host
        let first = screens[0]
        sink.announce = { [unowned first] notices in first.encodeWarnings(notices.map(\.message)) }
        stepTimer = try DeadlineTimer(loop: loop) { [unowned self] in self.pump() }
        try loop.handleSignals(DaemonSignal.handled) { [unowned self] signal in self.received(signal) }
        try server.start()
        watchdog = try notifier.startWatchdog(on: loop)
        logger.info("serving a replay", metadata: [
            "socket": "\(server.socketPath)", "recording": "\(screens.map { $0.replayer.file ?? "" }.joined(separator: ", "))",
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

    var statusLine: String {
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
        for screen in screens { screen.publishProduced() } // the device added, the reader's warnings
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
            guard let index = nextScreen() else {
                finish()
                return
            }
            let screen = screens[index]
            if options.realtime && !stopping {
                if let time = screen.replayer.nextStepTime {
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
            guard screen.replayer.step() else { continue }
            screen.publishProduced()
        }
        // Let the loop write to and read from clients before the next batch.
        schedule()
    }

    /// The screen that steps next: the one whose next step (a raw event, a deadline, the end of
    /// its recording) comes first in input time, of two at once the first in the configuration;
    /// nil once every screen has finished. As ``MergedReplay`` chooses, so a socket replay of
    /// several screens sends the lines a replay to stdout prints.
    private func nextScreen() -> Int? {
        var best: Int?
        var bestTime = Timestamp(microseconds: .max)
        for index in screens.indices {
            let screen = screens[index]
            guard !screen.replayer.isFinished else { continue }
            let time = screen.replayer.nextStepTime ?? screen.replayer.pipeline.currentTime
            if best == nil || time < bestTime {
                best = index
                bestTime = time
            }
        }
        return best
    }

    /// The malformed line that ended the replay early, if one did (its clients got a warning).
    public var readError: RecordingError? { screens.lazy.compactMap(\.replayer.readError).first }

    private func finish() {
        guard !ended else { return }
        ended = true
        stepTimer?.arm(at: nil)
        for screen in screens {
            if let error = screen.replayer.readError {
                screen.logger.error("the recording has a malformed line; the replay ended before it", metadata: ["error": "\(error)"])
            }
        }
        let file = recordings
        logger.info("replay ended", metadata: ["frames": "\(screens.map(\.replayer.pipeline.frameCount).reduce(0, +))",
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
        for screen in screens { screen.replayer.requestStop(at: options.realtime ? now : nil) }
        while let index = nextScreen() {
            _ = screens[index].replayer.step()
            screens[index].publishProduced()
        }
        for screen in screens { screen.publishProduced() }
        finish()
    }

    // MARK: ServerHostDriver

    func willReplaceLayout(screen: Int, reason: String) {
        if !started, !layoutSet, reason.hasPrefix(EventServer.layoutSetReason) {
            layoutSet = true
            // Begun from the step timer, after the client had its reply.
            if readyToBegin, !stopping {
                beginRequested = true
                schedule()
            }
        }
    }

    public func inputStatus() -> InputStatus {
        let first = screens[0]
        var status = InputStatus(source: "replay", device: first.replayer.deviceDescriptionName, path: first.replayer.file,
                                 layoutRevision: host.revision(of: 0), activeTouches: first.replayer.pipeline.activeTouchCount,
                                 frames: first.replayer.pipeline.frameCount,
                                 time: first.replayer.pipeline.currentTime.microseconds,
                                 screen: first.replayer.pipeline.screen, routes: first.replayer.pipeline.routeCounts)
        if screens.count > 1 {
            status.screens = zip(host.screenIDs, screens).map { id, screen in
                ScreenStatus(id: id, device: screen.replayer.deviceDescriptionName, path: screen.replayer.file,
                             activeTouches: screen.replayer.pipeline.activeTouchCount,
                             frames: screen.replayer.pipeline.frameCount, screen: screen.replayer.pipeline.screen)
            }
        }
        return status
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
            for screen in screens { screen.replayer.pipeline.tracing = options.trace || wanted }
        case .contactsDemand(let wanted):
            for screen in screens { screen.replayer.pipeline.listsContacts = wanted }
        case .drained:
            if started, !ended, !options.realtime { schedule() }
        case .closed:
            loop.stop()
        }
    }
}

@available(*, unavailable, message: "a SocketReplay lives on its event loop's thread")
extension SocketReplay: Sendable {}

/// One screen of a socket replay: its recording's ``Replayer``, whose records go into the
/// replay's one stream (``StreamLines``: one `seq`), named by the screen when there are
/// several, and out through the server's sink. The ``ServerHost`` reaches into its pipeline
/// between two steps (``HostedPipeline``).
final class ReplayScreen: HostedPipeline {
    /// Written into its events with several screens; nil with one.
    let id: String?
    /// Reached in place through this class: a replayer holds its pipeline inline (kilobytes).
    var replayer: Replayer
    let logger: Logger
    private let stream: StreamLines
    private let sink: ServerSink

    init(id: String?, replayer: Replayer, stream: StreamLines, sink: ServerSink, logger: Logger) {
        (self.id, self.replayer, self.stream, self.sink, self.logger) = (id, replayer, stream, sink, logger)
    }

    /// Publishes what the pipeline produced since the last batch, and logs the notices.
    func publishProduced() {
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

    /// What the pipeline produced since the last batch, encoded, with what it let go of; the
    /// records emptied.
    private func take() -> JSONLinesBatch {
        stream.lines.screen = id
        stream.lines.consume(replayer.pipeline.records)
        var taken = JSONLinesBatch()
        swap(&taken, &stream.lines.batch)
        taken.released = replayer.pipeline.takeReleased()
        replayer.pipeline.removeRecords()
        return taken
    }

    // MARK: HostedPipeline

    var layoutBasis: PreparedLayout.Basis { replayer.pipeline.basis }

    func basis(rotation: ScreenRotation, size: Size) -> PreparedLayout.Basis {
        replayer.pipeline.basis(rotation: rotation, size: size)
    }

    var tree: ViewTree { replayer.pipeline.tree }

    var screen: ScreenGeometry { replayer.pipeline.screen }

    func replaceLayout(_ prepared: PreparedLayout, revision: Int, hash: LayoutHash, message: String) -> JSONLinesBatch {
        publishProduced()
        replayer.pipeline.replaceLayout(prepared, revision: revision, hash: hash, message: message,
                                        at: replayer.pipeline.currentTime)
        return take()
    }

    func setScreen(rotation: ScreenRotation, size: Size, message: String, prepared: PreparedLayout?) -> JSONLinesBatch {
        publishProduced()
        replayer.pipeline.setScreen(rotation: rotation, size: size, message: message, at: replayer.pipeline.currentTime,
                                    prepared: prepared)
        return take()
    }

    func hitTest(_ point: Point) -> HitTestEvent {
        replayer.pipeline.hitTest(point)
    }

    func encodeWarnings(_ messages: [String]) -> JSONLinesBatch {
        for message in messages { replayer.pipeline.warn(message) }
        return take()
    }
}

@available(*, unavailable, message: "a ReplayScreen lives on its event loop's thread")
extension ReplayScreen: Sendable {}
