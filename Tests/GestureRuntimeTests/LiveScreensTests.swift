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

    /// What both panels delivered before a turn is stepped in input time across the screens, as
    /// the merged replay steps recordings: the stream's times never go back, whichever panel
    /// the loop found readable first.
    @Test func framesReadInOneTurnGoToTheStreamInInputTimeAcrossScreens() throws {
        let customer = PipeSource(path: "/dev/input/event-a", description: LiveRunnerTests.touchscreen)
        let clerk = PipeSource(path: "/dev/input/event-b", description: LiveRunnerTests.touchscreen)
        let harness = try LiveDaemonHarness(configuration: Self.configuration, screens: [[customer], [clerk]])
        try harness.daemon.start()
        let client = try harness.subscriber()
        // The clerk's panel is written first, the customer's frames interleave with its own
        // (the test frames' times count from 1 s).
        clerk.write(LiveDaemonTests.down(10, id: 1, x: 400, y: 500) + LiveDaemonTests.move(30, x: 420, y: 500)
                    + LiveDaemonTests.up(50))
        customer.write(LiveDaemonTests.down(0, id: 1, x: 400, y: 500) + LiveDaemonTests.move(20, x: 420, y: 500)
                       + LiveDaemonTests.up(40))
        #expect(try harness.drive { client.lines.count { $0.contains("touchUpInside") } == 2 })
        let events = try harness.stdoutLines.map(Self.object).filter { $0["type"] as? String == "touches" }
        let steps = events.map { "\($0["screen"] as? String ?? "?") \($0["time"] as? Int ?? -1)" }
        #expect(steps == ["customer 1000000", "clerk 1010000", "customer 1020000", "clerk 1030000", "customer 1040000",
                          "clerk 1050000"])
    }

    /// A screen's deadline due between two events of another screen read in the same turn fires
    /// between them, at its own time (a deadline is a step of its own, as in replay).
    @Test func aDeadlineFiresBetweenAnotherScreensEventsAtItsTime() throws {
        let configuration = """
            {
              socket: { path: "/run/gestured/unused.sock" },
              screens: [
                { id: "customer", device: { phys: "usb-1/input0" },
                  layout: { id: "pay", frame: [0, 0, 1920, 1080],
                            recognizers: [{ id: "payHold", type: "longPress", minimumDuration: 0.1 }] } },
                { id: "clerk", device: { phys: "usb-2/input0" }, screen: { width: 1920, height: 1080 },
                  layout: { id: "desk", frame: [0, 0, 1920, 1080], subviews: [
                    { id: "deskButton", frame: [0, 0, 1920, 1080], kind: "control" } ] } },
              ],
            }
            """
        let customer = PipeSource(path: "/dev/input/event-a", description: LiveRunnerTests.touchscreen)
        let clerk = PipeSource(path: "/dev/input/event-b", description: LiveRunnerTests.touchscreen)
        let harness = try LiveDaemonHarness(configuration: configuration, screens: [[customer], [clerk]])
        try harness.daemon.start()
        let client = try harness.subscriber()
        clerk.write(LiveDaemonTests.down(50, id: 1, x: 400, y: 500) + LiveDaemonTests.up(150))
        customer.write(LiveDaemonTests.down(0, id: 1, x: 400, y: 500))
        #expect(try harness.drive {
            client.lines.contains { $0.contains("payHold") && $0.contains(#""state":"began""#) }
                && client.lines.contains { $0.contains("touchUpInside") }
        })
        // The input's events (not the panels' `device` events, stamped when they were opened).
        let events = try harness.stdoutLines.map(Self.object).filter { $0["type"] as? String != "device" }
        let times = events.compactMap { $0["time"] as? Int }
        #expect(times == times.sorted(), "\(harness.stdoutLines)")
        let began = try #require(events.firstIndex { $0["recognizer"] as? String == "payHold" && $0["state"] as? String == "began" })
        #expect(events[began]["time"] as? Int == 1_100_000)
        let clerkDown = try #require(events.firstIndex { $0["screen"] as? String == "clerk" && $0["phase"] as? String == "began" })
        let clerkUp = try #require(events.firstIndex { $0["screen"] as? String == "clerk" && $0["phase"] as? String == "ended" })
        #expect(clerkDown < began && began < clerkUp)
    }

    /// Events waiting when a panel is opened are fed as it opens; a later turn (another screen's
    /// frame) does not feed them again.
    @Test func eventsWaitingAtOpenAreFedOnce() throws {
        let customer = PipeSource(path: "/dev/input/event-a", description: LiveRunnerTests.touchscreen)
        let clerk = PipeSource(path: "/dev/input/event-b", description: LiveRunnerTests.touchscreen)
        customer.write(LiveDaemonTests.down(0, id: 1, x: 400, y: 500) + LiveDaemonTests.move(5, x: 450, y: 500))
        let harness = try LiveDaemonHarness(configuration: Self.configuration, screens: [[customer], [clerk]])
        try harness.daemon.start()
        let client = try harness.subscriber()
        clerk.write(LiveDaemonTests.down(10, id: 1, x: 400, y: 500) + LiveDaemonTests.up(20))
        #expect(try harness.drive { client.lines.contains { $0.contains("touchUpInside") } })
        customer.write(LiveDaemonTests.up(30))
        #expect(try harness.drive { client.lines.count { $0.contains("touchUpInside") } == 2 })
        let began = try harness.stdoutLines.map(Self.object).filter {
            $0["type"] as? String == "touches" && $0["phase"] as? String == "began"
        }
        #expect(began.map { $0["screen"] as? String } == ["customer", "clerk"], "\(harness.stdoutLines)")
        // The customer's finger moved once, to 450 (fed again, it would go back to 400 and on).
        let moved = try harness.stdoutLines.map(Self.object).filter {
            $0["type"] as? String == "touches" && $0["phase"] as? String == "moved" && $0["screen"] as? String == "customer"
        }
        #expect(moved.count == 1, "\(harness.stdoutLines)")
    }
}
