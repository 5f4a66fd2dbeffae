import EvdevInput
import GestureCore
import GestureRuntime
import GestureSystem
import Logging
import Testing

/// The virtual panel's life in the live runner (docs/routing.md, "The virtual panel"), with a
/// stand-in copy: made when a grabbed panel opens, made again on replug, removed at unplug and
/// at stop; never made for a panel that is not grabbed; a copy that cannot be made or refuses
/// a write is logged with its cause, and the runner goes on serving its clients. The real
/// uinput device is tested in the VM (tools/vmtest/kernel-tests.sh, `test_panel_copy_*`).
@Suite("Live runner: the virtual panel")
struct LivePanelCopyTests {
    /// A stand-in copy: keeps what it is given, or refuses every write with `failure`.
    final class RecordingCopy: PanelCopyOutput {
        let path: String
        var written: [RawEvent] = []
        var failure: VirtualPanelError?
        /// Counts the copies still alive (the runner drops its copy to remove it).
        let alive: Counter

        init(path: String, alive: Counter) {
            self.path = path
            self.alive = alive
            alive.value += 1
        }

        deinit { alive.value -= 1 }

        func write(_ events: UnsafeBufferPointer<RawEvent>) throws(VirtualPanelError) {
            if let failure { throw failure }
            written += events
        }
    }

    final class Counter { var value = 0 }

    /// Collects the runner's log lines (message and metadata), as the journal would get them.
    final class LogLines: @unchecked Sendable {
        var lines: [String] = []
        var logger: Logger {
            Logger(label: "test") { _ in Handler(lines: self) }
        }

        struct Handler: LogHandler {
            let lines: LogLines
            var metadata: Logger.Metadata = [:]
            var logLevel: Logger.Level = .trace
            subscript(metadataKey key: String) -> Logger.Metadata.Value? {
                get { metadata[key] }
                set { metadata[key] = newValue }
            }
            func log(event: LogEvent) {
                let data = (event.metadata ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }
                    .joined(separator: " ")
                lines.lines.append("\(event.level): \(event.message) \(data)")
            }
        }
    }

    static let abs = EventType.abs

    static func touch(_ source: PipeSource, id: Int32, at ms: Int64, lift: Int64) {
        source.write(LiveRunnerTests.frame(ms, [(abs, AbsCode.mtTrackingID, id), (abs, AbsCode.mtPositionX, 500),
                                                (abs, AbsCode.mtPositionY, 300)]))
        source.write(LiveRunnerTests.frame(lift, [(abs, AbsCode.mtTrackingID, -1)]))
    }

    /// Runs sources through a runner with `factory` until `removals` removals were published.
    static func run(_ provider: PipeProvider, factory: PanelCopyFactory?, mode: PanelCopyMode = .routed,
                    config: String = "Tests/Fixtures/config/kernel-test-plain.json5",
                    log: LogLines, removals: Int, beforeRun: (LiveRunner) -> Void = { _ in }) throws -> RecordingSink {
        let loop = try EventLoop()
        let sink = RecordingSink()
        let runner = LiveRunner(loop: loop, provider: provider,
                                setup: try LiveRunnerTests.setup(config),
                                sink: sink, logger: log.logger, clock: { Timestamp(microseconds: 2_000_000) },
                                recordSinks: [sink.records], makePanelCopy: factory, panelCopyMode: mode)
        sink.isDone = { sink in
            sink.deviceActions.filter { $0 == "removed" }.count >= removals && runner.nextDeadline == nil
        }
        sink.onDone = { runner.shutdown() }
        try runner.start()
        beforeRun(runner)
        if !runner.isStopped { try loop.run() }
        return sink
    }

    static func grabbedSource(phys: String = "usb-0000:00:14.0-4/input0") -> PipeSource {
        let source = PipeSource(description: LiveRunnerTests.touchscreen)
        source.isGrabbed = true
        source.phys = phys
        return source
    }

