#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureCore
import GestureRuntime
import Testing

/// `gestured run` as one loop: the live runner reading pipe devices and the socket server
/// answering real clients (``LiveDaemonHarness``). The process-level behaviour (signals,
/// systemd's variables, no device at all) is in DaemonIntegrationTests; real devices are in
/// the kernel tests (tools/vmtest).
@Suite("Live daemon")
struct LiveDaemonTests {
    /// A 1920 × 1080 screen, the device's units: a left half with a tap recognizer and a
    /// button on the right half.
    static let configuration = """
        {
          screen: { width: 1920, height: 1080 },
          socket: { path: "/run/gestured/unused.sock" },
          layout: {
            id: "screen", frame: [0, 0, 1920, 1080], multipleTouchEnabled: true,
            subviews: [
              { id: "left", frame: [0, 0, 960, 1080], recognizers: [{ id: "leftTap", type: "tap" }] },
              { id: "rightButton", frame: [960, 0, 960, 1080], kind: "control" },
            ],
          },
        }
        """

    /// What `layout.set` sends: one view over the whole screen.
    static let wall = #"{"id":"wall","frame":[0,0,1920,1080],"subviews":[{"id":"poster","frame":[0,0,1920,1080]}]}"#

    static let abs = EventType.abs

    static func down(_ ms: Int64, id: Int32, x: Int32, y: Int32) -> [RawEvent] {
        LiveRunnerTests.frame(ms, [(abs, AbsCode.mtSlot, 0), (abs, AbsCode.mtTrackingID, id),
                                   (abs, AbsCode.mtPositionX, x), (abs, AbsCode.mtPositionY, y)])
    }

    static func move(_ ms: Int64, x: Int32, y: Int32) -> [RawEvent] {
        LiveRunnerTests.frame(ms, [(abs, AbsCode.mtSlot, 0), (abs, AbsCode.mtPositionX, x), (abs, AbsCode.mtPositionY, y)])
    }

    static func up(_ ms: Int64) -> [RawEvent] {
        LiveRunnerTests.frame(ms, [(abs, AbsCode.mtSlot, 0), (abs, AbsCode.mtTrackingID, -1)])
    }

    /// "type phase-or-state view" of each event line, for whole-stream assertions.
    static func summary(_ lines: [String]) throws -> [String] {
        try lines.map(parse).map { event in
            let type = event["type"] as? String ?? "?"
            let what = event["phase"] ?? event["state"] ?? event["event"] ?? event["action"] ?? event["revision"] ?? event["reason"] ?? ""
            return "\(type) \(what) \(event["view"] ?? event["name"] ?? "")".trimmingCharacters(in: .whitespaces)
        }
    }

    static func endedCount(_ client: LoopClient) -> Int {
        client.lines.count { lineType($0) == "touches" && $0.contains(#""phase":"ended""#) }
    }

    @Test func aSubscriberReceivesTheLiveStreamExactlyAsStdoutHasIt() throws {
        let source = PipeSource(description: LiveRunnerTests.touchscreen)
        let harness = try LiveDaemonHarness(configuration: Self.configuration, sources: [source])
        try harness.daemon.start()
        let client = try harness.subscriber()
        // A tap on the left half, then a press of the button.
        source.write(Self.down(0, id: 10, x: 400, y: 500) + Self.up(50)
            + Self.down(400, id: 11, x: 1400, y: 500) + Self.up(450))
        #expect(try harness.drive { client.lines.contains { $0.contains("touchUpInside") } })
        harness.daemon.stop(reason: "test")
        #expect(try harness.drive { harness.daemon.isClosed && client.reachedEnd })

        let received = client.lines
        #expect(lineType(received.last ?? "") == "bye")
        #expect(try Self.summary(received) == [
            // The recognized tap cancels the touch in its view (cancelsTouchesInView).
            "touches began left", "touches cancelled left", "gesture recognized left",
            "touches began rightButton", "control touchDown rightButton",
            "touches ended rightButton", "control touchUpInside rightButton",
            "bye stopping",
        ])
        // The very lines of --stdout, `seq` included (one stream, numbered once), which also has
        // the device event from before the subscription.
        let stdout = harness.stdoutLines
        #expect(try Self.summary(Array(stdout.prefix(1))) == ["device added test touchscreen"])
        #expect(Array(stdout.dropFirst()) == Array(received.dropLast()))
        #expect(received.first?.contains(#""seq":2,"#) == true)
    }

