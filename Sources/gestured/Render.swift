import CommandLineParsing
import GestureConfig
import GestureCore
import GestureRuntime
import Recordings

/// `gestured render`: an SVG picture of a replay, for the docs and for bug reports
/// (docs/render.md). The replay runs in this process through the same ``Replayer`` as
/// `replay --trace --contacts`, and ``RenderCollector`` reads its records, so the picture and
/// the replay's events cannot disagree.
struct Render: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "render",
        abstract: "Draw a replay as an SVG: views, touch paths, hit views, recognizer states, control events.",
        discussion: """
            Replays RECORDING through the engine as `gestured replay --trace --contacts` does and \
            draws the screen with the view tree and each touch's path (time ticks every 100 ms), \
            each touch's hit view and responder chain, a timeline lane per touch, per recognizer \
            (its states, and what else happened when it failed) and per control. The replay's \
            data is embedded as JSON (the element with id gestured-replay), and the output is the \
            same bytes for the same input, so two renders can be compared with diff.
            """)

    static var arguments: [Argument<Self>] {
        [.requiredOption("config", \.config,
                         help: "The configuration file (screen, gestures, layout), or a bare layout."),
         .option("output", short: "o", \.output, valueName: "file", help: "Write the SVG to this file instead of standard output."),
         .option("screen", \.screen, valueName: "id",
                 help: "With a configuration of several screens: draw RECORDING as this screen's panel (default: the first screen)."),
         .flag("force", \.force, help: "Replay a recording of a device that is not a touchscreen (a touchpad) anyway."),
         .option("from-jsonl", \.fromJSONL, valueName: "events",
                 help: "Draw these saved events (gestured replay --trace --contacts output) instead of replaying a recording."),
         .positional(\.recording, valueName: "recording",
                     help: "The recording, or a device description file when EVENTS-FILE is given."),
         .positional(\.eventsFile, valueName: "events-file",
                     help: "An events-only file that goes with the description file RECORDING.")]
    }

    var config = ""
    var output: String?
    var screen: String?
    var force = false
    var fromJSONL: String?
    var recording: String?
    var eventsFile: String?

    func validate() throws(ValidationError) {
        if let output, output.isEmpty { throw ValidationError("--output is empty; name the SVG file to write") }
        switch (recording, fromJSONL) {
        case (nil, nil): throw ValidationError("give the RECORDING to draw, or --from-jsonl EVENTS")
        case (_?, _?): throw ValidationError("give either a RECORDING or --from-jsonl EVENTS, not both")
        case (nil, _?):
            if force { throw ValidationError("--force is for a RECORDING; --from-jsonl draws events already made") }
        case (_?, nil): break
        }
        if let fromJSONL, fromJSONL.isEmpty { throw ValidationError("--from-jsonl is empty; name the JSON Lines file to draw") }
        if let screen, let problem = ConfigurationLimits.screenIDProblem(screen) {
            throw ValidationError("--screen \(screen): \(problem)")
        }
    }

    func run() throws {
        let configuration = try loadConfiguration(config)
        let screenConfiguration: ScreenConfiguration
        if let screen {
            guard let chosen = configuration.screen(id: screen) else {
                throw failure("gestured: --screen \(screen): \(configuration.file) has no screen \"\(screen)\"; its screens are "
                    + configuration.screens.map(\.id).joined(separator: ", "))
            }
            screenConfiguration = chosen
        } else {
            screenConfiguration = configuration.screens[0]
        }
        let setup = configuration.pipelineSetup(of: screenConfiguration)
        let collector = RenderCollector(
            model: RenderModel(configuration: config, recording: recording ?? fromJSONL ?? "", screenID: screenConfiguration.id,
                               screenSize: screenConfiguration.screen.size, tree: setup.tree))
        let replayer: Replayer? = if let recording { try replay(recording, setup: setup, into: collector) } else { nil }
        if let fromJSONL {
            // A stream of several screens names each event's screen: only the one drawn counts.
            let events = RenderEventsFile(path: fromJSONL, screen: configuration.isMultiScreen ? screenConfiguration.id : nil)
            do {
                try events.read(into: collector)
            } catch {
                throw failure("gestured: \(error.description)")
            }
        }
        collector.finish()
        let svg = RenderSVG.document(collector.model)
        if let output {
            do {
                try WholeFileWriter.writeWhole([(output, svg)])
            } catch {
                throw failure("gestured: \(error); choose a writable path for --output")
            }
        } else {
            try printOutput(svg)
        }
        guard var replayer else { return }
        for notice in replayer.takeNotices() { printError("gestured: warning: \(notice)") }
        // A malformed line ended the replay there: the picture shows what came before it.
        if let error = replayer.readError { throw failure(error.description) }
    }

    /// Replays `recording` with tracing and contacts, its records read by `collector`.
    private func replay(_ recording: String, setup: PipelineSetup, into collector: RenderCollector) throws -> Replayer {
        var replayer: Replayer
        do {
            let stream = try RecordingReader.open(path: recording, eventsPath: eventsFile)
            replayer = try Replayer(stream: stream, setup: setup,
                                    options: ReplayOptions(tracing: true, allowNonTouchscreen: force, listsContacts: true))
        } catch let error as RecordingError {
            throw failure(error.description)
        } catch let error as ReplayError {
            throw failure(error.description)
        } catch {
            throw failure("gestured: \(error)")
        }
        // The JSON Lines are not needed: the collector reads the same records.
        replayer.run(sinks: [collector]) { _ in }
        return replayer
    }
}
