#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The clients people and kiosk programs use: `gestured tail` and the Python example.
@Suite("Client programs")
struct ClientProgramTests {
    /// Python 3 from PATH (a pyenv shim, or Debian's).
    static let python: String? = {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":") {
            let candidate = "\(directory)/python3"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }()

    @Test func tailPrintsTheSubscribedEventsAndExitsWhenTheReplayEnds() throws {
        let daemon = try DaemonFixture(recording: ProtocolTests.mixedRecording, waitClients: 2)
        let reference = try daemon.subscriber(#""kinds":["gesture","control"]"#)
        let tail = try runCapturingStdout([Paths.gestured, "tail", "--socket", daemon.socketPath, "--kinds", "gesture,control"])
        let expected = events(in: try reference.readToEnd())
        #expect(expected.count >= 3)
        #expect(tail.split(separator: "\n").map(String.init) == expected)
        #expect(daemon.process.waitForExit() == 0)
    }

    @Test func tailStopsAfterCountAndReportsAMissingDaemon() throws {
        let daemon = try DaemonFixture(recording: ProtocolTests.mixedRecording)
        let three = try runCapturingStdout([Paths.gestured, "tail", "--socket", daemon.socketPath, "--views", "left", "--count", "3"])
        let lines = three.split(separator: "\n")
        #expect(lines.count == 3)
        #expect(lines.allSatisfy { $0.contains(#""view":"left""#) || $0.contains(#""responders":["left""#) || $0.contains(#""type":"device""#) })
        #expect(daemon.process.waitForExit() == 0)

        let directory = Paths.temporaryDirectory()
        defer { directory.remove() }
        let missing = try ChildProcess([Paths.gestured, "tail", "--socket", directory.file("none.sock")])
        #expect(missing.waitForExit() == 1)
        #expect(missing.stderrText.contains("is gestured running?"))
    }

    @Test func tailSaysWhyASubscriptionIsRefused() throws {
        let daemon = try DaemonFixture(recording: ProtocolTests.mixedRecording)
        let refused = try ChildProcess([Paths.gestured, "tail", "--socket", daemon.socketPath, "--kinds", "gestures"])
        #expect(refused.waitForExit() == 1)
        #expect(refused.stderrText.contains("\"gestures\", which is not an event type"), "\(refused.stderrText)")
        daemon.process.signal(SIGTERM)
        #expect(daemon.process.waitForExit() == 0)
    }

    @Test(.enabled(if: python != nil, "needs python3"))
    func thePythonExampleReceivesTheSameStreamAndDescribesIt() throws {
        let script = Paths.packageRoot + "/examples/python/gestured_client.py"
        let daemon = try DaemonFixture(recording: ProtocolTests.mixedRecording, waitClients: 3)
        let reference = try daemon.subscriber()
        // Two Python clients: one prints JSON, one sentences. Both are subscribers the replay
        // waits for, so they run concurrently with the reference.
        let jsonOutput = daemon.directory.file("python.jsonl")
        let sentenceOutput = daemon.directory.file("python.txt")
        let json = try ChildProcess(["/bin/sh", "-c", "exec \"$0\" \"$1\" --socket \"$2\" watch --json > \"$3\"",
                                     Self.python!, script, daemon.socketPath, jsonOutput])
        let sentences = try ChildProcess(["/bin/sh", "-c", "exec \"$0\" \"$1\" --socket \"$2\" watch > \"$3\"",
                                          Self.python!, script, daemon.socketPath, sentenceOutput])
        let expected = events(in: try reference.readToEnd())
        #expect(json.waitForExit() == 0, "\(json.stderrText)")
        #expect(sentences.waitForExit() == 0, "\(sentences.stderrText)")
        #expect(sentences.stderrText.contains("gestured: the replay of"))
        #expect(daemon.process.waitForExit() == 0)

        // Python re-serialises: compare as JSON values.
        let received = try String(contentsOfFile: jsonOutput, encoding: .utf8).split(separator: "\n").map { try parse(String($0)) }
        #expect(received.count == expected.count)
        for (got, want) in zip(received, try expected.map(parse)) {
            #expect(NSDictionary(dictionary: got).isEqual(to: want))
        }
        let text = try String(contentsOfFile: sentenceOutput, encoding: .utf8).split(separator: "\n")
        #expect(text.count == expected.count)
        #expect(text.contains { $0.hasPrefix(#"tap recognized on "screen" (screenTap)"#) }, "\(text)")
        #expect(text.contains { $0.hasPrefix(#"touchUpInside on "rightButton""#) }, "\(text)")
        #expect(text.contains { $0.hasPrefix(#"pan began on "left" (leftPan) translation"#) }, "\(text)")
    }

    @Test(.enabled(if: python != nil, "needs python3"))
    func thePythonExampleSendsRequestsAndReportsErrors() throws {
        let script = Paths.packageRoot + "/examples/python/gestured_client.py"
        let daemon = try DaemonFixture(recording: ProtocolTests.mixedRecording)
        let hit = try runCapturingStdout([Self.python!, script, "--socket", daemon.socketPath, "hit-test", "450", "10"])
        #expect(hit.hasSuffix("rightButton point(inside): true\n=> rightButton\n"), "\(hit)")
        let updated = try runCapturingStdout([Self.python!, script, "--socket", daemon.socketPath, "request",
                                              #"{"type":"view.update","view":"rightButton","set":{"hidden":true}}"#])
        #expect(try parse(updated)["revision"] as? Int == 2)
        let invalid = try runCapturingStdout([Self.python!, script, "--socket", daemon.socketPath, "request",
                                              #"{"type":"view.update","view":"rightButton","set":{"frame":[0,0,-1,1]}}"#])
        let error = try parse(invalid)
        #expect(error["code"] as? String == "invalid_layout")
        #expect((error["problems"] as? [[String: Any]])?.first?["path"] as? String == "layout.subviews[1].frame[2]", "\(error)")
        let status = try runCapturingStdout([Self.python!, script, "--socket", daemon.socketPath, "status"])
        #expect(((try parse(status))["layout"] as? [String: Any])?["revision"] as? Int == 2)
        daemon.process.signal(SIGTERM)
        #expect(daemon.process.waitForExit() == 0)
    }
}
