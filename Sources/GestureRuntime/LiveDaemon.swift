#if canImport(Glibc)
import Glibc
#endif
import EvdevInput
import GestureConfig
import GestureCore
import GestureServer
import GestureSystem
import Logging

/// `gestured run` (docs/command-line.md, "gestured run"): the ``LiveRunner`` and the ``EventServer`` on one
/// ``EventLoop``. The device, the hotplug watcher, the engine's deadlines, the clients, the
/// watchdog and the signals all wake the same loop, so a request that changes the layout runs
/// between two reads of the device, and a loop stuck anywhere stops feeding the watchdog.
///
/// Each runner owns its screen's engine; the ``ServerHost`` carries out the server's requests on
/// the screen each names (``EventServerOwner``, implemented once for this daemon and a socket
/// replay), the runners encode the one event stream (``ServerSink``: stdout and the socket
/// share its `seq`), and this class tells the service manager how things stand. `READY=1` is
/// sent once the socket listens and the device has been looked for: opened, or absent and
/// awaited through hotplug, with a `STATUS=` line that says so (docs/decisions.md, *Service*).
public final class LiveDaemon: ServerHostDriver {
    /// How the daemon runs.
    public struct Options: Sendable {
        /// `--trace`: the engine always traces and every subscriber gets the traces.
        public var trace = false
        public var server: EventServer.Options

        public init(server: EventServer.Options) {
            self.server = server
        }
    }

    /// One screen's input: its id and what finds its panel.
    public struct ScreenInput {
        public var id: String
        public var provider: any InputSourceProvider

        public init(id: String, provider: any InputSourceProvider) {
            (self.id, self.provider) = (id, provider)
        }
    }

    private let loop: EventLoop
    private let providers: [any InputSourceProvider]
    /// The screens' ids, in the configuration's order.
    public let screenIDs: [String]
    private let options: Options
    private let logger: Logger
    private let notifier: ServiceNotifier
    private let server: EventServer
    private let host: ServerHost
    private let sink: ServerSink
    /// One runner (a pipeline, its device, its deadlines) per screen, in the configuration's
    /// order, all on `loop` and all writing the one stream.
    private let runners: [LiveRunner]
    /// With several screens, the turn that reads and steps them all in input time.
    private let turns: LiveScreens?
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
    public convenience init(loop: EventLoop, provider: any InputSourceProvider, configuration: Configuration,
                            listener: ListeningSocket, options: Options, logger: Logger,
                            notifier: ServiceNotifier = ServiceNotifier(), stdout: (([UInt8]) -> Void)? = nil,
                            clock: @escaping () -> Timestamp = { Timestamp(microseconds: MonotonicClock.microseconds()) },
                            serverClock: (any LoopClock)? = nil, makePanelCopy: PanelCopyFactory? = nil,
                            panelCopyMode: PanelCopyMode = .routed) {
        self.init(loop: loop, screens: [ScreenInput(id: configuration.screens[0].id, provider: provider)],
                  configuration: configuration, listener: listener, options: options, logger: logger, notifier: notifier,
                  stdout: stdout, clock: clock, serverClock: serverClock, makePanelCopy: makePanelCopy,
                  panelCopyMode: panelCopyMode)
    }

    /// A daemon of one or more screens (docs/architecture.md, "The host and its pipelines"):
    /// `screens` gives each configured screen, in the configuration's order, what finds its panel.
    public init(loop: EventLoop, screens: [ScreenInput], configuration: Configuration,
                listener: ListeningSocket, options: Options, logger: Logger,
                notifier: ServiceNotifier = ServiceNotifier(), stdout: (([UInt8]) -> Void)? = nil,
                clock: @escaping () -> Timestamp = { Timestamp(microseconds: MonotonicClock.microseconds()) },
                serverClock: (any LoopClock)? = nil, makePanelCopy: PanelCopyFactory? = nil,
                panelCopyMode: PanelCopyMode = .routed) {
        precondition(screens.count == configuration.screens.count, "one input per configured screen")
        self.loop = loop
        providers = screens.map(\.provider)
        screenIDs = screens.map(\.id)
        self.options = options
        self.logger = logger
        self.notifier = notifier
        var serverOptions = options.server
        serverOptions.traceAll = options.trace
        server = EventServer(loop: loop, clock: serverClock ?? SystemClock(loop: loop), listener: listener,
                             policy: ControlPolicy(socket: configuration.socket), options: serverOptions, logger: logger)
        let sink = ServerSink(server: server, stdout: stdout)
        self.sink = sink
        let stream = StreamLines(writesRoutes: configuration.routing != nil)
        let named = configuration.isMultiScreen
        runners = zip(screens, configuration.screens).enumerated().map { index, pair in
            let (input, screen) = pair
            return LiveRunner(loop: loop, provider: input.provider, setup: configuration.pipelineSetup(of: screen),
                       tracing: options.trace, sink: sink, logger: named ? logger.screen(input.id) : logger, clock: clock,
                       makePanelCopy: makePanelCopy, panelCopyMode: panelCopyMode, stream: stream,
                       screenID: named ? input.id : nil, ownsTimer: index > 0)
        }
        if runners.count > 1 {
            let turns = LiveScreens(loop: loop, runners: runners, sink: sink, stream: stream, clock: clock)
            for runner in runners { runner.turn = { [unowned turns] in turns.schedule() } }
            self.turns = turns
        } else {
            turns = nil
        }
        host = ServerHost(configuration: configuration,
                          screens: zip(configuration.screens, runners).map { ($0, $1 as any HostedPipeline) },
                          sink: sink, notifier: notifier, logger: logger)
        let first = runners[0]
        sink.deviceChanged = { [unowned self] in self.statusChanged() }
        sink.announce = { [unowned first] notices in first.encodeWarnings(notices.map(\.message)) }
        host.driver = self
    }