    @Test func layoutSetMidStreamKeepsTheTouchThatIsDownOnItsView() throws {
        let source = PipeSource(description: LiveRunnerTests.touchscreen)
        let harness = try LiveDaemonHarness(configuration: Self.configuration, sources: [source])
        try harness.daemon.start()
        let watcher = try harness.subscriber(#""kinds":["touches","layout"]"#)
        let controller = try harness.connect()

        source.write(Self.down(0, id: 10, x: 400, y: 500))
        #expect(try harness.drive { watcher.lines.count == 1 })
        let reply = try harness.request(controller, #"{"type":"layout.set","id":1,"layout":\#(Self.wall)}"#)
        #expect(reply["ok"] as? Bool == true && reply["revision"] as? Int == 2, "\(reply)")
        // The finger that was down moves and lifts on the view it began on; the next lands on the new layout.
        source.write(Self.move(100, x: 420, y: 500) + Self.up(150) + Self.down(600, id: 11, x: 400, y: 500) + Self.up(650))
        #expect(try harness.drive { Self.endedCount(watcher) == 2 })
        #expect(try Self.summary(watcher.lines) == [
            "touches began left", "layout 2", "touches moved left", "touches ended left",
            "touches began poster", "touches ended poster",
        ])
        let status = try harness.request(controller, #"{"type":"status","id":2}"#)
        #expect((status["layout"] as? [String: Any])?["revision"] as? Int == 2)
        // --stdout announces the change too.
        #expect(harness.stdoutLines.contains { lineType($0) == "layout" && $0.contains(#""revision":2"#) })
    }

    /// `screen.set` (SPEC 9): touches that begin afterwards are rotated, the one that is down
    /// keeps its mapping; subscribers and `status` learn of it; a reload gives the configured
    /// screen back.
    @Test func screenSetRotatesTouchesThatBeginAfterItUntilAReload() throws {
        let source = PipeSource(description: LiveRunnerTests.touchscreen)
        let harness = try LiveDaemonHarness(configuration: Self.configuration, sources: [source])
        try harness.daemon.start()
        let watcher = try harness.subscriber(#""kinds":["touches","screen"]"#)
        let controller = try harness.connect()

        source.write(Self.down(0, id: 10, x: 400, y: 500))
        #expect(try harness.drive { watcher.lines.count == 1 })
        let reply = try harness.request(controller, #"{"type":"screen.set","id":1,"rotation":180}"#)
        #expect(reply["screen"] as? [String: Double] == ["width": 1920, "height": 1080, "rotation": 180], "\(reply)")
        // Device x 400 of 1920 is on the left half; rotated 180° it is at x = 1920 - 400: the button.
        source.write(Self.move(100, x: 420, y: 500) + Self.up(150) + Self.down(600, id: 11, x: 400, y: 500) + Self.up(650))
        #expect(try harness.drive { Self.endedCount(watcher) == 2 })
        #expect(try Self.summary(watcher.lines) == [
            "touches began left", "screen", "touches moved left", "touches ended left",
            "touches began rightButton", "touches ended rightButton",
        ])
        let status = try harness.request(controller, #"{"type":"status","id":2}"#)
        #expect(status["screen"] as? [String: Double] == ["width": 1920, "height": 1080, "rotation": 180])

        let reloaded = try harness.request(controller, #"{"type":"reload","id":3}"#)
        #expect(reloaded["ok"] as? Bool == true, "\(reloaded)")
        #expect(try harness.drive { watcher.lines.count == 7 })
        #expect(try parse(watcher.lines[6])["message"] as? String == "screen restored from the configuration by a reload")
        let after = try harness.request(controller, #"{"type":"status","id":4}"#)
        #expect(after["screen"] as? [String: Double] == ["width": 1920, "height": 1080, "rotation": 0])
        // --stdout announces it too.
        #expect(harness.stdoutLines.count { lineType($0) == "screen" } == 2)
    }

    /// SPEC 6: udev's LIBINPUT_CALIBRATION_MATRIX for the device applies when the
    /// configuration sets none; the device event says where the matrix came from.
    @Test func udevsCalibrationAppliesWhenTheConfigurationSetsNone() throws {
        let source = PipeSource(description: LiveRunnerTests.touchscreen)
        source.udevProperties = ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1", "LIBINPUT_CALIBRATION_MATRIX": "-1 0 1 0 1 0"]
        let harness = try LiveDaemonHarness(configuration: Self.configuration, sources: [source])
        try harness.daemon.start()
        let watcher = try harness.subscriber(#""kinds":["touches"]"#)
        // Device x 400 is on the left half; mirrored by the matrix it is on the button.
        source.write(Self.down(0, id: 10, x: 400, y: 500) + Self.up(50))
        #expect(try harness.drive { Self.endedCount(watcher) == 1 })
        #expect(try Self.summary(watcher.lines) == ["touches began rightButton", "touches ended rightButton"])
        let added = try parse(harness.stdoutLines[0])["message"] as? String
        #expect(added == "reading /dev/input/event-test (touchscreen: udev says ID_INPUT_TOUCHSCREEN=1); "
            + "calibration [-1, 0, 1, 0, 1, 0] from udev's LIBINPUT_CALIBRATION_MATRIX")
    }

    @Test func hitTestAndStatusShowTheDeviceWhileItIsThereAndWhileItIsUnplugged() throws {
        let first = PipeSource(description: LiveRunnerTests.touchscreen)
        let second = PipeSource(description: LiveRunnerTests.touchscreen)
        let harness = try LiveDaemonHarness(configuration: Self.configuration, sources: [first, second])
        try harness.daemon.start()
        // The device was open before READY=1, which says so; nothing before it.
        #expect(harness.notify.received()
            == ["READY=1\nSTATUS=reading /dev/input/event-test \"test touchscreen\"; 0 subscribers on \(harness.socketPath)"])

        let client = try harness.subscriber(#""kinds":["device"]"#)
        let status = try harness.request(client, #"{"type":"status","id":1}"#)
        let input = try #require(status["input"] as? [String: Any])
        #expect(input["source"] as? String == "device")
        #expect(input["device"] as? String == "test touchscreen")
        #expect(input["path"] as? String == "/dev/input/event-test")
        let hit = try harness.request(client, #"{"type":"hitTest","id":2,"x":1400,"y":500}"#)
        #expect(hit["view"] as? String == "rightButton")
        #expect((hit["trace"] as? [String])?.isEmpty == false)

        // Unplugged with a finger down: the touch is cancelled, clients keep being served.
        first.write(Self.down(0, id: 10, x: 400, y: 500))
        first.unplug()
        #expect(try harness.drive { client.lines.contains { $0.contains(#""action":"removed""#) } })
        let unplugged = try #require(try harness.request(client, #"{"type":"status","id":3}"#)["input"] as? [String: Any])
        #expect(unplugged["device"] is NSNull && unplugged["path"] is NSNull, "\(unplugged)")
        #expect(unplugged["activeTouches"] as? Int == 0)
        #expect(unplugged["frames"] as? Int == 1)
        #expect(harness.notify.received().last
            == "STATUS=waiting for the touchscreen (the test device); 1 subscriber on \(harness.socketPath)")
        let stillServed = try harness.request(client, #"{"type":"hitTest","id":4,"x":400,"y":500}"#)
        #expect(stillServed["view"] as? String == "left")

        // Plugged in again: picked up, and the status says so.
        harness.provider.notifyPlugged()
        #expect(try harness.drive { client.lines.count { $0.contains(#""action":"added""#) } == 1 })
        let back = try #require(try harness.request(client, #"{"type":"status","id":5}"#)["input"] as? [String: Any])
        #expect(back["device"] as? String == "test touchscreen")
        #expect(harness.notify.received().last?.hasPrefix("STATUS=reading /dev/input/event-test") == true)
    }

    @Test func stoppingCancelsTheTouchThatIsDownAndClientsGetItThenBye() throws {
        let source = PipeSource(description: LiveRunnerTests.touchscreen)
        let harness = try LiveDaemonHarness(configuration: Self.configuration, sources: [source])
        try harness.daemon.start()
        let client = try harness.subscriber(#""kinds":["touches"]"#)
        source.write(Self.down(0, id: 10, x: 1400, y: 500))
        #expect(try harness.drive { client.lines.count == 1 })

        // What SIGTERM does (the signal handler calls stop on the loop).
        harness.daemon.stop(reason: "SIGTERM")
        #expect(try harness.drive { harness.daemon.isClosed && client.reachedEnd })
        #expect(try Self.summary(client.lines) == ["touches began rightButton", "touches cancelled rightButton", "bye stopping"])
        #expect(harness.notify.received().last == "STOPPING=1\nSTATUS=stopping")
        #expect(try Self.summary(harness.stdoutLines) == [
            "device added test touchscreen", "touches began rightButton", "control touchDown rightButton",
            "touches cancelled rightButton", "control touchCancel rightButton",
        ])
        // The socket file goes with the daemon that made it.
        #expect(access(harness.socketPath, F_OK) != 0)
    }
}
