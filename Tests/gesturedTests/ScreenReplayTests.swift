import Foundation
import Testing

/// `gestured replay --screen ID=RECORDING` (docs/command-line.md): one recording per screen of a
/// configuration of several screens, merged by time into one stream with one `seq`, each event
/// naming its screen; byte-exact and deterministic, pinned by a golden transcript.
@Suite("Replay of several screens")
struct ScreenReplayTests {
    static let config = "Tests/Fixtures/screens/two-screens.json5"
    static let golden = Gestured.packageRoot + "/Tests/Golden/screens/two-screens.jsonl"
    static let lobby = "lobby=config/recordings/lobby-session.evemu"
    static let gallery = "gallery=config/recordings/one-finger-taps.evemu"

    @Test func theMergedReplayIsTheGoldenTranscript() throws {
        let result = try Gestured.run(["replay", "--trace", "--config", Self.config, "--screen", Self.lobby,
                                       "--screen", Self.gallery])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try String(contentsOfFile: Self.golden, encoding: .utf8)))
    }

    @Test func theOrderOfTheOptionsDoesNotChangeTheStream() throws {
        let given = try Gestured.run(["replay", "--trace", "--config", Self.config, "--screen", Self.gallery,
                                      "--screen", Self.lobby])
        #expect(given.status == 0)
        #expect(given.stdout == (try String(contentsOfFile: Self.golden, encoding: .utf8)))
    }

    /// The lines without their `seq` (and the screen member), for comparing one screen's share
    /// of the merged stream with its own replay.
    static func withoutSequence(_ lines: some Sequence<Substring>, screen: String?) -> [String] {
        lines.map { line in
            var text = String(line)
            if let screen { text = text.replacingOccurrences(of: #","screen":"\#(screen)""#, with: "") }
            return text.replacingOccurrences(of: #","seq":[0-9]+"#, with: "", options: .regularExpression)
        }
    }

    /// Each screen's events in the merged stream are its single-screen replay's, in the same
    /// order: its pipeline runs as if alone; only `seq` is the daemon's.
    @Test(arguments: [("lobby", "lobby-only.json5", "config/recordings/lobby-session.evemu"),
                      ("gallery", "gallery-only.json5", "config/recordings/one-finger-taps.evemu")])
    func eachScreensShareIsItsOwnReplay(_ screen: String, _ single: String, _ recording: String) throws {
        let merged = try String(contentsOfFile: Self.golden, encoding: .utf8)
        let share = merged.split(separator: "\n").filter { $0.contains(#""screen":"\#(screen)""#) }
        let alone = try Gestured.run(["replay", "--trace", "--config", "Tests/Fixtures/screens/" + single, recording])
        #expect(alone.status == 0)
        #expect(!share.isEmpty)
        #expect(Self.withoutSequence(share, screen: screen)
            == Self.withoutSequence(alone.stdout.split(separator: "\n"), screen: nil))
    }

    @Test func oneSeqRunsOverBothScreens() throws {
        let merged = try String(contentsOfFile: Self.golden, encoding: .utf8).split(separator: "\n")
        let sequences = merged.compactMap { line -> Int? in
            guard let range = line.range(of: #""seq":"#) else { return nil }
            return Int(line[range.upperBound...].prefix { $0.isNumber })
        }
        #expect(sequences == Array(1...merged.count))
        #expect(merged.allSatisfy { $0.contains(#""screen":"lobby""#) || $0.contains(#""screen":"gallery""#) })
    }

    @Test(arguments: [
        (["--screen", "lobby"], "--screen lobby: write ID=RECORDING, such as --screen customer=customer.evemu"),
        (["--screen", "a b=x"], "--screen a b=x: \"a b\" is not a screen id; use only A–Z a–z 0–9 - _"),
        (["--screen", "lobby=x", "--screen", "lobby=y"], "--screen lobby is given twice; give each screen one recording"),
        (["--screen", "lobby=x", "config/recordings/one-finger-taps.evemu"],
         "give the recordings with --screen ID=RECORDING only, not also as RECORDING"),
        (["--screen", "lobby=x", "--panel", "copy.evemu"],
         "--panel writes one panel's stream and --screen replays several panels; replay the screen's recording alone "
            + "(gestured replay RECORDING --panel FILE, with the screen's layout) to write its copy"),
    ])
    func usageErrors(_ arguments: [String], _ message: String) throws {
        let result = try Gestured.run(["replay", "--config", Self.config] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.split(separator: "\n").first.map(String.init) == "Error: " + message)
    }

    @Test func aScreenTheConfigurationLacksIsNamed() throws {
        let result = try Gestured.run(["replay", "--config", Self.config, "--screen", "kiosk=config/recordings/one-finger-taps.evemu"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("has no screen \"kiosk\"; its screens are lobby, gallery"))
    }

    /// `--realtime` paces the merged replay by the recordings' times; the lines are the same.
    @Test func aMergedReplayInRealTimeGivesTheSameLines() throws {
        let result = try Gestured.run(["replay", "--trace", "--realtime", "--config", Self.config, "--screen", Self.lobby,
                                       "--screen", Self.gallery])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try String(contentsOfFile: Self.golden, encoding: .utf8)))
    }

    /// `--socket` with `--screen`: the screens served as a daemon of several screens would — the
    /// hello lists them, requests name theirs (one without is refused, naming them), and a
    /// subscriber receives exactly the merged replay's lines, with one `seq`.
    @Test(arguments: [false, true])
    func aSocketReplayOfSeveralScreensServesTheMergedStream(realtime: Bool) throws {
        let directory = SynthAndWaitLayoutTests.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = directory + "/s.sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Gestured.binary)
        process.currentDirectoryURL = URL(fileURLWithPath: Gestured.packageRoot)
        process.arguments = ["replay", "--trace", "--config", Self.config, "--socket", socketPath, "--screen", Self.gallery,
                             "--screen", Self.lobby] + (realtime ? ["--realtime"] : [])
        process.standardError = Pipe()
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let client = try LineClient(path: socketPath)
        let hello = try client.next()
        let screens = try #require(hello["screens"] as? [[String: Any]], "\(hello)")
        #expect(screens.map { $0["id"] as? String } == ["lobby", "gallery"])
        #expect(screens.map { $0["path"] as? String }
            == ["config/recordings/lobby-session.evemu", "config/recordings/one-finger-taps.evemu"])
        try client.send(#"{"type":"hitTest","id":1,"x":100,"y":100}"#)
        let refused = try client.next()
        #expect((refused["error"] as? [String: Any])?["code"] as? String == "unknown_screen", "\(refused)")
        try client.send(#"{"type":"hitTest","id":2,"x":100,"y":100,"screen":"gallery"}"#)
        #expect(try client.next()["ok"] as? Bool == true)
        try client.send(#"{"type":"subscribe","id":3}"#)
        #expect(try client.next()["type"] as? String == "reply")
        var events: [String] = []
        while true {
            let line = try client.nextLine()
            if line.hasPrefix(#"{"type":"bye""#) {
                #expect(line.contains(#""reason":"end""#), "\(line)")
                break
            }
            events.append(line)
        }
        let golden = try String(contentsOfFile: Self.golden, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(events.count == golden.count)
        #expect(events == golden)
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}
