#if canImport(Glibc)
import Glibc
#endif
import CommandLineParsing
import GestureConfig
import GestureCore
import GestureRuntime
import GestureServer
import GestureSystem
import Logging
import Recordings
import SystemPackage

/// `gestured replay`: a dry run of a recorded evdev log through the engine (docs/command-line.md, "gestured
/// replay").
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "replay",
        abstract: "Replay a recorded evdev log through the engine and print the events as JSON Lines.",
        discussion: """
            Reads evemu (evemu-record, or evemu-describe output plus an events file), \
            libinput record (YAML v1), evtest and Android getevent -t logs. Runs in virtual \
            time (as fast as possible; timers fire at their input-time deadlines) unless \
            --realtime is given. Touches still down when the recording ends are cancelled.

            With --socket, the events go to clients of the socket protocol instead of stdout: \
            the replay starts once --wait-clients clients have subscribed, and the command \
            exits when the replay has ended and every client has received its events. In \
            virtual time the replay goes as fast as the subscribers read. A socket passed by \
            systemd (LISTEN_FDS) is used instead of creating PATH. With --wait-layout the \
            replay also waits until a client has set a layout (layout.set), such as a kiosk \
            page through gestured-web, for at most --wait-layout-timeout seconds; if none \
            came, every client is told so and the command fails.

            With --panel, a configuration that routes touches also writes what the desktop \
            would receive through the virtual copy of the panel: the forwarded touches, as an \
            evemu recording of the copy (its description, then its events with their times).
            """)

    static var arguments: [Argument<Self>] {
        [.requiredOption("config", \.config,
                         help: "The configuration file (screen, axis overrides, gestures, layout), or a bare layout."),
         .flag("trace", \.trace,
               help: "Also emit a hitTest event with the trace for every touch, and failed gesture transitions."),
         .flag("contacts", \.contacts,
               help: "Also emit a contacts event, every finger down, after every frame that changed a contact."),
         .flag("realtime", \.realtime, help: "Pace the replay by the recording's timestamps."),
         .flag("force", \.force, help: "Replay a recording of a device that is not a touchscreen (a touchpad) anyway."),
         .option("panel", \.panel, valueName: "file",
                 help: "With routing: write the virtual panel's stream (what the desktop receives) as an evemu recording."),
         .option("socket", \.socket, valueName: "path",
                 help: "Serve the events to socket clients at this path instead of printing them."),
         // Unconditional: "-1" is a (wrong) value to explain, not a missing one.
         .option("wait-clients", \.waitClients, parsing: .unconditional,
                 help: "With --socket: start the replay once this many clients have subscribed (0: at once, at most 1000)."),
         .flag("wait-layout", \.waitLayout,
               help: "With --socket: start the replay only once a client has set a layout (layout.set)."),
         .option("wait-layout-timeout", \.waitLayoutTimeout, valueName: "seconds", parsing: .unconditional,
                 help: "With --wait-layout: fail if no layout came within this many seconds (\(SocketReplay.Options.waitLayoutSeconds.lowerBound) to "
                     + "\(SocketReplay.Options.waitLayoutSeconds.upperBound), default \(SocketReplay.Options.defaultWaitLayoutSeconds))."),
         .option("queue-limit", \.queueLimit, isHidden: true,
                 help: "With --socket: bytes a client may have queued before it is dropped as a slow consumer."),
         .option("screen", \.screens, valueName: "id=recording",
                 help: "With a configuration of several screens: replay RECORDING as screen ID's panel (repeated, one per "
                     + "screen), merged by time into one stream."),
         .positional(\.recording, valueName: "recording",
                     help: "The recording, or a device description file when EVENTS-FILE is given."),
         .positional(\.eventsFile, valueName: "events-file",
                     help: "An events-only file that goes with the description file RECORDING.")]
    }

    var config = ""
    var trace = false
    var contacts = false
    var realtime = false
    var force = false
    var socket: String?
    var panel: String?
    var waitClients = 1
    var waitLayout = false
    var waitLayoutTimeout: Int?
    var queueLimit = 1 << 20
    var screens: [String] = []
    var recording: String?
    var eventsFile: String?

    func validate() throws(ValidationError) {
        if waitClients < 0 || waitClients > 1000 {
            throw ValidationError("--wait-clients is \(waitClients); use a number of clients from 0 to 1000")
        }
        if let socket { try validateSocketPath(socket) }
        if socket == nil && waitClients != 1 { throw ValidationError("--wait-clients needs --socket PATH") }
        if socket == nil && waitLayout { throw ValidationError("--wait-layout needs --socket PATH") }
        if let waitLayoutTimeout {
            guard waitLayout else { throw ValidationError("--wait-layout-timeout needs --wait-layout") }
            let range = SocketReplay.Options.waitLayoutSeconds
            if !range.contains(waitLayoutTimeout) {
                throw ValidationError("--wait-layout-timeout is \(waitLayoutTimeout); use a number of seconds from "
                    + "\(range.lowerBound) to \(range.upperBound)")
            }
        }
        if contacts && socket != nil {
            throw ValidationError("--contacts cannot go with --socket; a subscriber asks for contacts itself "
                + "(subscribe with \"contacts\":true)")
        }
        if panel != nil && socket != nil { throw ValidationError("--panel cannot go with --socket; write the panel's stream from a replay to stdout") }
        if let panel, panel.isEmpty { throw ValidationError("--panel is empty; name the evemu file to write") }
        try validateScreens()
        if queueLimit < 4096 { throw ValidationError("--queue-limit must be at least 4096 bytes") }
        // A client's queue is memory the daemon holds for it; 1 GiB is far beyond any use.
        if queueLimit > 1 << 30 { throw ValidationError("--queue-limit is \(queueLimit); use at most 1073741824 bytes (1 GiB)") }
    }

    func run() throws {
        let configuration = try loadConfiguration(config)
        guard let recording else {
            try replayScreens(configuration)
            return
        }
        // The description now; the events as the replay goes (a malformed line further on
        // ends the replay there, and the command with an error naming it).
        let stream: RecordingStream
        do {
            stream = try RecordingReader.open(path: recording, eventsPath: eventsFile)
        } catch {
            throw failure(error.description)
        }
        var replayer: Replayer
        do {
            replayer = try Replayer(stream: stream, setup: configuration.pipelineSetup,
                                    options: ReplayOptions(tracing: trace, allowNonTouchscreen: force,
                                                          listsContacts: contacts))
        } catch {
            throw failure(error.description)
        }
        if let socket {
            try serve([(configuration.screens[0].id, replayer)], configuration: configuration, socketPath: socket)
            return
        }
        let stop = SignalStop.install()
        let pacer = realtime ? MonotonicPacer(recordingStart: replayer.start, stop: stop) : nil
        let output = OutputWriter.standardOutput()
        let panelWriter = try panel.map { path in try openPanel(path, replayer: replayer, configuration: configuration) }
        defer {
            if let panelWriter {
                do { try panelWriter.descriptor.closeAfterWriting(subject: panelWriter.name) } catch { printError("gestured: \(error)") }
            }
        }
        // The JSON Lines are the replay's own sink; --panel adds the virtual panel's writer.
        let sinks: [any RecordSink] = panelWriter.map { writer in [EvemuPanelSink { writer.write($0) }] } ?? []
        replayer.run(pacer: pacer, stop: stop, sinks: sinks) { bytes in output.write(bytes) }
        try panelWriter?.checkWritten()
        // Each also went out as a `warning` event; stderr is where a person at a terminal looks.
        for notice in replayer.takeNotices() { printError("gestured: warning: \(notice)") }
        try output.checkWritten()
        if let error = replayer.readError { throw failure(error.description) }
    }

    /// `--panel FILE`: the file, with the copy's description written (docs/routing.md).
    private func openPanel(_ path: String, replayer: Replayer, configuration: Configuration) throws -> OutputWriter {
        guard configuration.routing != nil else {
            throw failure("gestured: --panel needs a configuration that routes touches: add routing: { default: \"claim\" } "
                + "(or \"forward\") to \(configuration.file)")
        }
        guard let source = replayer.pipeline.copySource else {
            throw failure("gestured: --panel: the recording's device \"\(replayer.deviceDescriptionName)\" has no multitouch "
                + "tracking ids (ABS_MT_TRACKING_ID), so no touch can be forwarded and there is no copy to write")
        }
        let writer = try OutputWriter.creating(path, for: "--panel")
        writer.write(Array(EvemuWriter.descriptionText(PanelCopy.description(of: source, udevProperties: replayer.udevProperties)).utf8))
        return writer
    }

    /// `--socket`: the replay as a daemon would serve it, of one screen or of several (one
    /// recording each, in the configuration's order).
    func serve(_ replayers: [(id: String, replayer: Replayer)], configuration: Configuration, socketPath: String) throws {
        JournalLogHandler.bootstrap()
        let logger = Logger(label: "gestured")
        // A client that vanishes must be an EPIPE to handle, never a signal that kills us.
        try Signals.ignoreBrokenPipe()
        let listener = try openListener(path: socketPath, group: configuration.socket.group, logger: logger)
        var options = SocketReplay.Options(server: EventServer.Options(version: GesturedVersion.string))
        options.waitClients = waitClients
        if waitLayout { options.waitLayoutSeconds = waitLayoutTimeout ?? SocketReplay.Options.defaultWaitLayoutSeconds }
        options.realtime = realtime
        options.trace = trace
        options.server.queueLimit = queueLimit
        options.server.lowWater = min(1 << 16, queueLimit / 4)
        do {
            let replay = try SocketReplay(screens: replayers, configuration: configuration, listener: listener,
                                          options: options, logger: logger)
            try replay.run()
            if let why = replay.waitLayoutExpired { throw failure("gestured: \(why)") }
            if let error = replay.readError { throw failure(error.description) }
        } catch let failed as CommandFailure {
            throw failed
        } catch {
            throw failure("\(error)")
        }
    }
}

