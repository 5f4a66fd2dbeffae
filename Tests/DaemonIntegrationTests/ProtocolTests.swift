#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The socket protocol against the real daemon serving a replay (SPEC 9): subscriptions,
/// requests, and what bad requests get.
@Suite("Socket protocol")
struct ProtocolTests {
    /// Taps on the left view and on the button, then a pan on the left: touches, gestures and
    /// control events on several views.
    static let mixedRecording = SyntheticRecording.evemu(
        SyntheticRecording.tap(at: 0.001, x: 100, y: 100, id: 1)
            + SyntheticRecording.tap(at: 0.5, x: 600, y: 100, id: 2)
            + [(1.0, [.down(slot: 0, id: 3, x: 100, y: 300)])]
            + (1...10).map { (1.0 + Double($0) * 0.01, [SyntheticRecording.Change.move(slot: 0, x: 100 + $0 * 12, y: 300)]) }
            + [(1.2, [.up(slot: 0)])])

    /// The test's own reading of the filter rules, applied to the unfiltered stream.
    static func expected(_ all: [String], kinds: Set<String>? = nil, views: [String]? = nil,
                         recognizers: [String]? = nil) throws -> [String] {
        func glob(_ pattern: String, _ text: String) -> Bool {
            pattern.hasSuffix("*") ? text.hasPrefix(pattern.dropLast()) : text == pattern
        }
        return try all.filter { line in
            let event = try parse(line)
            let type = event["type"] as! String
            if let kinds, !kinds.contains(type) { return false }
            if let views, ["touches", "gesture", "control", "hitTest"].contains(type) {
                let names = [event["view"] as? String].compactMap { $0 } + (event["responders"] as? [String] ?? [])
                if !names.contains(where: { name in views.contains { glob($0, name) } }) { return false }
            }
            if let recognizers, type == "gesture",
               !recognizers.contains(where: { glob($0, event["recognizer"] as! String) }) { return false }
            return true
        }
    }

