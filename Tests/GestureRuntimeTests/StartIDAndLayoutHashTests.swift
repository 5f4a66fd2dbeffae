import GestureConfig
import GestureCore
import Testing

/// The daemon's start id and its layout's hash over the real socket (docs/protocol.md,
/// "hello" and "status"; docs/events.md, "layout"): one start id per daemon, the same in every
/// `hello` and `status` of it, another for another daemon; `status` and the `layout` event carry
/// the ``LayoutHash`` of the layout in force, which follows `layout.set` and comes back with the
/// same layout.
@Suite("Live daemon: start id and layout hash")
struct StartIDAndLayoutHashTests {
    static func isStartID(_ value: Any?) -> Bool {
        guard let text = value as? String else { return false }
        return text.utf8.count == 16 && text.utf8.allSatisfy { (0x30...0x39).contains($0) || (0x61...0x66).contains($0) }
    }

    static func started() throws -> (LiveDaemonHarness, LoopClient) {
        let source = PipeSource(path: "/dev/input/event7", description: LiveRunnerTests.touchscreen)
        let harness = try LiveDaemonHarness(configuration: LiveDaemonTests.configuration, sources: [source])
        try harness.daemon.start()
        return (harness, try harness.subscriber())
    }

    @Test func helloAndStatusCarryTheDaemonsOneStartID() throws {
        let (harness, client) = try Self.started()
        let hello = try parse(client.hello)
        #expect(Self.isStartID(hello["startId"]), "\(client.hello)")
        // The bridge rewrites canControl at the end of the line: it stays last.
        #expect(client.hello.hasSuffix(#""canControl":true}"#) || client.hello.hasSuffix(#""canControl":false}"#))
        let status = try harness.request(client, #"{"type":"status","id":"s"}"#)
        #expect(status["startId"] as? String == hello["startId"] as? String, "\(status)")
        let second = try harness.connect()
        #expect(try parse(second.hello)["startId"] as? String == hello["startId"] as? String, "one id per start, not per client")
        let (other, otherClient) = try Self.started()
        #expect(try parse(otherClient.hello)["startId"] as? String != hello["startId"] as? String, "another start, another id")
        _ = other
    }

    @Test func statusAndTheLayoutEventCarryTheHashOfTheLayoutInForce() throws {
        let (harness, client) = try Self.started()
        let configured = try ConfigurationLoader.parse(text: LiveDaemonTests.configuration, file: "test.json5").layout
        func statusHash() throws -> String? {
            let status = try harness.request(client, #"{"type":"status","id":"s"}"#)
            return (status["layout"] as? [String: Any])?["hash"] as? String
        }
        let first = try statusHash()
        #expect(first == LayoutHash(of: configured).description)
        let reply = try harness.request(client, #"{"type":"layout.set","id":"l","layout":\#(LiveDaemonTests.wall)}"#)
        #expect(reply["ok"] as? Bool == true, "\(reply)")
        let wall = try ConfigurationLoader.parseLayout(text: LiveDaemonTests.wall, file: "wall.json")
        let event = try #require(client.lines.map(parse).last { $0["type"] as? String == "layout" })
        #expect(event["hash"] as? String == LayoutHash(of: wall).description, "\(event)")
        #expect(event["revision"] as? Int == 2)
        #expect(try statusHash() == LayoutHash(of: wall).description)
        #expect(first != LayoutHash(of: wall).description)
        // The configured layout again (LiveDaemonTests.configuration's, as JSON): a new
        // revision, the same hash as before.
        let back = try harness.request(client, #"{"type":"layout.set","id":"b","layout":{"id":"screen","frame":[0,0,1920,1080],"multipleTouchEnabled":true,"subviews":[{"id":"left","frame":[0,0,960,1080],"recognizers":[{"id":"leftTap","type":"tap"}]},{"id":"rightButton","frame":[960,0,960,1080],"kind":"control"}]}}"#)
        #expect(back["revision"] as? Int == 3, "\(back)")
        #expect(try statusHash() == first, "the same layout, the same hash")
    }
}