/// The listening socket of `run` and `replay --socket`: the one systemd passed (socket
/// activation), or a new one at `path` with the configured group.
func openListener(path: String, group: String?, logger: Logger, groupIsRequired: Bool = false) throws -> ListeningSocket {
    do {
        if let inherited = SocketActivation.takeDescriptors().first {
            let listener = try ListeningSocket.adopt(inherited)
            logger.info("using the socket passed by systemd", metadata: ["socket": "\(listener.path)"])
            return listener
        }
        do {
            return try ListeningSocket.bind(path: path, group: group)
        } catch .unknownGroup(let name) where !groupIsRequired {
            // A dry run on a development machine need not have the kiosk's groups.
            logger.warning("socket.group is not a group on this system; the socket keeps this process's group",
                           metadata: ["group": "\(name)"])
            return try ListeningSocket.bind(path: path, group: nil)
        }
    } catch {
        throw failure(error.description)
    }
}

/// SIGTERM and SIGINT end a replay to stdout cleanly: touches cancelled, output flushed, exit 0.
enum SignalStop {
    static let flag = StopFlag()

    static func install() -> StopFlag {
        var action = sigaction()
        action.__sigaction_handler.sa_handler = { _ in SignalStop.flag.set() }
        sigemptyset(&action.sa_mask)
        // No SA_RESTART: a sleeping --realtime replay wakes up at once.
        action.sa_flags = 0
        sigaction(SIGTERM, &action, nil)
        sigaction(SIGINT, &action, nil)
        return flag
    }
}