    @Test func aGrabbedPanelGetsACopyEachTimeItOpensAndLosesItWhenItGoes() throws {
        let first = Self.grabbedSource()
        Self.touch(first, id: 7, at: 0, lift: 40)
        first.unplug()
        let second = Self.grabbedSource()
        Self.touch(second, id: 8, at: 500, lift: 540)
        second.unplug()
        let provider = PipeProvider([first, second])
        let alive = Counter()
        var made: [RecordingCopy] = []
        var asked: [String] = []
        let log = LogLines()
        let sink = try Self.run(provider, factory: { panel throws(VirtualPanelError) in
            asked.append(panel.path)
            let copy = RecordingCopy(path: "/dev/input/event9\(made.count)", alive: alive)
            made.append(copy)
            return copy
        }, log: log, removals: 2) { runner in
            // The first panel was read to its end at start: its copy is gone with it.
            #expect(!runner.isAttached)
            #expect(runner.panelCopyPath == nil)
            provider.notifyPlugged()
        }
        #expect(sink.deviceActions == ["added", "removed", "added", "removed"])
        #expect(asked == ["/dev/input/event-test", "/dev/input/event-test"])
        #expect(made.count == 2)
        // Routing forwards nothing in this configuration (no routing yet): nothing written.
        #expect(made.allSatisfy { $0.written.isEmpty })
        made.removeAll()
        #expect(alive.value == 0)
        let copyLines = log.lines.filter { $0.contains("virtual panel") }
        #expect(copyLines == [
            "notice: virtual panel created copy=/dev/input/event90 name=test touchscreen panel=/dev/input/event-test",
            "notice: virtual panel removed copy=/dev/input/event90 reason=the panel is gone",
            "notice: virtual panel created copy=/dev/input/event91 name=test touchscreen panel=/dev/input/event-test",
            // The second removal's batch is the one that makes this test's sink stop the runner
            // (inside the publish that hands the removal over), so the stop removes it.
            "notice: virtual panel removed copy=/dev/input/event91 reason=gestured is stopping",
        ])
    }

    @Test func passThroughWritesEveryFrameReadWithItsTimes() throws {
        let source = Self.grabbedSource()
        Self.touch(source, id: 7, at: 0, lift: 40)
        source.unplug()
        let alive = Counter()
        var copy: RecordingCopy?
        let sink = try Self.run(PipeProvider([source]), factory: { _ throws(VirtualPanelError) in
            let made = RecordingCopy(path: "/dev/input/event90", alive: alive)
            copy = made
            return made
        }, mode: .passThrough, log: LogLines(), removals: 1)
        let abs = Self.abs
        let expected = LiveRunnerTests.frame(0, [(abs, AbsCode.mtTrackingID, 7), (abs, AbsCode.mtPositionX, 500),
                                                 (abs, AbsCode.mtPositionY, 300)])
            + LiveRunnerTests.frame(40, [(abs, AbsCode.mtTrackingID, -1)])
        #expect(copy?.written == expected)
        #expect(LiveRunnerTests.touchPhases(sink.events) == ["1:began", "1:ended"])
    }

    @Test func aPanelThatIsNotGrabbedGetsNoCopyAndTheLogSaysWhy() throws {
        let source = PipeSource(description: LiveRunnerTests.touchscreen)
        Self.touch(source, id: 7, at: 0, lift: 40)
        source.unplug()
        var asked = 0
        let log = LogLines()
        let sink = try Self.run(PipeProvider([source]), factory: { _ throws(VirtualPanelError) in
            asked += 1
            return RecordingCopy(path: "never", alive: Counter())
        }, log: log, removals: 1)
        #expect(asked == 0)
        #expect(log.lines.contains {
            $0.hasPrefix("error: no virtual panel: routing forwards touches only from a grabbed panel")
                && $0.contains("(set grab: true)")
        })
        #expect(LiveRunnerTests.touchPhases(sink.events) == ["1:began", "1:ended"])
    }

    /// Each way the copy cannot be made: logged with its cause and fix, and the clients get
    /// every touch as without routing.
    @Test(arguments: [
        (VirtualPanelError.creation(SystemError(call: "libevdev_uinput_create_from_device", errno: .noSuchFileOrDirectory,
                                                subject: "/dev/uinput")),
         "load the uinput module (`modprobe uinput`"),
        (.creation(SystemError(call: "libevdev_uinput_create_from_device", errno: .permissionDenied, subject: "/dev/uinput")),
         "gestured-uinput group"),
        (.creation(SystemError(call: "libevdev_uinput_create_from_device", errno: .notPermitted, subject: "/dev/uinput")),
         "`DeviceAllow=/dev/uinput rw`"),
        (.cannotCopy(panel: "big panel", problems: ["ABS_MT_SLOT: 128 slots, uinput takes at most 100"]),
         "cannot be copied through uinput: ABS_MT_SLOT: 128 slots, uinput takes at most 100"),
    ])
    func aCopyThatCannotBeMadeIsLoggedAndTheClientsAreServed(failure: VirtualPanelError, fix: String) throws {
        let source = Self.grabbedSource()
        Self.touch(source, id: 7, at: 0, lift: 40)
        source.unplug()
        let log = LogLines()
        let sink = try Self.run(PipeProvider([source]), factory: { _ throws(VirtualPanelError) in throw failure },
                                log: log, removals: 1)
        let lines = log.lines.filter { $0.hasPrefix("error: no virtual panel: touches are not forwarded to the desktop") }
        #expect(lines.count == 1)
        #expect(lines.first?.contains(fix) == true)
        #expect(LiveRunnerTests.touchPhases(sink.events) == ["1:began", "1:ended"])
    }

    /// The copy made at start, then refused when the panel comes back (the module unloaded
    /// meanwhile): logged, and the second panel's touches are served all the same.
    @Test func aCopyRefusedAtReplugIsLoggedAndTheClientsAreServed() throws {
        let first = Self.grabbedSource()
        Self.touch(first, id: 7, at: 0, lift: 40)
        first.unplug()
        let second = Self.grabbedSource()
        Self.touch(second, id: 8, at: 500, lift: 540)
        second.unplug()
        let provider = PipeProvider([first, second])
        let alive = Counter()
        var calls = 0
        let log = LogLines()
        let sink = try Self.run(provider, factory: { _ throws(VirtualPanelError) in
            calls += 1
            if calls > 1 {
                throw .creation(SystemError(call: "open", errno: .noSuchFileOrDirectory, subject: "/dev/uinput"))
            }
            return RecordingCopy(path: "/dev/input/event90", alive: alive)
        }, log: log, removals: 2) { _ in provider.notifyPlugged() }
        #expect(calls == 2)
        #expect(alive.value == 0)
        #expect(log.lines.filter { $0.hasPrefix("error: no virtual panel: touches are not forwarded") }.count == 1)
        #expect(LiveRunnerTests.touchPhases(sink.events) == ["1:began", "1:ended", "2:began", "2:ended"])
    }

    @Test func aCopyThatRefusesAWriteIsDroppedOnceAndTheClientsAreServed() throws {
        let source = Self.grabbedSource()
        Self.touch(source, id: 7, at: 0, lift: 40)
        Self.touch(source, id: 8, at: 100, lift: 140)
        source.unplug()
        let alive = Counter()
        let log = LogLines()
        let sink = try Self.run(PipeProvider([source]), factory: { _ throws(VirtualPanelError) in
            let made = RecordingCopy(path: "/dev/input/event90", alive: alive)
            made.failure = .write(SystemError(call: "write", errno: .operationNotSupportedByDevice, subject: "/dev/input/event90"))
            return made
        }, mode: .passThrough, log: log, removals: 1)
        // Dropped at the first refusal, not kept until the panel went.
        #expect(alive.value == 0)
        #expect(log.lines.filter { $0.hasPrefix("error: the virtual panel refused forwarded touches") }.count == 1)
        #expect(LiveRunnerTests.touchPhases(sink.events) == ["1:began", "1:ended", "2:began", "2:ended"])
    }

    /// The runner's virtual panel writer is a sink of the pipeline's records: with routing, the
    /// copy gets exactly the panel's frames the records held, in order, whatever the batches.
    @Test func theCopyGetsExactlyThePanelFramesOfTheRecords() throws {
        let source = Self.grabbedSource()
        Self.touch(source, id: 7, at: 0, lift: 40)
        Self.touch(source, id: 8, at: 100, lift: 140)
        source.unplug()
        let alive = Counter()
        var made: [RecordingCopy] = []
        let sink = try Self.run(PipeProvider([source]), factory: { _ throws(VirtualPanelError) in
            let copy = RecordingCopy(path: "/dev/input/event90", alive: alive)
            made.append(copy)
            return copy
        }, config: "Tests/Fixtures/replay/routing-forward-all.json5", log: LogLines(), removals: 1)
        let copy = try #require(made.first)
        #expect(!sink.records.panel.isEmpty)
        #expect(copy.written == sink.records.panel)
        // Both touches went down and up on the copy, in complete frames.
        let ids = copy.written.filter { $0.type == EventType.abs && $0.code == AbsCode.mtTrackingID }.map(\.value)
        #expect(ids == [7, -1, 8, -1])
        #expect(copy.written.last?.isFrameEnd == true)
    }

    @Test func stopRemovesTheCopy() throws {
        let source = Self.grabbedSource()
        source.write(LiveRunnerTests.frame(0, [(Self.abs, AbsCode.mtTrackingID, 7), (Self.abs, AbsCode.mtPositionX, 500),
                                               (Self.abs, AbsCode.mtPositionY, 300)]))
        let alive = Counter()
        let log = LogLines()
        _ = try Self.run(PipeProvider([source]), factory: { _ throws(VirtualPanelError) in
            RecordingCopy(path: "/dev/input/event90", alive: alive)
        }, log: log, removals: 99) { runner in
            #expect(runner.panelCopyPath == "/dev/input/event90")
            runner.shutdown()
            #expect(runner.panelCopyPath == nil)
        }
        #expect(alive.value == 0)
        #expect(log.lines.contains("notice: virtual panel removed copy=/dev/input/event90 reason=gestured is stopping"))
    }
}
