#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureCore
import GestureRuntime
import Testing

/// A live daemon of several screens (docs/architecture.md, "The host and its pipelines"): one
/// runner per screen on one loop, one `seq` for the daemon, each event naming its screen, and a
/// screen's unplug cancelling that screen's touches only.
@Suite("Live daemon, several screens")
struct LiveScreensTests {
    static let configuration = """
        {
          socket: { path: "/run/gestured/unused.sock" },
          screens: [
            { id: "customer", device: { phys: "usb-1/input0" },
              layout: { id: "pay", frame: [0, 0, 1920, 1080], subviews: [
                { id: "payButton", frame: [0, 0, 1920, 1080], kind: "control" } ] } },
            { id: "clerk", device: { phys: "usb-2/input0" }, screen: { width: 1920, height: 1080 },
              layout: { id: "desk", frame: [0, 0, 1920, 1080], subviews: [
                { id: "deskButton", frame: [0, 0, 1920, 1080], kind: "control" } ] } },
          ],
        }
        """

    static func object(_ line: String) throws -> [String: Any] { try parse(line) }

    @Test func bothScreensTouchedAtOnceShareOneSeqAndNameTheirScreen() throws {
        let customer = PipeSource(path: "/dev/input/event-a", description: LiveRunnerTests.touchscreen)
        let clerk = PipeSource(path: "/dev/input/event-b", description: LiveRunnerTests.touchscreen)
        let harness = try LiveDaemonHarness(configuration: Self.configuration, screens: [[customer], [clerk]])
        try harness.daemon.start()
        let client = try harness.subscriber()
        // The same slot and tracking id on both panels: they never meet.
        customer.write(LiveDaemonTests.down(0, id: 7, x: 400, y: 500))
        clerk.write(LiveDaemonTests.down(1, id: 7, x: 400, y: 500))
        #expect(try harness.drive { client.lines.count { $0.contains("touchDown") } == 2 })
        customer.write(LiveDaemonTests.up(20))
        clerk.write(LiveDaemonTests.up(21))
        #expect(try harness.drive { client.lines.count { $0.contains("touchUpInside") } == 2 })

        let stdout = harness.stdoutLines
        let events = try stdout.map(Self.object)
        // One seq over both screens, from 1, with no gap.
        #expect(events.compactMap { $0["seq"] as? Int } == Array(1...stdout.count))
        // Every event names its screen; each screen's events are about its own layout.
        for event in events {
            let screen = try #require(event["screen"] as? String)
            if let view = event["view"] as? String {
                #expect(view == (screen == "customer" ? "payButton" : "deskButton"))
            }
        }
        #expect(events.filter { $0["type"] as? String == "device" }.compactMap { $0["screen"] as? String }
            == ["customer", "clerk"])
        // status lists both screens with their panels.
        let status = try harness.request(client, #"{"type":"status","id":"s"}"#)
        let screens = try #require(status["screens"] as? [[String: Any]], "\(status)")
        #expect(screens.map { $0["id"] as? String } == ["customer", "clerk"])
        #expect(screens.map { $0["path"] as? String } == ["/dev/input/event-a", "/dev/input/event-b"])
        #expect(harness.daemon.statusLine.contains("customer: reading /dev/input/event-a"))
        #expect(harness.daemon.statusLine.contains("clerk: reading /dev/input/event-b"))
    }

    @Test func unpluggingOnePanelCancelsOnlyItsScreensTouches() throws {
        let customer = PipeSource(path: "/dev/input/event-a", description: LiveRunnerTests.touchscreen)
        let clerk = PipeSource(path: "/dev/input/event-b", description: LiveRunnerTests.touchscreen)
        let harness = try LiveDaemonHarness(configuration: Self.configuration, screens: [[customer], [clerk]])
        try harness.daemon.start()
        let client = try harness.subscriber()
        customer.write(LiveDaemonTests.down(0, id: 1, x: 400, y: 500))
        clerk.write(LiveDaemonTests.down(1, id: 1, x: 400, y: 500))
        #expect(try harness.drive { client.lines.count { $0.contains("touchDown") } == 2 })
        customer.unplug()
        #expect(try harness.drive { client.lines.contains { $0.contains(#""action":"removed""#) } })
        // The clerk's touch is still down and goes on: it moves and ends normally.
        clerk.write(LiveDaemonTests.move(30, x: 500, y: 500) + LiveDaemonTests.up(40))
        #expect(try harness.drive { client.lines.contains { $0.contains("touchUpInside") } })
        let events = try client.lines.map(Self.object)
        let cancelled = events.filter { $0["phase"] as? String == "cancelled" }
        #expect(!cancelled.isEmpty)
        #expect(cancelled.allSatisfy { $0["screen"] as? String == "customer" })
        #expect(events.contains { $0["screen"] as? String == "clerk" && $0["event"] as? String == "touchUpInside" })
        #expect(!events.contains { $0["screen"] as? String == "clerk" && $0["phase"] as? String == "cancelled" })
        #expect(harness.daemon.statusLine.contains("customer: waiting for the touchscreen"))
    }

    @Test func aScreenWithoutItsPanelWaitsWithoutStoppingTheOther() throws {
        let clerk = PipeSource(path: "/dev/input/event-b", description: LiveRunnerTests.touchscreen)
        let harness = try LiveDaemonHarness(configuration: Self.configuration, screens: [[], [clerk]])
        try harness.daemon.start()
        let client = try harness.subscriber()
        clerk.write(LiveDaemonTests.down(0, id: 1, x: 400, y: 500) + LiveDaemonTests.up(10))
        #expect(try harness.drive { client.lines.contains { $0.contains("touchUpInside") } })
        #expect(harness.daemon.statusLine.hasPrefix("customer: waiting for the touchscreen"))
    }

    /// Each screen's deadlines are its own: both screens held at once both see their long press
    /// begin (the loop has one deadline; a second screen arming it must not take the first's).
    @Test func bothScreensDeadlinesFireWhenArmedInOneTurn() throws {
        let configuration = """
            {
              socket: { path: "/run/gestured/unused.sock" },
              screens: [
                { id: "customer", device: { phys: "usb-1/input0" },
                  layout: { id: "pay", frame: [0, 0, 1920, 1080],
                            recognizers: [{ id: "payHold", type: "longPress", minimumDuration: 0.1 }] } },
                { id: "clerk", device: { phys: "usb-2/input0" }, screen: { width: 1920, height: 1080 },
                  layout: { id: "desk", frame: [0, 0, 1920, 1080],
                            recognizers: [{ id: "deskHold", type: "longPress", minimumDuration: 0.1 }] } },
              ],
            }
            """
        let customer = PipeSource(path: "/dev/input/event-a", description: LiveRunnerTests.touchscreen)
        let clerk = PipeSource(path: "/dev/input/event-b", description: LiveRunnerTests.touchscreen)
        let harness = try LiveDaemonHarness(configuration: configuration, screens: [[customer], [clerk]])
        try harness.daemon.start()
        let client = try harness.subscriber()
        // Both panels written before the loop turns: both runners read and arm in one turn.
        customer.write(LiveDaemonTests.down(0, id: 1, x: 400, y: 500))
        clerk.write(LiveDaemonTests.down(0, id: 1, x: 400, y: 500))
        #expect(try harness.drive {
            client.lines.contains { $0.contains("payHold") && $0.contains(#""state":"began""#) }
                && client.lines.contains { $0.contains("deskHold") && $0.contains(#""state":"began""#) }
        })
    }
}
