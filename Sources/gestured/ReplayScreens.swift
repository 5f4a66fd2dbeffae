import CommandLineParsing
import GestureConfig
import GestureCore
import GestureRuntime
import Recordings

/// `gestured replay --screen ID=RECORDING …`: one recording per screen of a configuration of
/// several screens, merged by time into one stream (``MergedReplay``).
extension Replay {
    /// The `--screen` words as (id, recording) pairs, or why they are wrong.
    static func screenRecordings(_ words: [String]) throws(ValidationError) -> [(id: String, path: String)] {
        var pairs: [(id: String, path: String)] = []
        for word in words {
            guard let equals = word.firstIndex(of: "="), equals != word.startIndex,
                  word.index(after: equals) != word.endIndex else {
                throw ValidationError("--screen \(word): write ID=RECORDING, such as --screen customer=customer.evemu")
            }
            let id = String(word[..<equals])
            if let problem = ConfigurationLimits.screenIDProblem(id) { throw ValidationError("--screen \(word): \(problem)") }
            if pairs.contains(where: { $0.id == id }) {
                throw ValidationError("--screen \(id) is given twice; give each screen one recording")
            }
            pairs.append((id, String(word[word.index(after: equals)...])))
        }
        if pairs.count > ConfigurationLimits.screens.upperBound {
            throw ValidationError("--screen is given \(pairs.count) times; a configuration has at most "
                + "\(ConfigurationLimits.screens.upperBound) screens")
        }
        return pairs
    }

    /// The arguments that go with `--screen`, or without it.
    func validateScreens() throws(ValidationError) {
        if screens.isEmpty {
            if recording == nil {
                throw ValidationError("give the RECORDING to replay, or --screen ID=RECORDING for each screen")
            }
            return
        }
        if recording != nil || eventsFile != nil {
            throw ValidationError("give the recordings with --screen ID=RECORDING only, not also as RECORDING")
        }
        if panel != nil {
            // The virtual panel's stream is one panel's: an evemu file describes one device.
            throw ValidationError("--panel writes one panel's stream and --screen replays several panels; replay the "
                + "screen's recording alone (gestured replay RECORDING --panel FILE, with the screen's layout) to write its copy")
        }
        _ = try Self.screenRecordings(screens)
    }

    /// Replays each screen's recording through its own pipeline, merged by time, to stdout
    /// (paced by the recordings' times with `--realtime`) or to socket clients (`--socket`).
    func replayScreens(_ configuration: Configuration) throws {
        let pairs: [(id: String, path: String)]
        do {
            pairs = try Self.screenRecordings(screens)
        } catch {
            throw failure("gestured: \(error.message)")
        }
        for pair in pairs where configuration.screen(id: pair.id) == nil {
            throw failure("gestured: --screen \(pair.id): \(configuration.file) has no screen \"\(pair.id)\"; its screens are "
                + configuration.screens.map(\.id).joined(separator: ", "))
        }
        // In the configuration's order, so that the stream is the same whatever order the
        // options came in; a screen without a recording has no panel (it waits, as live).
        var replayers: [(id: String, replayer: Replayer)] = []
        for screen in configuration.screens {
            guard let pair = pairs.first(where: { $0.id == screen.id }) else { continue }
            do {
                let stream = try RecordingReader.open(path: pair.path, eventsPath: nil)
                let replayer = try Replayer(stream: stream, setup: configuration.pipelineSetup(of: screen),
                                            options: ReplayOptions(tracing: trace, allowNonTouchscreen: force,
                                                                          listsContacts: contacts))
                replayers.append((screen.id, replayer))
            } catch let error as RecordingError {
                throw failure("gestured: screen \(screen.id): \(error.description)")
            } catch let error as ReplayError {
                throw failure("gestured: screen \(screen.id): \(error.description)")
            }
        }
        if let socket {
            try serve(replayers, configuration: configuration, socketPath: socket)
            return
        }
        let stop = SignalStop.install()
        let start = replayers.map(\.replayer.start).min()!
        let pacer = realtime ? MonotonicPacer(recordingStart: start, stop: stop) : nil
        let output = OutputWriter.standardOutput()
        var merged = MergedReplay(screens: replayers, writesRoutes: configuration.routing != nil)
        merged.run(pacer: pacer, stop: stop) { bytes in output.write(bytes) }
        for notice in merged.takeNotices() { printError("gestured: warning: \(notice)") }
        try output.checkWritten()
        if let (id, error) = merged.readError { throw failure("screen \(id): \(error.description)") }
    }
}
