#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Issue 12, crash 9 and the socket's misleading answers, against the real `gestured run`: a
/// ~150-byte `layout.set` or `view.update` from a client allowed to control, or a SIGHUP or
/// `reload` over a file with such values, killed the daemon (exit 132 or 134) and left its
/// socket file behind. Each now gets an error reply or a log line, and the daemon keeps
/// serving with the layout it had.
@Suite("Hostile values against the live daemon")
struct RobustnessTests {
    /// Values that passed validation and then trapped (durations converting to the
    /// timeline) or aborted allocating (touch counts).
    static let deadly = [
        #"{"id":"t","type":"tap","touches":1e9}"#,
        #"{"id":"t","type":"tap","maxDuration":9.3e12}"#,
        #"{"id":"t","type":"longPress","minimumDuration":1e13}"#,
        #"{"id":"t","type":"swipe","maxDuration":1e300}"#,
    ]

    static func layout(_ recognizer: String) -> String {
        #"{"id":"wall","frame":[0,0,800,480],"recognizers":[\#(recognizer)]}"#
    }

    @Test func layoutRequestsWithDeadlyValuesGetAnErrorAndTheDaemonKeepsServing() throws {
        let daemon = try RunTests.Daemon()
        let process = try daemon.start()
        #expect(daemon.notify.waitFor(line: "READY=1") != nil, "\(process.stderrText)")
        let watcher = try TestClient(path: daemon.socketPath)
        _ = watcher.readLine()
        #expect(try watcher.request(#"{"type":"subscribe","id":0,"kinds":["layout"]}"#)["ok"] as? Bool == true)
        let client = try TestClient(path: daemon.socketPath)
        _ = client.readLine()

        for (index, recognizer) in Self.deadly.enumerated() {
            let set = try client.request(#"{"type":"layout.set","id":\#(index),"layout":\#(Self.layout(recognizer))}"#)
            let error = set["error"] as? [String: Any]
            #expect(error?["code"] as? String == "invalid_layout", "\(set)")
            let problem = (error?["problems"] as? [[String: Any]])?.first
            #expect((problem?["message"] as? String)?.contains("is too large; use ") == true, "\(set)")

            let update = try client.request(#"{"type":"view.update","id":\#(index),"view":"left","set":{"recognizers":[\#(recognizer)]}}"#)
            #expect((update["error"] as? [String: Any])?["code"] as? String == "invalid_layout", "\(update)")
        }
        // Lines that are too deep, or carry numbers JSON cannot, get precise bad_json answers.
        let deep = try client.request(#"{"type":"layout.set","id":9,"layout":"# + String(repeating: "[", count: 40_000))
        #expect(((deep["error"] as? [String: Any])?["message"] as? String)?.contains("nest more than 128 levels") == true,
                "\(deep)")
        // A request id above 2^53 comes back unaltered (read from the raw line: a Double would round it).
        client.send(#"{"type":"status","id":9007199254740993}"#)
        #expect(client.readLine()?.hasPrefix(#"{"type":"reply","re":9007199254740993,"ok":true"#) == true)

        // Still serving, with the layout it had (revision 1), and no layout was announced.
        let status = try client.request(#"{"type":"status","id":10}"#)
        #expect((status["layout"] as? [String: Any])?["revision"] as? Int == 1, "\(status)")
        #expect(try client.request(#"{"type":"hitTest","id":11,"x":600,"y":100}"#)["view"] as? String == "rightButton")
        #expect(watcher.readLine(timeout: 0.2) == nil)

        process.signal(SIGTERM)
        #expect(process.waitForExit() == 0)
        #expect(access(daemon.socketPath, F_OK) != 0)
    }

    @Test func sighupAndReloadOverDeadlyValuesKeepTheRunningConfiguration() throws {
        let daemon = try RunTests.Daemon()
        let process = try daemon.start()
        #expect(daemon.notify.waitFor(line: "READY=1") != nil, "\(process.stderrText)")
        let client = try TestClient(path: daemon.socketPath)
        _ = client.readLine()

        for recognizer in Self.deadly {
            daemon.directory.write("gestured.json5", """
                { screen: { width: 800, height: 480 }, layout: \(Self.layout(recognizer)) }
                """)
            process.signal(SIGHUP)
            #expect(daemon.notify.waitFor(line: "RELOADING=1") != nil)
            #expect(daemon.notify.waitFor(line: "READY=1") != nil)
            let refused = try client.request(#"{"type":"reload","id":1}"#)
            let error = refused["error"] as? [String: Any]
            #expect(error?["code"] as? String == "invalid_config", "\(refused)")
            #expect((error?["problems"] as? [[String: Any]])?.first?["path"] as? String
                == "layout.recognizers[0]." + (recognizer.contains("touches") ? "touches"
                    : recognizer.contains("minimumDuration") ? "minimumDuration" : "maxDuration"), "\(refused)")
        }
        // A file nested 31,000 levels deep overflowed the stack of the syntax locator.
        daemon.directory.write("gestured.json5", String(repeating: "[", count: 31_000))
        process.signal(SIGHUP)
        #expect(daemon.notify.waitFor(line: "READY=1") != nil)
        let deep = try client.request(#"{"type":"reload","id":2}"#)
        #expect(((deep["error"] as? [String: Any])?["problems"] as? [[String: Any]])?.first?["path"] as? String
            == daemon.configPath + ":1:129", "\(deep)")

        #expect(try client.request(#"{"type":"hitTest","id":3,"x":600,"y":100}"#)["view"] as? String == "rightButton")
        process.signal(SIGTERM)
        #expect(process.waitForExit() == 0)
    }
}
