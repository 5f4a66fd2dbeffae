#if canImport(Glibc)
import Glibc
#endif
import EvdevInput
import GestureConfig
import GestureCore
import GestureRuntime
import GestureSystem
import Logging
import Recordings
import Testing

/// The live loop on a real epoll loop, fed through pipes instead of evdev nodes (the host has
/// no input devices; the kernel tests in tools/vmtest cover real ones). No sleeps: every
/// byte is in the pipes before the loop runs, and the loop stops itself once the expected
/// device events have been published and no deadline is pending.
@Suite("Live runner")
struct LiveRunnerTests {
    static let packageRoot: String = {
        var path = "\(#filePath)"
        while let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            path = String(path[..<slash])
            if access(path + "/Package.swift", F_OK) == 0 { return path }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    static func setup(_ file: String) throws -> PipelineSetup {
        try ConfigurationLoader.load(path: packageRoot + "/" + file).pipelineSetup
    }

    /// Runs the loop until `removals` device removals were published and no deadline is left.
    static func run(_ provider: PipeProvider, setup: PipelineSetup, removals: Int, clock: Timestamp,
                    beforeRun: (LiveRunner) -> Void = { _ in }) throws -> RecordingSink {
        let loop = try EventLoop()
        let sink = RecordingSink()
        let runner = LiveRunner(loop: loop, provider: provider, setup: setup, sink: sink,
                                logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, clock: { clock },
                                recordSinks: [sink.records])
        sink.isDone = { sink in
            sink.deviceActions.filter { $0 == "removed" }.count >= removals && runner.nextDeadline == nil
        }
        sink.onDone = { runner.shutdown() }
        try runner.start()
        beforeRun(runner)
        if !runner.isStopped { try loop.run() }
        return sink
    }

    @Test func aRecordingThroughThePipeResolvesExactlyAsItsReplay() throws {
        let recording = try RecordingReader.read(path: Self.packageRoot + "/config/recordings/four-finger-drag.evemu")
        let setup = try Self.setup("config/lobby.json5")
        let description = try #require(recording.description)
        let source = PipeSource(description: description)
        source.write(recording.events)
        source.unplug()
        let end = Timestamp(microseconds: (recording.events.last?.time.microseconds ?? 0) + 10_000_000)
        let live = try Self.run(PipeProvider([source]), setup: setup, removals: 1, clock: end)

        var replayer = try Replayer(recording: recording, setup: setup, options: ReplayOptions())
        var bytes: [UInt8] = []
        replayer.run { bytes.append(contentsOf: $0) }
        let replayLines = String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
            .filter { !$0.contains("\"type\":\"device\"") }
            .map { line in line.replacing(#/"seq":\d+,/#, with: "", maxReplacements: 1) }

        #expect(live.deviceActions == ["added", "removed"])
        #expect(replayLines.count > 25)
        // Same times too: the pipe carries the recording's timestamps, as evdev carries the kernel's.
        #expect(live.engineLines == replayLines)
    }

    /// The touchscreen of tools/vmtest/touchscreen.desc: 10 slots, 1920 × 1080 device units.
    static let touchscreen = DeviceDescription(
        name: "test touchscreen", codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 1919), AbsCode.y: AbsInfo(minimum: 0, maximum: 1079),
                  AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
                  AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 1919),
                  AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 1079),
                  AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535)],
        properties: [InputProperty.direct])

    static func frame(_ ms: Int64, _ values: [(UInt16, UInt16, Int32)]) -> [RawEvent] {
        let time = Timestamp(microseconds: 1_000_000 + ms * 1000)
        return values.map { RawEvent(time: time, type: $0.0, code: $0.1, value: $0.2) }
            + [RawEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0)]
    }

    static let abs = EventType.abs

    /// "id:phase" of every touch of every delivery, in order.
    static func touchPhases(_ events: [OutputEvent]) -> [String] {
        events.flatMap { event -> [String] in
            guard case .engine(.touches(let delivery)) = event else { return [] }
            return delivery.touches.map { "\($0.id.rawValue):\($0.phase.rawValue)" }
        }
    }

    @Test func afterSynDroppedTheSurvivingTouchContinuesTheLostOneIsCancelledAndTheNewOneBegins() throws {
        // Finger 100 (slot 0) survives the drop and moved; finger 101 (slot 1) lifted during
        // it, and finger 102 landed in slot 2.
        let snapshot = DeviceSnapshot(currentSlot: 2, slots: [
            SlotSnapshot(trackingID: 100, position: DevicePosition(x: 600, y: 300)),
            .empty,
            SlotSnapshot(trackingID: 102, position: DevicePosition(x: 1500, y: 800)),
        ])
        let source = PipeSource(description: Self.touchscreen, snapshot: { snapshot })
        let abs = Self.abs
        source.write(Self.frame(0, [(abs, AbsCode.mtTrackingID, 100), (abs, AbsCode.mtPositionX, 500),
                                    (abs, AbsCode.mtPositionY, 300),
                                    (abs, AbsCode.mtSlot, 1), (abs, AbsCode.mtTrackingID, 101),
                                    (abs, AbsCode.mtPositionX, 900), (abs, AbsCode.mtPositionY, 300)]))
        // A frame cut short by the drop: never half-applied.
        source.write([RawEvent(time: Timestamp(microseconds: 1_010_000), type: abs, code: AbsCode.mtPositionX, value: 1)])
        source.write([RawEvent(time: Timestamp(microseconds: 1_020_000), type: EventType.syn, code: SynCode.dropped, value: 0)])
        source.write(Self.frame(30, [(abs, AbsCode.mtSlot, 0), (abs, AbsCode.mtTrackingID, -1),
                                     (abs, AbsCode.mtSlot, 2), (abs, AbsCode.mtTrackingID, -1)]))
        source.unplug()
        let sink = try Self.run(PipeProvider([source]), setup: Self.setup("Tests/Fixtures/config/kernel-test-plain.json5"),
                                removals: 1, clock: Timestamp(microseconds: 2_000_000))

        #expect(sink.deviceActions == ["added", "resynchronised", "removed"])
        #expect(Self.touchPhases(sink.events) == [
            "1:began", "2:began",                // fingers 100 and 101
            "3:began", "1:moved", "2:cancelled", // the resync: 102 new, 100 moved to x 600, 101 lost
            "1:ended", "3:ended",
        ])
        let resync = sink.events.compactMap { event -> String? in
            if case .device(_, "resynchronised", _, let message) = event { message } else { nil }
        }
        #expect(resync.first?.contains("1 of 2 touches cancelled") == true)
    }

    /// Issue 25: a device whose events go back in time (a driver that stamps them with its
    /// hardware's clock, a program writing to uinput). The runner gives each the time of the
    /// event before it, says "kernel bug:" once for them (not once per event), and no event
    /// the engine makes goes back in time.
    @Test func eventsStampedBeforeEarlierOnesAreClampedWithOneKernelBugWarning() throws {
        let abs = Self.abs
        let source = PipeSource(description: Self.touchscreen)
        source.write(Self.frame(0, [(abs, AbsCode.mtTrackingID, 7), (abs, AbsCode.mtPositionX, 500),
                                    (abs, AbsCode.mtPositionY, 300)]))
        source.write(Self.frame(40, [(abs, AbsCode.mtPositionX, 600)]))
        source.write(Self.frame(20, [(abs, AbsCode.mtPositionX, 700)]))  // 20 ms back
        source.write(Self.frame(60, [(abs, AbsCode.mtTrackingID, -1)]))
        source.unplug()
        let sink = try Self.run(PipeProvider([source]), setup: Self.setup("Tests/Fixtures/config/kernel-test-plain.json5"),
                                removals: 1, clock: Timestamp(microseconds: 2_000_000))
        let warnings = sink.events.compactMap { event -> String? in
            if case .warning(_, let message) = event { message } else { nil }
        }
        #expect(warnings == ["kernel bug: device \"test touchscreen\" (/dev/input/event-test): 2 events were stamped before "
            + "an earlier one (in 1 place, at most 20000 µs); an event earlier than the one before it is processed at that "
            + "event's time, so that no gesture sees time go backwards (a driver that stamps events with its hardware's "
            + "clock, or a program writing to uinput, can send such times); counted again at the 10th, 100th, … and when "
            + "the device goes"])
        #expect(Self.touchPhases(sink.events) == ["1:began", "1:moved", "1:moved", "1:ended"])
        let times = sink.events.compactMap { event -> Int64? in
            if case .engine(let engine) = event { engine.time.microseconds } else { nil }
        }
        #expect(times == [1_000_000, 1_040_000, 1_040_000, 1_060_000])
    }

    @Test func aRemovedDeviceCancelsItsTouchesAndTheRunnerPicksItUpAgainOnHotplug() throws {
        let abs = Self.abs
        let first = PipeSource(description: Self.touchscreen)
        first.write(Self.frame(0, [(abs, AbsCode.mtTrackingID, 7), (abs, AbsCode.mtPositionX, 500),
                                   (abs, AbsCode.mtPositionY, 300)]))
        first.unplug()
        let second = PipeSource(description: Self.touchscreen)
        second.write(Self.frame(500, [(abs, AbsCode.mtTrackingID, 8), (abs, AbsCode.mtPositionX, 700),
                                      (abs, AbsCode.mtPositionY, 300)]))
        second.write(Self.frame(540, [(abs, AbsCode.mtTrackingID, -1)]))
        second.unplug()
        let provider = PipeProvider([first, second])
        let sink = try Self.run(provider, setup: Self.setup("Tests/Fixtures/config/kernel-test-plain.json5"),
                                removals: 2, clock: Timestamp(microseconds: 1_200_000)) { runner in
            // The first device is gone by now (read to its end at start) and the runner waits.
            #expect(!runner.isAttached)
            provider.notifyPlugged()
        }
        #expect(sink.deviceActions == ["added", "removed", "added", "removed"])
        #expect(Self.touchPhases(sink.events) == ["1:began", "1:cancelled", "2:began", "2:ended"])
    }

    @Test func shutdownCancelsTouchesStillDown() throws {
        let abs = Self.abs
        let source = PipeSource(description: Self.touchscreen)
        source.write(Self.frame(0, [(abs, AbsCode.mtTrackingID, 7), (abs, AbsCode.mtPositionX, 500),
                                    (abs, AbsCode.mtPositionY, 300)]))
        // Not unplugged: the runner would wait for more; shutdown (SIGTERM) ends it.
        let sink = try Self.run(PipeProvider([source]), setup: Self.setup("Tests/Fixtures/config/kernel-test-plain.json5"),
                                removals: 99, clock: Timestamp(microseconds: 1_500_000)) { runner in
            runner.shutdown()
        }
        #expect(sink.deviceActions == ["added"])
        #expect(Self.touchPhases(sink.events) == ["1:began", "1:cancelled"])
    }

    @Test func aReadErrorCancelsTouchesNamesTheCallAndWaitsForHotplugInsteadOfReopening() throws {
        let abs = Self.abs
        let source = PipeSource(description: Self.touchscreen)
        source.write(Self.frame(0, [(abs, AbsCode.mtTrackingID, 7), (abs, AbsCode.mtPositionX, 500),
                                    (abs, AbsCode.mtPositionY, 300)]))
        source.failure = .ioError
        let provider = PipeProvider([source, PipeSource(description: Self.touchscreen)])
        let sink = try Self.run(provider, setup: Self.setup("Tests/Fixtures/config/kernel-test-plain.json5"),
                                removals: 1, clock: Timestamp(microseconds: 1_500_000))
        #expect(sink.deviceActions == ["added", "removed"])
        #expect(Self.touchPhases(sink.events) == ["1:began", "1:cancelled"])
        let removal = sink.events.compactMap { event -> String? in
            if case .device(_, "removed", _, let message) = event { message } else { nil }
        }
        #expect(removal == ["/dev/input/event-test could not be read: libevdev_next_event failed on /dev/input/event-test: "
            + "Input/output error (errno 5); waiting for it to be plugged in again"])
        #expect(provider.opened == 1)
    }
}
