#if canImport(Glibc)
import Glibc
#endif
import EvdevInput
import GestureConfig
import GestureCore
import GestureServer
import GestureSystem
import Logging

/// `gestured run` (SPEC 6, 9, 10): the ``LiveRunner`` and the ``EventServer`` on one
/// ``EventLoop``. The device, the hotplug watcher, the engine's deadlines, the clients, the
/// watchdog and the signals all wake the same loop, so a request that changes the layout runs
/// between two reads of the device, and a loop stuck anywhere stops feeding the watchdog.
///
/// The runner owns the engine; this class carries out the server's requests on it
/// (``EventServerOwner``), encodes the one event stream (``ServerSink``: stdout and the socket
/// share its `seq`) and tells the service manager how things stand. `READY=1` is
/// sent once the socket listens and the device has been looked for: opened, or absent and
/// awaited through hotplug, with a `STATUS=` line that says so (docs/decisions.md, *Service*).
public final class LiveDaemon: EventServerOwner {
    /// How the daemon runs.
    public struct Options: Sendable {
        /// `--trace`: the engine always traces and every subscriber gets the traces.
        public var trace = false
        public var server: EventServer.Options

        public init(server: EventServer.Options) {
            self.server = server
        }
    }

    private let loop: EventLoop
    private let provider: any InputSourceProvider
    private let options: Options
    private let logger: Logger
    private let notifier: ServiceNotifier
    private let server: EventServer
    private let running: RunningLayout
    private let sink: ServerSink
    private let runner: LiveRunner
    private var watchdog: DeadlineTimer?
    /// READY=1 was sent: from then on, plugs and subscribers update the `STATUS=` line.
    private var ready = false
    private var subscribers = 0
    private var stopping = false
    /// True once stopped and every client has been told and closed.
    public private(set) var isClosed = false

    /// - Parameters:
    ///   - provider: finds and opens the device, and signals hotplug.
    ///   - listener: the socket clients connect to (bound, or passed by systemd).
    ///   - stdout: with `--stdout`, where the JSON Lines of the event stream go.
    ///   - clock: now on `CLOCK_MONOTONIC` for the input (a fixed value in tests).
    ///   - serverClock: the socket server's time and timers (``SystemClock`` on `loop` by default).
    ///   - makePanelCopy: makes the virtual panel when a grabbed panel opens (routing,
    ///     ``LiveRunner/virtualPanel(propertiesFile:logger:)``); nil, the default: no copy.
    ///   - panelCopyMode: what goes to the copy (``PanelCopyMode``).
    public init(loop: EventLoop, provider: any InputSourceProvider, configuration: Configuration,
                listener: ListeningSocket, options: Options, logger: Logger,
                notifier: ServiceNotifier = ServiceNotifier(), stdout: (([UInt8]) -> Void)? = nil,
                clock: @escaping () -> Timestamp = { Timestamp(microseconds: MonotonicClock.microseconds()) },
                serverClock: (any LoopClock)? = nil, makePanelCopy: PanelCopyFactory? = nil,
                panelCopyMode: PanelCopyMode = .routed) {
        self.loop = loop
        self.provider = provider
        self.options = options
        self.logger = logger
        self.notifier = notifier
        running = RunningLayout(configuration: configuration, logger: logger)
        var serverOptions = options.server
        serverOptions.traceAll = options.trace
        server = EventServer(loop: loop, clock: serverClock ?? SystemClock(loop: loop), listener: listener,
                             policy: ControlPolicy(socket: configuration.socket), options: serverOptions, logger: logger)
        sink = ServerSink(server: server, stdout: stdout)
        runner = LiveRunner(loop: loop, provider: provider, setup: configuration.pipelineSetup, tracing: options.trace,
                            sink: sink, logger: logger, clock: clock, makePanelCopy: makePanelCopy,
                            panelCopyMode: panelCopyMode)
        sink.deviceChanged = { [unowned self] in self.statusChanged() }
        sink.announce = { [unowned self] notices in self.runner.encodeWarnings(notices.map(\.message)) }
    }

    /// Serves until SIGTERM, SIGINT or SIGQUIT (``stop(reason:)``); SIGHUP reloads the
    /// configuration, SIGUSR1 logs the status, the other signals that would end a process are
    /// ignored with a log line (``DaemonSignal``). Returns once every client has been told and
    /// closed.
    public func run() throws {
        try loop.handleSignals(DaemonSignal.handled) { [unowned self] signal in self.received(signal) }
        try start()
        try loop.run()
    }

    /// A signal, as ``DaemonSignal`` says.
    func received(_ signal: Int32) {
        DaemonSignal.handle(signal, server: server, logger: logger, status: statusLine) { stop(reason: $0) }
    }