    /// The device nodes the screens other than `index` read now: a screen never opens another's
    /// panel (``EvdevDeviceFinder/takenPaths``).
    public func devicePaths(exceptScreen index: Int) -> Set<String> {
        var paths = Set<String>()
        for (other, runner) in runners.enumerated() where other != index {
            if let path = runner.device?.path { paths.insert(path) }
        }
        return paths
    }

    /// Each screen's open device, nil while it waits for its panel (`gestured devices`, status).
    public var screenDevices: [(id: String, device: (name: String, path: String)?)] {
        zip(screenIDs, runners).map { ($0, $1.device) }
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
        server.owner = host
        for runner in runners { try runner.start() }
        try server.start()
        watchdog = try notifier.startWatchdog(on: loop)
        logger.info("serving", metadata: [
            "socket": "\(server.socketPath)",
            "device": "\(runners.map { $0.device?.path ?? "none yet" }.joined(separator: ", "))",
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
        for runner in runners { runner.stopInput() }
        server.shutdown(reason: "stopping", message: "gestured is stopping")
    }

    /// Jobs the server's worker thread has not answered yet (a long request line, a layout
    /// being prepared): tests that drive the loop wait for them.
    public var jobsOffLoop: Int { server.linesBeingParsed }

    /// The `STATUS=` line: the device (or what is awaited) and the subscribers.
    public var statusLine: String {
        let named = runners.count > 1
        let input = zip(screenIDs, zip(runners, providers)).map { id, pair in
            let (runner, provider) = pair
            let state = runner.device.map { "reading \($0.path) \"\($0.name)\"" }
                ?? "waiting for the touchscreen (\(provider.selectorDescription))"
            return named ? "\(id): \(state)" : state
        }.joined(separator: ", ")
        return "\(input); \(subscribers) subscriber\(subscribers == 1 ? "" : "s") on \(server.socketPath)"
    }

    // MARK: ServerHostDriver

    public func inputStatus() -> InputStatus {
        let runner = runners[0]
        let device = runner.device
        var status = InputStatus(source: "device", device: device?.name, path: device?.path,
                                 layoutRevision: host.revision(of: 0), activeTouches: runner.activeTouchCount,
                                 frames: runner.frameCount, time: runner.currentTime.microseconds,
                                 screen: runner.screen, routes: runner.routeCounts)
        if runners.count > 1 {
            status.screens = zip(screenIDs, runners).map { id, runner in
                ScreenStatus(id: id, device: runner.device?.name, path: runner.device?.path,
                             activeTouches: runner.activeTouchCount, frames: runner.frameCount, screen: runner.screen)
            }
        }
        return status
    }

    func willReplaceLayout(screen: Int, reason: String) {}

    public func serverChanged(_ change: ServerChange) {
        switch change {
        case .subscribers(let count):
            subscribers = count
            statusChanged()
        case .tracingDemand(let wanted):
            for runner in runners { runner.tracing = options.trace || wanted }
        case .contactsDemand(let wanted):
            for runner in runners { runner.listsContacts = wanted }
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

extension Logger {
    /// This logger with every line naming the screen `id` (a daemon of several screens).
    func screen(_ id: String) -> Logger {
        var logger = self
        logger[metadataKey: "screen"] = "\(id)"
        return logger
    }
}
