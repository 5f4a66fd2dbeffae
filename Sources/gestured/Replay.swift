#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GestureConfig
import GestureCore
import GestureRuntime
import Recordings

/// `gestured replay`: a dry run of a recorded evdev log through the engine (SPEC 7, 11).
struct Replay: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Replay a recorded evdev log through the engine and print the events as JSON Lines.",
        discussion: """
            Reads evemu (evemu-record, or evemu-describe output plus an events file), \
            libinput record (YAML v1), evtest and Android getevent -t logs. Runs in virtual \
            time (as fast as possible; timers fire at their input-time deadlines) unless \
            --realtime is given. Touches still down when the recording ends are cancelled.
            """)

    @Option(help: "The configuration file (screen, axis overrides, gestures, layout), or a bare layout.")
    var config: String

    @Flag(help: "Also emit a hitTest event with the trace for every touch, and failed gesture transitions.")
    var trace = false

    @Flag(help: "Pace the replay by the recording's timestamps.")
    var realtime = false

    @Flag(help: "Replay a recording of a device that is not a touchscreen (a touchpad) anyway.")
    var force = false

    @Argument(help: "The recording, or a device description file when EVENTS-FILE is given.")
    var recording: String

    @Argument(help: "An events-only file that goes with the description file RECORDING.")
    var eventsFile: String?

    func run() throws {
        let configuration = try loadConfiguration(config)
        let loaded: Recording
        do {
            loaded = try RecordingReader.read(path: recording, eventsPath: eventsFile)
        } catch {
            throw failure(error.description)
        }
        var replayer: Replayer
        do {
            replayer = try Replayer(recording: loaded, setup: configuration.replaySetup,
                                    options: ReplayOptions(tracing: trace, allowNonTouchscreen: force))
        } catch {
            throw failure(error.description)
        }
        let stop = SignalStop.install()
        let pacer = realtime ? MonotonicPacer(recordingStart: loaded.events.first?.time ?? .zero, stop: stop) : nil
        replayer.run(pacer: pacer, stop: stop) { bytes in writeAll(bytes, to: 1) }
    }
}

/// SIGTERM and SIGINT end a replay cleanly: touches cancelled, output flushed, exit 0.
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
