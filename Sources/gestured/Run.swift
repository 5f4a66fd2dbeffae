#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import EvdevInput
import GestureConfig
import GestureCore
import GestureRuntime
import GestureSystem

/// `gestured run`: the daemon on the live device (SPEC 6, 10, 11).
struct Run: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Read the touchscreen and publish the resolved events.",
        discussion: """
            Opens the configured device (or --device), runs every frame through the engine and, \
            with --stdout, writes the events as JSON Lines on standard output. A removed device \
            cancels its touches; gestured waits for it to come back. SIGTERM or SIGINT cancels the \
            touches still down, flushes the output and exits 0.
            """)

    @Option(help: "The configuration file.")
    var config: String = Configuration.defaultPath

    @Option(help: "A device node or udev symlink to read instead of the configured device.")
    var device: String?

    @Flag(help: "Write the events as JSON Lines on standard output.")
    var stdout = false

    @Flag(help: "Also emit a hitTest event with the trace for every touch, and failed gesture transitions.")
    var trace = false

    func run() throws {
        let configuration = try loadConfiguration(config)
        let match = device.map { DeviceMatch.path($0) } ?? configuration.device.match
        let sink: any EventSink = stdout ? JSONLinesSink { writeAll($0, to: 1) } : DiscardingSink()
        if !stdout {
            printError("gestured: no --stdout: events are computed but not published (the socket server is not there yet)")
        }
        do {
            let loop = try EventLoop()
            let finder = try EvdevDeviceFinder(match: match, grab: configuration.grab)
            let runner = LiveRunner(loop: loop, provider: finder, setup: configuration.replaySetup, tracing: trace,
                                    sink: sink, log: printError)
            try loop.handleSignals([SIGTERM, SIGINT]) { _ in runner.shutdown() }
            try runner.start()
            try loop.run()
        } catch let error as EvdevError {
            throw failure("gestured: \(error)")
        } catch let error as SystemError {
            throw failure("gestured: \(error)")
        }
    }
}

/// A sink that publishes nowhere, for `run` without `--stdout` until the socket server exists.
final class DiscardingSink: EventSink {
    func publish(_ event: OutputEvent) {}
    func flush() {}
}