    /// Opens the device (or starts waiting for it), starts serving clients and the watchdog,
    /// and says `READY=1`. A device that cannot be opened or used throws (``EvdevError``), as
    /// does a socket that cannot be watched (``SystemError``). ``run()`` calls it; tests that
    /// drive the loop themselves call it instead.
    public func start() throws {
        server.owner = self
        try runner.start()
        try server.start()
        watchdog = try notifier.startWatchdog(on: loop)
        logger.info("serving", metadata: [
            "socket": "\(server.socketPath)", "device": "\(runner.device?.path ?? "none yet")",
        ])
        ready = true
        notifier.ready(status: statusLine)
    }

    /// Before READY=1 the READY message says it all; while stopping, STATUS stays "stopping"
    /// as clients leave.
    private func statusChanged() {
        if ready && !stopping { notifier.status(statusLine) }
    }

    /// Stops (SIGTERM, SIGINT): the touches still down are cancelled and published, every
    /// client is told (`bye`) and closed once it has its last lines; then the loop stops.
    public func stop(reason: String) {
        guard !stopping else { return }
        stopping = true
        logger.info("stopping", metadata: ["reason": "\(reason)"])
        notifier.stopping(status: "stopping")
        runner.stopInput()
        server.shutdown(reason: "stopping", message: "gestured is stopping")
    }

    /// Jobs the server's worker thread has not answered yet (a long request line, a layout
    /// being prepared): tests that drive the loop wait for them.
    public var jobsOffLoop: Int { server.linesBeingParsed }

    /// The `STATUS=` line: the device (or what is awaited) and the subscribers.
    public var statusLine: String {
        let input = runner.device.map { "reading \($0.path) \"\($0.name)\"" }
            ?? "waiting for the touchscreen (\(provider.selectorDescription))"
        return "\(input); \(subscribers) subscriber\(subscribers == 1 ? "" : "s") on \(server.socketPath)"
    }

    // MARK: EventServerOwner

    public var currentLayout: ViewSpec { running.layout }

    public var layoutBasis: PreparedLayout.Basis { runner.layoutBasis }

    public func replaceLayout(_ layout: ViewSpec, prepared: PreparedLayout?, reason: String) -> LayoutReplacement {
        var replaced = ReleasedStorage()
        let revision = running.replace(with: layout, reason: reason, released: &replaced)
        // The pipeline announces it in the stream's numbering; stdout gets it too.
        var output = runner.replaceLayout(prepared ?? PreparedLayout(tree: ViewTree(validated: layout), basis: layoutBasis),
                                          revision: revision, message: "layout replaced: \(reason)")
        var events = sink.forServer(&output)
        events.released.add(contentsOf: replaced)
        return LayoutReplacement(revision: revision, events: events)
    }

    public func setScreen(rotation: ScreenRotation, width: Double?, height: Double?, reason: String,
                          prepared: PreparedLayout?) -> ScreenReplacement {
        let wanted = running.setScreen(rotation: rotation, width: width, height: height, current: runner.screen, reason: reason)
        let events = applyScreen(rotation: wanted.rotation, size: wanted.size, message: "screen set: \(reason)", prepared: prepared)
        return ScreenReplacement(screen: runner.screen, events: events)
    }

    public func screenWork(rotation: ScreenRotation, width: Double?, height: Double?) -> (@Sendable () -> PreparedLayout)? {
        let basis = runner.basis(rotation: rotation, size: RunningLayout.size(width: width, height: height, current: runner.screen))
        guard basis != layoutBasis else { return nil }
        let tree = runner.tree
        return { PreparedLayout(tree: tree, basis: basis) }
    }

    /// The runner's pipeline takes the screen and announces it in the stream (stdout too).
    private func applyScreen(rotation: ScreenRotation, size: Size, message: String, prepared: PreparedLayout? = nil) -> EncodedEvents {
        var output = runner.setScreen(rotation: rotation, size: size, message: message, prepared: prepared)
        return sink.forServer(&output)
    }

    public func hitTest(_ point: Point) -> HitTestEvent {
        runner.hitTest(point)
    }

    public func inputStatus() -> InputStatus {
        let device = runner.device
        return InputStatus(source: "device", device: device?.name, path: device?.path,
                           layoutRevision: running.revision, activeTouches: runner.activeTouchCount,
                           frames: runner.frameCount, time: runner.currentTime.microseconds,
                           screen: runner.screen, routes: runner.routeCounts)
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
        var output = runner.encodeWarnings(notices.map(\.message))
        return sink.forServer(&output)
    }

    public func serverChanged(_ change: ServerChange) {
        switch change {
        case .subscribers(let count):
            subscribers = count
            statusChanged()
        case .tracingDemand(let wanted):
            runner.tracing = options.trace || wanted
        case .drained:
            break
        case .closed:
            isClosed = true
            watchdog = nil
            loop.stop()
        }
    }
}

@available(*, unavailable, message: "a LiveDaemon lives on its event loop's thread")
extension LiveDaemon: Sendable {}
