#if canImport(Glibc)
import Glibc
#endif
import CommandLineParsing
import EvdevInput
import GestureConfig
import GestureCore
import GestureRuntime
import GestureServer
import GestureSystem
import Logging

/// `gestured run`: the daemon on the live device (docs/command-line.md, "gestured run"; docs/service.md).
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "run",
        abstract: "Read the touchscreen and publish the resolved events to socket clients.",
        discussion: """
            Opens the configured device (or --device), runs every frame through the engine and \
            publishes the events to the clients of the socket (socket.path in the configuration, \
            --socket, or the socket systemd passes with LISTEN_FDS); with --stdout, also as JSON \
            Lines on standard output. A removed device cancels its touches; gestured keeps serving \
            clients and waits for it to come back. Tells systemd READY=1 once the socket listens \
            and the device is open or awaited. SIGHUP re-reads the configuration. SIGTERM or \
            SIGINT cancels the touches still down, tells every client and exits 0. A configuration \
            that cannot be used exits with status 78 (EX_CONFIG), on which the unit does not restart; \
            started by its socket, it first tells the clients that connect during 2 s why \
            (bye, reason configuration).
            """)

    static var arguments: [Argument<Self>] {
        [.option("config", \.config, help: "The configuration file."),
         .option("device", \.device, help: "A device node or udev symlink to read instead of the configured device."),
         .option("socket", \.socket, valueName: "path",
                 help: "Serve clients on this socket instead of the configured socket.path "
                     + "(socket.group is then applied only if it exists)."),
         .flag("stdout", \.stdout, help: "Also write the events as JSON Lines on standard output."),
         .flag("trace", \.trace,
               help: "Also emit a hitTest event with the trace for every touch, and failed gesture transitions."),
         .option("log-level", \.logLevel, valueName: "level",
                 help: "Log messages of this level and above: trace, debug, info, notice, warning, error or critical.")]
    }

    var config = Configuration.defaultPath
    var device: String?
    var socket: String?
    var stdout = false
    var trace = false
    var logLevel = "info"

    func validate() throws(ValidationError) {
        if let socket { try validateSocketPath(socket) }
        if JournalLogHandler.level(named: logLevel) == nil {
            throw ValidationError("--log-level \(logLevel): not a level; use trace, debug, info, notice, warning, error or critical")
        }
    }

    func run() throws {
        // A configuration error is the operator's to fix: exit 78 (EX_CONFIG), on which the
        // unit does not restart, after telling the socket's clients why.
        let level = JournalLogHandler.level(named: logLevel) ?? .info
        let configuration: Configuration
        do {
            configuration = try ConfigurationLoader.load(path: config)
        } catch {
            throw ConfigurationRefusal.refuse(error.description, configurationPath: config, logLevel: level)
        }
        let match = device.map { DeviceSelector.path($0) } ?? configuration.device
        JournalLogHandler.bootstrap(level: level)
        let logger = Logger(label: "gestured")
        // A client that vanishes must be an EPIPE to handle, never a signal that kills us.
        try Signals.ignoreBrokenPipe()
        // The configured socket is the installation's: its group must exist. A --socket given
        // by hand is a trial outside the installation, like `replay --socket`.
        let listener = try openListener(path: socket ?? configuration.socket.path, group: configuration.socket.group,
                                        logger: logger, groupIsRequired: socket == nil)
        var options = LiveDaemon.Options(server: EventServer.Options(version: GesturedVersion.string))
        options.trace = trace
        do {
            let loop = try EventLoop()
            // One finder per screen; --device replaces the first screen's panel (the only one's).
            var finders: [EvdevDeviceFinder] = []
            for (index, screen) in configuration.screens.enumerated() {
                finders.append(try EvdevDeviceFinder(match: index == 0 ? match : screen.device, grab: configuration.grab))
            }
            let output = OutputWriter.standardOutput()
            let copy = PanelCopyDebug(environment: getenv(PanelCopyDebug.variable).map { String(cString: $0) })
            if let copy { logger.warning("debugging: the virtual panel is on", metadata: ["mode": "\(copy.mode)"]) }
            let screens = zip(configuration.screens, finders).map { LiveDaemon.ScreenInput(id: $0.id, provider: $1) }
            let daemon = LiveDaemon(loop: loop, screens: screens, configuration: configuration, listener: listener,
                                    options: options, logger: logger, stdout: stdout ? { bytes in
                                        // Socket clients go on whatever happens to stdout; say it once.
                                        let failedBefore = output.failure != nil
                                        output.write(bytes)
                                        if !failedBefore, let failure = output.failure {
                                            logger.error("cannot write the events to standard output; the socket goes on",
                                                         metadata: ["error": "\(failure)"])
                                        }
                                    } : nil,
                                    makePanelCopy: configuration.routing != nil || copy != nil
                                        ? LiveRunner.virtualPanel(logger: logger) : nil,
                                    panelCopyMode: copy?.mode ?? .routed)
            for (index, finder) in finders.enumerated() {
                finder.takenPaths = { [unowned daemon] in daemon.devicePaths(exceptScreen: index) }
            }
            try daemon.run()
        } catch let error as EvdevError {
            throw failure("gestured: \(error)")
        } catch let error as SystemError {
            throw failure("gestured: \(error)")
        }
    }
}

/// The hidden switch that turns the virtual panel on without the configuration (for the kernel
/// tests, tools/vmtest/kernel-tests.sh): `GESTURED_DEBUG_PANEL_COPY=routed` makes the copy and
/// writes what routing forwards, `=pass-through` writes every frame read to it. Not a setting:
/// the configuration's `routing` turns the copy on.
struct PanelCopyDebug {
    static let variable = "GESTURED_DEBUG_PANEL_COPY"
    var mode: PanelCopyMode

    init?(environment value: String?) {
        switch value {
        case "routed": mode = .routed
        case "pass-through": mode = .passThrough
        default: return nil
        }
    }
}
