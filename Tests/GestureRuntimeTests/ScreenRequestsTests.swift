#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureCore
import GestureRuntime
import Testing

/// The requests of a daemon of several screens over its real socket (docs/protocol.md,
/// "Several screens"): `layout.set`, `view.update`, `screen.set` and `hitTest` act on the
/// screen they name and on no other; with several screens one that names none, or names one
/// the daemon lacks, is refused with the screens listed; `hello` lists the screens; a reload
/// applies to every screen, and a screen whose new layout alone is invalid keeps its own.
@Suite("Live daemon, several screens: requests")
struct ScreenRequestsTests {
    static let configuration = LiveScreensTests.configuration

    /// A daemon of the two screens with a panel each, started, and a subscribed client.
    static func started() throws -> (LiveDaemonHarness, LoopClient, customer: PipeSource, clerk: PipeSource) {
        let customer = PipeSource(path: "/dev/input/event-a", description: LiveRunnerTests.touchscreen)
        let clerk = PipeSource(path: "/dev/input/event-b", description: LiveRunnerTests.touchscreen)
        let harness = try LiveDaemonHarness(configuration: configuration, screens: [[customer], [clerk]])
        try harness.daemon.start()
        return (harness, try harness.subscriber(), customer, clerk)
    }

    static func hitView(_ harness: LiveDaemonHarness, _ client: LoopClient, screen: String, id: String) throws -> String? {
        let reply = try harness.request(client, #"{"type":"hitTest","id":"\#(id)","x":10,"y":10,"screen":"\#(screen)"}"#)
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        return reply["view"] as? String
    }

    static func error(_ reply: [String: Any]) -> (code: String?, message: String) {
        let error = reply["error"] as? [String: Any]
        return (error?["code"] as? String, error?["message"] as? String ?? "")
    }

    @Test func helloListsTheScreensBeforeCanControl() throws {
        let (harness, client, _, _) = try Self.started()
        let hello = try parse(client.hello)
        let screens = try #require(hello["screens"] as? [[String: Any]], "\(client.hello)")
        #expect(screens.map { $0["id"] as? String } == ["customer", "clerk"])
        #expect(screens.map { $0["path"] as? String } == ["/dev/input/event-a", "/dev/input/event-b"])
        #expect(screens.allSatisfy { ($0["screen"] as? [String: Any])?["width"] as? Double == 1920 })
        // The bridge rewrites canControl at the end of the line: it stays last.
        #expect(client.hello.hasSuffix(#","canControl":true}"#), "\(client.hello)")
        _ = harness
    }

    @Test func aLayoutSetForOneScreenLeavesTheOtherAlone() throws {
        let (harness, client, customer, _) = try Self.started()
        // A touch down on the customer's screen before the clerk's layout changes.
        customer.write(LiveDaemonTests.down(0, id: 3, x: 400, y: 500))
        #expect(try harness.drive { client.lines.contains { $0.contains("touchDown") } })
        let reply = try harness.request(client, #"""
            {"type":"layout.set","id":"l","screen":"clerk","layout":{"id":"desk2","frame":[0,0,1920,1080],"subviews":[{"id":"newDesk","frame":[0,0,1920,1080],"kind":"control"}]}}
            """#)
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        #expect(reply["revision"] as? Int == 2)
        // The layout event names the clerk's screen.
        let layoutEvent = try #require(client.lines.map(parse).first { $0["type"] as? String == "layout" })
        #expect(layoutEvent["screen"] as? String == "clerk")
        #expect(try Self.hitView(harness, client, screen: "clerk", id: "h1") == "newDesk")
        #expect(try Self.hitView(harness, client, screen: "customer", id: "h2") == "payButton")
        // The customer's touch goes on in its own layout, untouched.
        customer.write(LiveDaemonTests.up(30))
        #expect(try harness.drive { client.lines.contains { $0.contains("touchUpInside") } })
        let ended = try client.lines.map(parse).filter { $0["event"] as? String == "touchUpInside" }
        #expect(ended.map { $0["view"] as? String } == ["payButton"])
        #expect(ended.map { $0["screen"] as? String } == ["customer"])
        // status: each screen's revision is its own.
        let status = try harness.request(client, #"{"type":"status","id":"s"}"#)
        #expect((status["layout"] as? [String: Any])?["revision"] as? Int == 1, "the first screen's revision")
    }

    @Test func viewUpdateAndScreenSetReachOnlyTheScreenNamed() throws {
        let (harness, client, _, _) = try Self.started()
        let update = try harness.request(client, #"{"type":"view.update","id":"u","screen":"customer","view":"payButton","set":{"hidden":true}}"#)
        #expect(update["ok"] as? Bool == true, "\(update)")
        #expect(try Self.hitView(harness, client, screen: "customer", id: "h1") == "pay")
        #expect(try Self.hitView(harness, client, screen: "clerk", id: "h2") == "deskButton")
        // A view of the other screen's layout is not this screen's.
        let wrong = try harness.request(client, #"{"type":"view.update","id":"w","screen":"customer","view":"deskButton","set":{"hidden":true}}"#)
        #expect(Self.error(wrong).code == "unknown_view")
        let turned = try harness.request(client, #"{"type":"screen.set","id":"t","screen":"clerk","rotation":90,"width":1080,"height":1920}"#)
        #expect((turned["screen"] as? [String: Any])?["rotation"] as? Int == 90, "\(turned)")
        let status = try harness.request(client, #"{"type":"status","id":"s"}"#)
        let screens = try #require(status["screens"] as? [[String: Any]])
        #expect(screens.map { ($0["screen"] as? [String: Any])?["rotation"] as? Int } == [0, 90])
    }

    @Test func aRequestWithoutScreenOrWithAnUnknownOneIsRefusedNamingTheScreens() throws {
        let (harness, client, _, _) = try Self.started()
        for (index, request) in [
            #"{"type":"hitTest","x":1,"y":1"#,
            #"{"type":"layout.set","layout":{"id":"x","frame":[0,0,10,10]}"#,
            #"{"type":"view.update","view":"payButton","set":{"hidden":true}"#,
            #"{"type":"screen.set","rotation":90"#,
        ].enumerated() {
            let reply = try harness.request(client, request + #","id":"n\#(index)"}"#)
            let (code, message) = Self.error(reply)
            #expect(code == "unknown_screen", "\(reply)")
            #expect(message.contains(#""customer", "clerk""#) && message.contains(#""screen""#), "\(message)")
        }
        let unknown = try harness.request(client, #"{"type":"layout.set","id":"u","screen":"lobby","layout":{"id":"x","frame":[0,0,10,10]}}"#)
        #expect(Self.error(unknown).code == "unknown_screen")
        #expect(Self.error(unknown).message.contains(#"no screen "lobby"; its screens are "customer", "clerk""#), "\(unknown)")
        let malformed = try harness.request(client, #"{"type":"hitTest","id":"m","x":1,"y":1,"screen":"no spaces"}"#)
        #expect(Self.error(malformed).code == "bad_request")
        let notTaken = try harness.request(client, #"{"type":"status","id":"st","screen":"clerk"}"#)
        #expect(Self.error(notTaken).code == "bad_request", "status is about the daemon: it takes no screen")
        // Nothing changed on either screen.
        #expect(try Self.hitView(harness, client, screen: "customer", id: "h1") == "payButton")
        #expect(try Self.hitView(harness, client, screen: "clerk", id: "h2") == "deskButton")
    }

    @Test func aLongLayoutSetPreparedOffTheLoopIsMadeForTheScreenItNames() throws {
        let (harness, client, _, _) = try Self.started()
        // Over ServerLimits.inlineLineLength: read and prepared on the worker thread.
        let subviews = (0..<120).map { #"{"id":"tile\#($0)","frame":[\#($0 * 10),0,10,20]}"# }.joined(separator: ",")
        let line = #"{"type":"layout.set","id":"big","screen":"clerk","layout":{"id":"wall","frame":[0,0,1920,1080],"subviews":["#
            + subviews + "]}}"
        #expect(line.utf8.count > 4096)
        let reply = try harness.request(client, line)
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        #expect(try Self.hitView(harness, client, screen: "clerk", id: "h1") == "tile1")
        #expect(try Self.hitView(harness, client, screen: "customer", id: "h2") == "payButton")
    }

    @Test func aReloadAppliesToEveryScreenAndAScreenWithAnInvalidLayoutKeepsItsOwn() throws {
        let (harness, client, _, _) = try Self.started()
        let path = harness.directory + "/gestured.json5"
        // The customer's layout changes; the clerk's is invalid (a negative width).
        try """
            {
              socket: { path: "/run/gestured/unused.sock" },
              screens: [
                { id: "customer", device: { phys: "usb-1/input0" },
                  layout: { id: "pay", frame: [0, 0, 1920, 1080], subviews: [
                    { id: "payAgain", frame: [0, 0, 1920, 1080], kind: "control" } ] } },
                { id: "clerk", device: { phys: "usb-2/input0" }, screen: { width: 1920, height: 1080 },
                  layout: { id: "desk", frame: [0, 0, -5, 1080] } },
              ],
            }
            """.write(toFile: path, atomically: true, encoding: .utf8)
        let reply = try harness.request(client, #"{"type":"reload","id":"r1"}"#)
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        #expect(reply["layoutChanged"] as? Bool == true)
        let screens = try #require(reply["screens"] as? [[String: Any]], "\(reply)")
        #expect(screens.map { $0["id"] as? String } == ["customer", "clerk"])
        #expect(screens.map { $0["layoutChanged"] as? Bool } == [true, false])
        #expect(screens.map { $0["revision"] as? Int } == [2, 1])
        #expect(screens[0]["error"] == nil)
        let kept = try #require(screens[1]["error"] as? [String: Any])
        #expect(kept["code"] as? String == "invalid_layout")
        #expect((kept["message"] as? String)?.hasPrefix("screen clerk keeps its layout") == true, "\(kept)")
        let problems = try #require(kept["problems"] as? [[String: Any]])
        #expect(problems.contains { ($0["path"] as? String)?.hasPrefix("screens[1].layout.frame") == true }, "\(problems)")
        #expect(try Self.hitView(harness, client, screen: "customer", id: "h1") == "payAgain")
        #expect(try Self.hitView(harness, client, screen: "clerk", id: "h2") == "deskButton")

        // The clerk's layout in a file of its own, invalid there: set aside the same way, named
        // by its file; the customer's, unchanged now, is not replaced again.
        try #"{ id: "desk", frame: [0, 0, 1920, 1080], subviews: [ { id: "x", frame: "wide" } ] }"#
            .write(toFile: harness.directory + "/clerk.json5", atomically: true, encoding: .utf8)
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: #"layout: { id: "desk", frame: [0, 0, -5, 1080] }"#, with: #"layout: "clerk.json5""#)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let again = try harness.request(client, #"{"type":"reload","id":"r2"}"#)
        let second = try #require(again["screens"] as? [[String: Any]], "\(again)")
        #expect(second.map { $0["layoutChanged"] as? Bool } == [false, false])
        let fileProblem = try #require(second[1]["error"] as? [String: Any])
        #expect((fileProblem["message"] as? String)?.contains("clerk.json5") == true, "\(fileProblem)")

        // Then a valid clerk layout: it reloads.
        try #"{ id: "desk", frame: [0, 0, 1920, 1080], subviews: [ { id: "deskAgain", frame: [0, 0, 1920, 1080] } ] }"#
            .write(toFile: harness.directory + "/clerk.json5", atomically: true, encoding: .utf8)
        let third = try harness.request(client, #"{"type":"reload","id":"r3"}"#)
        #expect((third["screens"] as? [[String: Any]])?.map { $0["layoutChanged"] as? Bool } == [false, true], "\(third)")
        #expect(try Self.hitView(harness, client, screen: "clerk", id: "h3") == "deskAgain")
        let layoutEvents = try client.lines.map(parse).filter { $0["type"] as? String == "layout" }
        #expect(layoutEvents.map { $0["screen"] as? String } == ["customer", "clerk"])
    }

    @Test func aReloadWithAProblemOutsideTheScreensLayoutsChangesNothing() throws {
        let (harness, client, _, _) = try Self.started()
        let path = harness.directory + "/gestured.json5"
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: #"id: "payButton""#, with: #"id: "payAgain""#)
            .replacingOccurrences(of: "socket: {", with: #"grab: "yes", socket: {"#)
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let reply = try harness.request(client, #"{"type":"reload","id":"r"}"#)
        #expect(Self.error(reply).code == "invalid_config", "\(reply)")
        #expect(try Self.hitView(harness, client, screen: "customer", id: "h1") == "payButton")
    }

    @Test func aReloadOfEveryScreensLayoutInvalidIsAnInvalidConfiguration() throws {
        let (harness, client, _, _) = try Self.started()
        let path = harness.directory + "/gestured.json5"
        let text = try String(contentsOfFile: path, encoding: .utf8)
            .replacingOccurrences(of: "frame: [0, 0, 1920, 1080], subviews", with: "frame: [0, 0, -1, 1080], subviews")
        try text.write(toFile: path, atomically: true, encoding: .utf8)
        let reply = try harness.request(client, #"{"type":"reload","id":"r"}"#)
        #expect(Self.error(reply).code == "invalid_config", "\(reply)")
    }
}