    @Test func subscriptionFiltersSelectByKindViewResponderAndRecognizer() throws {
        let daemon = try DaemonFixture(recording: Self.mixedRecording, waitClients: 5)
        let idle = try daemon.connect()
        let all = try daemon.subscriber()
        let gestures = try daemon.subscriber(#""kinds":["gesture"]"#)
        let button = try daemon.subscriber(#""views":["right*"]"#)
        let pans = try daemon.subscriber(#""kinds":["gesture","touches"],"recognizers":["left*"]"#)
        let screen = try daemon.subscriber(#""views":["screen"]"#)

        let streams = try TestClient.readAllToEnd([all, gestures, button, pans, screen, idle])
        let everything = events(in: streams[0])
        #expect(everything.count > 20)
        let kinds = Set(everything.compactMap { type(of: $0) })
        #expect(kinds.isSuperset(of: ["device", "touches", "gesture", "control"]), "\(kinds)")

        let cases: [(String, [String], [String])] = [
            ("gestures", events(in: streams[1]), try Self.expected(everything, kinds: ["gesture"])),
            ("button", events(in: streams[2]), try Self.expected(everything, views: ["right*"])),
            ("pans", events(in: streams[3]), try Self.expected(everything, kinds: ["gesture", "touches"], recognizers: ["left*"])),
            ("screen", events(in: streams[4]), try Self.expected(everything, views: ["screen"])),
        ]
        for (name, received, expected) in cases {
            #expect(received == expected, "\(name)")
            #expect(!received.isEmpty && received.count < everything.count, "\(name) must select some but not all")
        }
        // The button's events never name the left view; the left view's touches reach "screen"
        // as a responder.
        #expect(!events(in: streams[2]).contains { $0.contains(#""view":"left""#) })
        #expect(events(in: streams[4]).contains { $0.contains(#""view":"left""#) && $0.contains(#""type":"touches""#) })
        // A client that never subscribed gets its hello and the goodbye, nothing else.
        #expect(streams[5].compactMap { type(of: $0) } == ["hello", "bye"])
        #expect(daemon.process.waitForExit() == 0)
    }

    @Test func theSocketStreamIsTheReplayStream() throws {
        let recording = try String(contentsOfFile: Paths.packageRoot + "/config/recordings/four-finger-drag.evemu",
                                   encoding: .utf8)
        let daemon = try DaemonFixture(recording: recording)
        let client = try daemon.subscriber()
        let received = events(in: try client.readToEnd())
        #expect(daemon.process.waitForExit() == 0)

        let replayed = try runCapturingStdout([Paths.gestured, "replay", "--config", daemon.configPath,
                                               daemon.directory.file("recording.evemu")])
        #expect(received.count > 10)
        #expect(received == replayed.split(separator: "\n").map(String.init))
    }

    @Test func malformedRequestsGetErrorsAndKeepTheConnection() throws {
        let daemon = try DaemonFixture(recording: Self.mixedRecording)
        let client = try daemon.connect()
        #expect(type(of: client.readLine() ?? "") == "hello")
        let cases: [(request: String, code: String, re: String, mentions: String)] = [
            ("this is not json", "bad_json", "null", "not valid JSON"),
            ("[1, 2]", "bad_request", "null", "JSON object"),
            (#"{"type": 5}"#, "bad_request", "null", "\"type\" must be a string"),
            (#"{"id": {}, "type": "status"}"#, "bad_request", "null", "\"id\" must be a number or a string"),
            (#"{"type": "frobnicate", "id": 3}"#, "unknown_type", "3", "not a request type"),
            (#"{"type": "subscibe", "id": 4}"#, "unknown_type", "4", "did you mean \"subscribe\""),
            (#"{"type": "subscribe", "id": "k", "kinds": ["gestures"]}"#, "bad_request", "\"k\"", "\"gestures\", which is not an event type"),
            (#"{"type": "subscribe", "id": 5, "view": ["a"]}"#, "bad_request", "5", "did you mean \"views\""),
            (#"{"type": "subscribe", "id": 6, "views": "left"}"#, "bad_request", "6", "must be an array of strings"),
            (#"{"type": "hitTest", "id": 7, "x": "1", "y": 2}"#, "bad_request", "7", "\"x\" must be a number"),
            (#"{"type": "hitTest", "id": 8}"#, "bad_request", "8", "needs \"x\" and \"y\""),
            (#"{"type": "view.update", "id": 9, "view": "nowhere", "set": {"hidden": true}}"#, "unknown_view", "9", "no view \"nowhere\""),
            (#"{"type": "view.update", "id": 10, "view": "left", "set": {"alpha": "half"}}"#, "invalid_layout", "10",
             "layout.subviews[0].alpha: expected a number from 0 to 1, found a string"),
            (#"{"type": "layout.set", "id": 11, "layout": {"id": "x", "frame": [0, 0, -5, 10], "bogus": 1}}"#,
             "invalid_layout", "11", "layout.bogus: unknown key"),
        ]
        for (request, code, re, mentions) in cases {
            let reply = try client.request(request)
            let error = reply["error"] as? [String: Any]
            #expect(reply["type"] as? String == "error", "\(request)")
            #expect(error?["code"] as? String == code, "\(request): \(reply)")
            let echoed = try JSONSerialization.data(withJSONObject: reply["re"] as Any, options: .fragmentsAllowed)
            #expect(String(decoding: echoed, as: UTF8.self) == re, "\(request)")
            #expect((error?["message"] as? String)?.contains(mentions) == true, "\(request): \(error?["message"] ?? "")")
        }
        // The layout problems come one by one with their key paths, as check-config names them.
        let invalid = try client.request(#"{"type":"layout.set","id":12,"layout":{"id":"x","frame":[0,0,-5,10],"bogus":1}}"#)
        let problems = ((invalid["error"] as? [String: Any])?["problems"] as? [[String: Any]]) ?? []
        #expect(Set(problems.compactMap { $0["path"] as? String }).isSuperset(of: ["layout.bogus", "layout.frame[2]"]), "\(problems)")

        // Still connected, and the layout is unchanged.
        let status = try client.request(#"{"type":"status","id":"after"}"#)
        #expect(status["ok"] as? Bool == true)
        #expect((status["layout"] as? [String: Any])?["revision"] as? Int == 1)
        #expect((status["counters"] as? [String: Any])?["errors"] as? Int == cases.count + 1)

        let hit = try client.request(#"{"type":"hitTest","id":"h","x":450,"y":10}"#)
        #expect(hit["view"] as? String == "rightButton")
        #expect((hit["trace"] as? [String])?.last == "rightButton point(inside): true")

        _ = try daemon.subscriber()
        _ = try client.readToEnd()
        #expect(daemon.process.waitForExit() == 0)
    }

    @Test func anOverLongLineIsRefusedAndClosesOnlyThatConnection() throws {
        let daemon = try DaemonFixture(recording: Self.mixedRecording)
        let other = try daemon.connect()
        let offender = try daemon.connect()
        #expect(type(of: offender.readLine() ?? "") == "hello")
        // Just under the limit is an ordinary (bad) request…
        let long = try offender.request(String(repeating: "x", count: 1000))
        #expect((long["error"] as? [String: Any])?["code"] as? String == "bad_json")
        // …one byte more than 1 MiB with no newline is not.
        offender.sendBytes([UInt8](repeating: UInt8(ascii: "a"), count: (1 << 20) + 1))
        let lines = try offender.readToEnd()
        #expect(lines.count == 1)
        let error = try parse(lines.first ?? "{}")["error"] as? [String: Any]
        #expect(error?["code"] as? String == "line_too_long")
        #expect((error?["message"] as? String)?.contains("1048576") == true)

        #expect(type(of: other.readLine() ?? "") == "hello")
        let status = try other.request(#"{"type":"status","id":1}"#)
        #expect((status["clients"] as? [String: Any])?["connected"] as? Int == 1)

        _ = try daemon.subscriber()
        other.close()
        #expect(daemon.process.waitForExit() == 0)
    }
}

/// Runs a command to its end and returns its stdout (bounded by `timeout`).
func runCapturingStdout(_ arguments: [String], timeout: Double = 20) throws -> String {
    var pair: [Int32] = [0, 0]
    guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
        throw TestFailure("socketpair failed")
    }
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_adddup2(&actions, pair[1], 1)
    let argv = arguments.map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var pid: pid_t = 0
    let result = posix_spawnp(&pid, arguments[0], &actions, nil, argv, environ)
    close(pair[1])
    defer { close(pair[0]) }
    guard result == 0 else { throw TestFailure("cannot start \(arguments[0])") }
    var output: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65536)
    let deadline = Deadline(timeout)
    while true {
        var poller = pollfd(fd: pair[0], events: Int16(POLLIN), revents: 0)
        guard poll(&poller, 1, deadline.pollMilliseconds) > 0 else {
            kill(pid, SIGKILL)
            throw TestFailure("\(arguments) did not finish within \(timeout) s")
        }
        let count = read(pair[0], &chunk, chunk.count)
        if count <= 0 { break }
        output += chunk[0..<count]
    }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    return String(decoding: output, as: UTF8.self)
}

/// The status reply counts touches per route only when the configuration routes touches
/// (docs/routing.md, docs/protocol.md).
@Suite("Status with routing")
struct RoutingStatusTests {
    static func inputStatus(routing: Bool) throws -> [String: Any] {
        let recording = try String(contentsOfFile: Paths.packageRoot + "/config/recordings/one-finger-taps.evemu",
                                   encoding: .utf8)
        let daemon = try DaemonFixture(recording: recording, waitClients: 2, start: false)
        if routing {
            let text = TestLayouts.configuration().replacingOccurrences(of: "screen: {", with: "routing: { default: \"forward\" },\n  screen: {")
            daemon.directory.write("gestured.json5", text)
        }
        try daemon.start(waitClients: 2)
        let client = try daemon.connect()
        _ = client.readLine()
        let status = try client.request(#"{"type":"status","id":1}"#)
        daemon.process.signal(SIGTERM)
        _ = daemon.process.waitForExit()
        return try #require(status["input"] as? [String: Any], "\(status)")
    }

    @Test func routesAreCountedWithRouting() throws {
        let input = try Self.inputStatus(routing: true)
        let routes = try #require(input["routes"] as? [String: Any], "\(input)")
        #expect(routes["claimed"] as? Int == 0 && routes["forwarded"] as? Int == 0 && routes["held"] as? Int == 0, "\(routes)")
    }

    @Test func withoutRoutingTheStatusHasNoRoutes() throws {
        let input = try Self.inputStatus(routing: false)
        #expect(input["routes"] == nil)
        #expect(input["activeTouches"] as? Int == 0)
    }
}
