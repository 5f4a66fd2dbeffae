#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Changing the layout over the socket (SPEC 9): mid-stream, atomically, and only by clients
/// allowed by `SO_PEERCRED`.
@Suite("Layout control")
struct ControlTests {
    @Test func layoutChangesMidStreamApplyToNewTouchesOnly() throws {
        // Touch 1 begins on "left" and is still down when the layout changes; touch 2 begins
        // at the same place afterwards. Real time, so there is time to change the layout.
        let recording = SyntheticRecording.evemu([
            (0.001, [.down(slot: 0, id: 1, x: 100, y: 100)]),
            (0.8, [.move(slot: 0, x: 101, y: 100)]),
            (0.85, [.up(slot: 0)]),
            (1.0, [.down(slot: 0, id: 2, x: 100, y: 100)]),
            (1.05, [.up(slot: 0)]),
        ])
        let daemon = try DaemonFixture(recording: recording, options: ["--realtime"])
        let client = try daemon.subscriber(#""kinds":["touches","layout"]"#)
        let began = try parse(client.readLine() ?? "{}")
        #expect(began["type"] as? String == "touches" && began["view"] as? String == "left", "\(began)")

        let set = try client.request(#"{"type":"layout.set","id":1,"layout":\#(TestLayouts.replacement)}"#)
        #expect(set["ok"] as? Bool == true && set["revision"] as? Int == 2, "\(set)")
        let update = try client.request(#"{"type":"view.update","id":2,"view":"poster","set":{"hidden":true}}"#)
        #expect(update["ok"] as? Bool == true && update["revision"] as? Int == 3, "\(update)")
        let hit = try client.request(#"{"type":"hitTest","id":3,"x":100,"y":100}"#)
        #expect(hit["view"] as? String == "wall")

        let stream = try [parse(try JSONSerialization.data(withJSONObject: began).utf8String)]
            + (try client.readToEnd()).map(parse)
        let layouts = stream.filter { $0["type"] as? String == "layout" }
        #expect(layouts.map { $0["revision"] as? Int } == [2, 3])
        let touches = stream.filter { $0["type"] as? String == "touches" }
        let first = touches.filter { (($0["touches"] as? [[String: Any]])?.first?["id"] as? Int) == 1 }
        let second = touches.filter { (($0["touches"] as? [[String: Any]])?.first?["id"] as? Int) == 2 }
        // Touch 1 keeps the view it began on, though that view is gone; touch 2 is hit-tested
        // in the new layout, with the poster hidden.
        #expect(first.map { $0["phase"] as? String } == ["began", "moved", "ended"])
        #expect(first.allSatisfy { $0["view"] as? String == "left" })
        #expect(second.map { $0["phase"] as? String } == ["began", "ended"])
        #expect(second.allSatisfy { $0["view"] as? String == "wall" && $0["responders"] as? [String] == ["wall"] })
        // The layout events come between the two touches.
        let order = stream.compactMap { event -> String? in
            event["type"] as? String == "layout" ? "layout" : ((event["touches"] as? [[String: Any]])?.first?["id"] as? Int).map { "touch\($0)" }
        }
        #expect(order.firstIndex(of: "layout")! < order.firstIndex(of: "touch2")!)
        #expect(order.lastIndex(of: "touch1")! > order.firstIndex(of: "layout")!)
        #expect(daemon.process.waitForExit() == 0)
    }

    /// Runs the Python example as another user (setpriv) and returns its exit status and output.
    static func pythonRequest(as credentials: [String], socket: String, request: String,
                              directory: TemporaryDirectory) throws -> String {
        let script = directory.write("gestured_client.py",
                                     try String(contentsOfFile: Paths.packageRoot + "/examples/python/gestured_client.py",
                                                encoding: .utf8))
        let output = try runCapturingStdout(["setpriv"] + credentials + ["/usr/bin/python3", script, "--socket", socket,
                                                                          "request", request])
        return output
    }

    static let asNobody = ["--reuid=65534", "--regid=65534", "--clear-groups"]

    @Test(.enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0 && access("/usr/bin/python3", X_OK) == 0,
                   "needs root to connect as other users"))
    func onlyAllowedPeersMayChangeTheLayout() throws {
        // Members of nogroup may connect; members of users (gid 100) may also control.
        let daemon = try DaemonFixture(recording: ProtocolTests.mixedRecording,
                                       socket: #"group: "nogroup", controlGroup: "users""#)
        var mode = stat()
        stat(daemon.socketPath, &mode)
        #expect(mode.st_mode & 0o777 == 0o660)
        #expect(mode.st_gid == 65534)

        let update = #"{"type":"view.update","view":"left","set":{"hidden":true}}"#
        // Allowed by the primary group, and by a supplementary group (SO_PEERGROUPS).
        let primary = try Self.pythonRequest(as: ["--reuid=12345", "--regid=100", "--groups=65534"],
                                             socket: daemon.socketPath, request: update, directory: daemon.directory)
        #expect(primary.contains(#""ok":true"#) && primary.contains(#""revision":2"#), "\(primary)")
        let supplementary = try Self.pythonRequest(as: ["--reuid=12346", "--regid=12346", "--groups=65534,100"],
                                                   socket: daemon.socketPath,
                                                   request: #"{"type":"view.update","view":"left","set":{"hidden":false}}"#,
                                                   directory: daemon.directory)
        #expect(supplementary.contains(#""revision":3"#), "\(supplementary)")

        // nobody, in the socket's group only: may read, may not control.
        for request in [update, #"{"type":"layout.set","layout":\#(TestLayouts.replacement)}"#, #"{"type":"reload"}"#] {
            let refused = try Self.pythonRequest(as: Self.asNobody, socket: daemon.socketPath, request: request,
                                                 directory: daemon.directory)
            let refusal = try parse(refused.trimmingCharacters(in: .whitespacesAndNewlines))
            #expect(refusal["code"] as? String == "forbidden", "\(request): \(refused)")
            #expect((refusal["message"] as? String)?.contains("uid 65534") == true)
        }
        let status = try Self.pythonRequest(as: Self.asNobody, socket: daemon.socketPath, request: #"{"type":"status"}"#,
                                            directory: daemon.directory)
        #expect(status.contains(#""ok":true"#), "\(status)")

        // Root always may; the refused requests changed nothing.
        let root = try daemon.connect()
        let hello = try parse(root.readLine() ?? "{}")
        #expect(hello["canControl"] as? Bool == true)
        let revision = try root.request(#"{"type":"status"}"#)
        #expect((revision["layout"] as? [String: Any])?["revision"] as? Int == 3)
        #expect((revision["counters"] as? [String: Any])?["connections"] as? Int == 7)

        _ = try daemon.subscriber()
        _ = try root.readToEnd()
        #expect(daemon.process.waitForExit() == 0)
    }

    @Test(.enabled(if: getuid() == 0 && access("/usr/bin/setpriv", X_OK) == 0 && access("/usr/bin/python3", X_OK) == 0,
                   "needs root to connect as other users"))
    func controlUsersAreAllowedByName() throws {
        let daemon = try DaemonFixture(recording: ProtocolTests.mixedRecording,
                                       socket: #"group: "nogroup", controlUsers: ["nobody"]"#)
        let allowed = try Self.pythonRequest(as: Self.asNobody, socket: daemon.socketPath,
                                             request: #"{"type":"layout.set","layout":\#(TestLayouts.replacement)}"#,
                                             directory: daemon.directory)
        #expect(allowed.contains(#""revision":2"#), "\(allowed)")
        let refused = try Self.pythonRequest(as: ["--reuid=12345", "--regid=65534", "--clear-groups"], socket: daemon.socketPath,
                                             request: #"{"type":"view.update","view":"wall","set":{"alpha":0.5}}"#,
                                             directory: daemon.directory)
        #expect(refused.contains(#""code": "forbidden""#), "\(refused)")
        _ = try daemon.subscriber()
        #expect(daemon.process.waitForExit() == 0)
    }
}

extension Data {
    var utf8String: String { String(decoding: self, as: UTF8.self) }
}
