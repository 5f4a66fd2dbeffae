#if canImport(Glibc)
import Glibc
#endif
import CommandLineParsing
import EvdevInput
import GestureCore
import GestureSystem
import Recordings
import SystemPackage

/// `gestured record`: a live device's description and events in evemu format (docs/command-line.md, "gestured
/// record"), which `gestured replay` and `evemu-play` both read.
struct Record: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "record",
        abstract: "Record a live input device in evemu format.",
        discussion: """
            Writes the device description, then one E: line per event as it arrives, times \
            counted from the first event. Stops at SIGINT (Ctrl-C) or SIGTERM, or when the device \
            is removed. Warns when another program holds the device exclusively (EVIOCGRAB: \
            gestured.service with grab: true does), since the recording then receives nothing, \
            and names who has it open. Replay the file with `gestured replay --config FILE RECORDING`, or play it \
            into a virtual device with `evemu-device` and `evemu-play`.
            """)

    static var arguments: [Argument<Self>] {
        [.option("device", \.device, help: "The device node or udev symlink; default: the first touchscreen."),
         .option("output", short: "o", \.output, help: "Write to this file instead of standard output.")]
    }

    var device: String?
    var output: String?

    func run() throws {
        let match = device.map { DeviceSelector.path($0) } ?? .auto
        let writer = try output.map { try OutputWriter.creating($0, for: "-o") } ?? .standardOutput()
        defer {
            if output != nil {
                do { try writer.descriptor.closeAfterWriting(subject: writer.name) } catch { printError("gestured: \(error)") }
            }
        }
        do {
            let finder = try EvdevDeviceFinder(match: match, grab: false)
            guard let source = try finder.open() else {
                throw EvdevError.noMatchingDevice(selector: match.description, detail: "nothing is plugged in that matches")
            }
            let loop = try EventLoop()
            var recorder = EvemuRecorder(output: writer)
            recorder.writeDescription(source.description)
            var readings: [RawEvent] = []
            var failure: EvdevError?
            try loop.watch(source.fileDescriptor) { _ in
                readings.removeAll(keepingCapacity: true)
                let end: ReadEnd
                do throws(EvdevError) {
                    end = try source.readAvailable(into: &readings)
                } catch {
                    failure = error
                    end = .removed
                }
                recorder.write(readings)
                if case .resynchronised(_, let time) = end {
                    // A replay of this file cannot resynchronise; say where events were lost.
                    recorder.comment("SYN_DROPPED at \(time.microseconds) µs: the kernel dropped events here")
                }
                if end == .removed {
                    recorder.comment(failure == nil ? "the device was removed" : "reading failed")
                    printError("gestured: \(source.path) " + (failure.map { "could not be read: \($0)" } ?? "was removed; recording ends"))
                    loop.stop()
                }
            }
            try loop.handleSignals([SIGTERM, SIGINT]) { _ in loop.stop() }
            printError("gestured: recording \(source.path) \"\(source.description.name)\" (SIGINT or SIGTERM stops)")
            // A device another program has grabbed gives this reader nothing, not even an error.
            if PanelHold.probe(descriptor: source.fileDescriptor.rawValue) == .held {
                printError("gestured: warning: \(source.path) is " + PanelHold.heldAdvice(path: source.path)
                    + ". Until then this recording receives no events.")
            }
            try loop.run()
            if let failure { throw failure }
            try writer.checkWritten()
        } catch let error as EvdevError {
            throw gestured.failure("gestured: \(error)")
        } catch let error as SystemError {
            throw gestured.failure("gestured: \(error)")
        }
    }
}

/// Writes evemu text as events arrive, times rebased to the first event so the file starts at
/// 0.000000 as evemu-record's does.
struct EvemuRecorder {
    let output: OutputWriter
    private var origin: Timestamp?

    init(output: OutputWriter) {
        self.output = output
    }

    func writeDescription(_ description: DeviceDescription) {
        output.write(Array(EvemuWriter.descriptionText(description).utf8))
    }

    mutating func write(_ events: [RawEvent]) {
        var text = ""
        for var event in events {
            let origin = self.origin ?? event.time
            self.origin = origin
            event.time = Timestamp(microseconds: max(0, event.time.microseconds - origin.microseconds))
            text += EvemuWriter.eventLine(event)
        }
        if !text.isEmpty { output.write(Array(text.utf8)) }
    }

    func comment(_ text: String) {
        output.write(Array("# \(text)\n".utf8))
    }
}
