#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureCore
import GestureServer
import GestureSystem
import Logging

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
public final class SocketReplay: EventServerDelegate {
    /// How a socket replay runs.
    public struct Options: Sendable {
        public var waitClients = 1
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
    private let running: RunningLayout
    private let options: Options
    private let logger: Logger
    private let notifier: ServiceNotifier
    private let loop: EventLoop
    private let server: EventServer
    private var stepTimer: DeadlineTimer?
    private var watchdog: DeadlineTimer?
    private var started = false
    private var ended = false
    private var stopping = false
    private var produced: [OutputEvent] = []
    /// `--realtime`: the monotonic time the recording's first event maps to.
    private var anchor: Int64 = 0
    private let origin: Timestamp

    public init(replayer: Replayer, configuration: Configuration, listener: ListeningSocket, options: Options,
                logger: Logger, notifier: ServiceNotifier = ServiceNotifier()) throws(SystemError) {
        self.replayer = replayer
        running = RunningLayout(configuration: configuration, logger: logger)
        self.options = options
        self.logger = logger
        self.notifier = notifier
        origin = replayer.recording.events.first?.time ?? .zero
        loop = try EventLoop()
        var serverOptions = options.server
        serverOptions.traceAll = options.trace
        server = EventServer(loop: loop, listener: listener, policy: ControlPolicy(socket: configuration.socket),
                             options: serverOptions, logger: logger)
    }

    /// Serves clients and replays; returns when the replay has ended (or SIGTERM/SIGINT
    /// stopped it) and every client has been told and closed.
    public func run() throws(SystemError) {
        server.delegate = self
        server.notifier = notifier
        server.statusLine = { [unowned self] in self.statusLine }
        server.onSubscribersChanged = { [unowned self] count in
            if !self.started, !self.stopping, count >= self.options.waitClients { self.begin() }
        }
        server.onDrain = { [unowned self] in
            if self.started, !self.ended, !self.options.realtime { self.schedule() }
        }
        stepTimer = try DeadlineTimer(loop: loop) { [unowned self] in self.pump() }
        try loop.handleSignals([SIGTERM, SIGINT, SIGHUP]) { [unowned self] signal in
            if signal == SIGHUP {
                self.server.reload(origin: "SIGHUP")
            } else {
                self.stop(signal: signal)
            }
        }
        try server.start()
        watchdog = try notifier.startWatchdog(on: loop)
        logger.info("serving a replay", metadata: [
            "socket": "\(server.socketPath)", "recording": "\(replayer.recording.sourcePaths.first ?? "")",
            "waitClients": "\(options.waitClients)",
        ])
        notifier.ready(status: statusLine)
        if options.waitClients <= 0 { begin() }
        try loop.run()
    }

    private var statusLine: String {
        if !started { return "waiting for \(options.waitClients) subscriber(s) on \(server.socketPath)" }
        if ended { return "replay ended; closing connections" }
        return "replaying to \(server.subscriberCount) subscriber(s) on \(server.socketPath)"
    }

    private func begin() {
        started = true
        anchor = MonotonicClock.microseconds()
        logger.info("replay started", metadata: ["subscribers": "\(server.subscriberCount)"])
        notifier.status(statusLine)
        replayer.start(into: &produced)
        publishProduced()
        schedule()
    }

    private func schedule() {
        stepTimer?.arm(at: MonotonicClock.microseconds())
    }

    /// Takes steps until the replay must wait: for the recorded time (`--realtime`), for a
    /// reader's backlog, or for the loop to serve clients (after a batch).
    private func pump() {
        guard started, !ended else { return }
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
                let (held, recheck) = server.holdsBack(now: now, stallMicroseconds: options.stallMicroseconds)
                if held {
                    // onDrain resumes earlier when a backlog shrinks.
                    stepTimer?.arm(at: recheck)
                    return
                }
            }
            guard replayer.step(into: &produced) else {
                finish()
                return
            }
            publishProduced()
        }
        // Let the loop write to and read from clients before the next batch.
        schedule()
    }

    private func publishProduced() {
        guard !produced.isEmpty else { return }
        server.publish(produced)
        produced.removeAll(keepingCapacity: true)
    }

    private func finish() {
        guard !ended else { return }
        ended = true
        stepTimer?.arm(at: nil)
        let file = replayer.recording.sourcePaths.first ?? "the recording"
        logger.info("replay ended", metadata: ["frames": "\(replayer.frameCount)", "events": "\(server.counters.eventsPublished)"])
        if !stopping { notifier.stopping(status: "replay ended; closing connections") }
        server.onClosed = { [unowned self] in self.loop.stop() }
        server.shutdown(reason: stopping ? "stopping" : "end",
                        message: stopping ? "gestured is stopping" : "the replay of \(file) has ended")
    }

    /// SIGTERM/SIGINT: touches still down are cancelled and delivered, clients told, exit 0.
    private func stop(signal: Int32) {
        guard !stopping else { return }
        stopping = true
        logger.info("stopping", metadata: ["signal": "\(signal == SIGTERM ? "SIGTERM" : "SIGINT")"])
        notifier.stopping(status: "stopping")
        guard started, !ended else {
            ended = true
            server.onClosed = { [unowned self] in self.loop.stop() }
            server.shutdown(reason: "stopping", message: "gestured is stopping")
            return
        }
        // In real time the input has reached "now"; in virtual time, the last step taken.
        let now = Timestamp(microseconds: origin.microseconds + (MonotonicClock.microseconds() - anchor))
        replayer.requestStop(at: options.realtime ? now : nil)
        while replayer.step(into: &produced) { publishProduced() }
        publishProduced()
        finish()
    }

    // MARK: EventServerDelegate

    public var currentLayout: ViewSpec { running.layout }

    public func replaceLayout(_ layout: ViewSpec, reason: String) -> Int {
        replayer.replaceLayout(ViewTree(validated: layout))
        server.publish(running.replace(with: layout, reason: reason, at: replayer.currentTime))
        return running.revision
    }

    public func hitTest(_ point: Point) -> HitTestEvent {
        replayer.engine.hitTest(point, at: replayer.currentTime)
    }

    public func inputStatus() -> InputStatus {
        InputStatus(source: "replay", device: replayer.deviceDescriptionName, path: replayer.recording.sourcePaths.first,
                    layoutRevision: running.revision, activeTouches: replayer.engine.activeTouchCount,
                    frames: replayer.frameCount, time: replayer.currentTime.microseconds,
                    screen: running.configuration.screen)
    }

    public func reload() -> Result<ReloadReport, ConfigurationError> {
        running.reload { _ = replaceLayout($0, reason: $1) }
    }

    public func tracingDemandChanged(_ wanted: Bool) {
        replayer.setTracing(options.trace || wanted)
    }
}
