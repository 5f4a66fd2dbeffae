#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GestureConfig
import GestureServer
import Logging
import WebBridge

/// `gestured-web`: the web bridge (docs/web.md, "The bridge, `gestured-web`"), a program of its own so that
/// the daemon never links SwiftNIO. Argument parsing and wiring only; the bridge is `WebBridge`.
@main
struct GesturedWeb: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestured-web",
        abstract: "Serve gestured to web pages: the client module and one WebSocket per page.",
        discussion: """
            Serves GET /gestured.js (the client module) and GET /socket (a WebSocket) on \
            web.listen (default 127.0.0.1:7300). Each WebSocket is one session on gestured's \
            socket, speaking its protocol one JSON object per text message. Pages whose origin \
            is not in web.origins get HTTP 403; with web.token set, layout.set, view.update, \
            screen.set and reload need a connection opened with ?token=…. Tells systemd \
            READY=1 once it listens; SIGTERM or SIGINT closes every WebSocket and exits 0; \
            SIGHUP re-reads the web section for new connections; other signals that would \
            end it (SIGUSR1, SIGUSR2, SIGALRM, …) are logged and ignored. A configuration \
            it cannot use exits with status 78 (EX_CONFIG), on which the unit does not restart.
            """,
        version: "0.1.0")

    /// sysexits.h's `EX_CONFIG`, as `gestured run` exits on its configuration's errors: the
    /// unit does not restart on it (`RestartPreventExitStatus=78`), since the file is the same.
    static let configurationError = ExitCode(78)

    @Option(help: "The configuration file (its web section, and socket.path).")
    var config: String = Configuration.defaultPath

    @Option(help: ArgumentHelp("Listen on this address instead of web.listen (port 0: any free port).",
                               valueName: "host:port"))
    var listen: String?

    @Option(help: ArgumentHelp("gestured's socket instead of socket.path.", valueName: "path"))
    var socket: String?

    func run() throws {
        let (configuration, web): (Configuration, WebConfig)
        do {
            (configuration, web) = try readConfiguration()
        } catch {
            printError("\(error)")
            throw Self.configurationError
        }
        JournalLogHandler.bootstrap()
        let logger = Logger(label: "gestured-web")
        // A browser that vanishes must be an EPIPE to handle, never a signal that kills us.
        signal(SIGPIPE, SIG_IGN)
        BridgeSignals.ignoreProfilingSignal()
        // The signals with a meaning, and those that would end the bridge by mistake, are
        // taken by sigwaitinfo on this thread: block them before the event loop's thread
        // starts, so it inherits the mask and never runs a handler (docs/web.md § Signals).
        var waited = sigset_t()
        sigemptyset(&waited)
        for signal in BridgeSignals.waited { sigaddset(&waited, signal) }
        pthread_sigmask(SIG_BLOCK, &waited, nil)

        let options = BridgeOptions(socketPath: socket ?? configuration.socket.path, web: web, version: "0.1.0")
        let server = BridgeServer(options: options, logger: logger)
        let address: String
        do {
            address = try server.start()
        } catch {
            printError("gestured-web: cannot listen on \(web.listen): \(error)")
            throw ExitCode.failure
        }
        let notifier = ServiceNotifier()
        if let usec = notifier.watchdogMicroseconds {
            // Pinged from the event loop itself: a stuck loop stops the pings and systemd
            // restarts the bridge. The loop's notifier is its own, used on that thread only.
            server.every(seconds: max(1, usec / 2_000_000), with: ServiceNotifier()) { $0.watchdog() }
        }
        logger.info("serving", metadata: ["listen": "\(address)", "socket": "\(options.socketPath)",
                                          "origins": "\(web.origins.map(\.text))", "token": "\(web.token != nil)"])
        // The one line scripts and tests wait for: where the bridge listens.
        let line = Array("gestured-web: listening on \(address), gestured socket \(options.socketPath)\n".utf8)
        _ = write(1, line, line.count)
        let status = "serving \(address) for gestured on \(options.socketPath)"
        notifier.ready(status: status)
        while true {
            var info = siginfo_t()
            let received = sigwaitinfo(&waited, &info)
            guard received > 0 else { continue }  // EINTR: SIGPROF's handler ran on this thread
            let metadata: Logger.Metadata = ["signal": "\(BridgeSignals.name(of: received))",
                                             "sender": "\(info._sifields._kill.si_pid)"]
            switch BridgeSignals.meaning(of: received) {
            case .stop:
                notifier.stopping(status: "stopping")
                logger.info("stopping", metadata: metadata)
                server.stop()
                return
            case .reload:
                notifier.reloading()
                reload(server, logger: logger, metadata: metadata)
                notifier.ready(status: status)
            case .ignore:
                // The sentence is the one SIGPROF's handler writes (BridgeSignals.ignoreProfilingSignal).
                logger.warning("a signal with no meaning for gestured-web was ignored", metadata: metadata)
            }
        }
    }

    /// SIGHUP: the configuration file again, validated whole as at start; its `web` section and
    /// `socket.path` go to the connections opened from now on. An invalid file changes nothing.
    private func reload(_ server: BridgeServer, logger: Logger, metadata: Logger.Metadata) {
        let (configuration, web): (Configuration, WebConfig)
        do {
            (configuration, web) = try readConfiguration()
        } catch {
            var metadata = metadata
            metadata["problems"] = "\(error)"
            logger.error("the configuration was not reloaded; the bridge keeps the running one", metadata: metadata)
            return
        }
        let reload = server.reload(web: web, socketPath: socket ?? configuration.socket.path)
        var details = metadata
        details["file"] = "\(config)"
        if reload.isEmpty {
            logger.info("configuration re-read: nothing changed for the bridge", metadata: details)
        }
        if !reload.applied.isEmpty {
            details["changed"] = "\(reload.applied.joined(separator: "; "))"
            logger.info("configuration reloaded for new connections", metadata: details)
        }
        for change in reload.needsRestart {
            logger.warning("a change needs a restart of gestured-web", metadata: ["change": "\(change)"])
        }
    }

    /// The configuration file, validated whole, and its `web` section with `--listen` applied:
    /// what the bridge starts with and what SIGHUP reads again.
    private func readConfiguration() throws -> (Configuration, WebConfig) {
        let configuration = try ConfigurationLoader.load(path: config)
        return (configuration, try webSection(of: configuration))
    }

    /// The file's `web` section, with `--listen` in place of `web.listen`.
    private func webSection(of configuration: Configuration) throws(UsageFailure) -> WebConfig {
        var web = configuration.web ?? WebConfig()
        if let listen {
            switch ListenAddress.parse(listen, allowsAnyPort: true) {
            case .success(let address): web.listen = address
            case .failure(let error): throw UsageFailure(description: "gestured-web: --listen \(listen): \(error)")
            }
        }
        return web
    }
}

/// A command-line value that cannot be used, with the sentence that says why.
struct UsageFailure: Error, CustomStringConvertible {
    var description: String
}

func printError(_ message: String) {
    let line = Array((message + "\n").utf8)
    _ = write(2, line, line.count)
}
