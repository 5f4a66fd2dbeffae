import Foundation
import Testing

/// `gestured render` (docs/render.md): golden pictures of the project's recordings, byte for
/// byte; the picture's embedded data against `gestured replay --trace` of the same recording;
/// well-formed XML with hostile ids; and the picture opened in a real headless Chromium.
@Suite("Render")
struct RenderTests {
    /// (configuration, recording, golden): the README's demo, the map's two-finger session, four fingers at once.
    static let goldens = [("config/lobby.json5", "config/recordings/lobby-session.evemu", "lobby-session.svg"),
                          ("config/map.json5", "config/recordings/map-session.evemu", "map-session.svg"),
                          ("config/lobby.json5", "config/recordings/four-finger-drag.evemu", "four-finger-drag.svg")]
    static let goldenDirectory = Gestured.packageRoot + "/Tests/Golden/render/"

    /// Each golden is what `render` prints now (scripts/golden.sh regenerates them).
    @Test(arguments: goldens)
    func theRenderIsTheGoldenPicture(_ config: String, _ recording: String, _ golden: String) throws {
        let result = try Gestured.run(["render", "--config", config, recording])
        #expect(result.status == 0, "\(result.stderr)")
        let expected = try String(contentsOfFile: Self.goldenDirectory + golden, encoding: .utf8)
        #expect(result.stdout == expected, "render of \(recording) differs from Tests/Golden/render/\(golden)")
    }

    /// `-o FILE` writes the same bytes as standard output, twice alike.
    @Test func theOutputFileHoldsTheSameBytes() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try Gestured.run(["render", "--config", "config/lobby.json5", "-o", directory + "/a.svg",
                                       "config/recordings/lobby-session.evemu"])
        #expect(result.status == 0 && result.stdout.isEmpty, "\(result.stderr)")
        let again = try Gestured.run(["render", "--config", "config/lobby.json5", "config/recordings/lobby-session.evemu"])
        #expect(try String(contentsOfFile: directory + "/a.svg", encoding: .utf8) == again.stdout)
    }

    /// The picture's data is the replay's: every touch's hit view is its `hitTest` event's,
    /// and every recognizer's changes of state are its `gesture` events' (a `changed` after
    /// `began` or `changed` is not a change), in order, at the same times.
    @Test(arguments: goldens)
    func thePictureSaysWhatTheReplaySays(_ config: String, _ recording: String, _ golden: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let svg = directory + "/picture.svg"
        let rendered = try Gestured.run(["render", "--config", config, "-o", svg, recording])
        #expect(rendered.status == 0, "\(rendered.stderr)")
        let parsed = try python(["xml", svg])
        let data = try #require(parsed["data"] as? [String: Any])
        let replay = try Gestured.run(["replay", "--trace", "--config", config, recording])
        let events = replay.stdout.split(separator: "\n").map { try! JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any] }
        let start = events.first { $0["type"] as? String == "device" }?["time"] as? Int ?? 0

        let hits = events.filter { $0["type"] as? String == "hitTest" }
        let touches = try #require(data["touches"] as? [[String: Any]])
        #expect(touches.count == hits.count && !hits.isEmpty)
        for (touch, hit) in zip(touches, hits) {
            #expect(touch["id"] as? Int == hit["touch"] as? Int)
            #expect(touch["view"] as? String == hit["view"] as? String, "touch \(touch["id"] ?? "?")")
            #expect(touch["began"] as? Int == (hit["time"] as! Int) - start)
        }
        var expected: [String: [String]] = [:]
        var last: [String: String] = [:]
        for event in events where event["type"] as? String == "gesture" {
            let name = event["recognizer"] as! String, state = event["state"] as! String
            defer { last[name] = state }
            if state == "changed", last[name] == "began" || last[name] == "changed" { continue }
            expected[name, default: []].append("\((event["time"] as! Int) - start) \(state)")
        }
        let recognizers = try #require(data["recognizers"] as? [[String: Any]])
        var drawn: [String: [String]] = [:]
        for recognizer in recognizers {
            let transitions = recognizer["transitions"] as! [[String: Any]]
            if !transitions.isEmpty {
                drawn[recognizer["id"] as! String] = transitions.map { "\($0["time"] as! Int) \($0["state"] as! String)" }
            }
            for transition in transitions where transition["state"] as? String == "failed" {
                #expect(!((transition["context"] as? String) ?? "").isEmpty)
            }
        }
        #expect(drawn == expected)
        #expect(!expected.isEmpty)
        // Every view id and every recognizer engaged is a text node of the picture.
        let texts = try #require(parsed["texts"] as? [String])
        for view in try #require(data["views"] as? [[String: Any]]) {
            let id = view["id"] as! String
            #expect(texts.contains { $0.hasPrefix(id) }, "view \(id)")
        }
        for name in drawn.keys { #expect(texts.contains { $0.hasPrefix(name) }, "recognizer \(name)") }
    }

    /// View and recognizer ids are the user's: markup characters, quotes and very long ids
    /// come out escaped (python's XML parser reads the picture back), whole in the embedded
    /// JSON and shortened in the drawing.
    @Test func hostileIdsAreEscaped() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let long = String(repeating: "x", count: 5000) + "<end>"
        let ids = ["a<b>&c", "q\"uote's", "]]></script><script>alert(1)</script>", "cdata<![CDATA[", long]
        let config = """
            { screen: { width: 1920, height: 1080 },
              layout: { id: \(json(ids[0])), frame: [0, 0, 1920, 1080],
                        recognizers: [{ id: \(json(ids[1])), type: "tap" }],
                        subviews: [{ id: \(json(ids[2])), frame: [0, 0, 1920, 1080],
                                     subviews: [{ id: \(json(ids[4])), frame: [0, 0, 1920, 1080], kind: "control",
                                                  recognizers: [{ id: \(json(ids[3])), type: "pan" }] }] }] } }
            """
        try config.write(toFile: directory + "/hostile.json5", atomically: true, encoding: .utf8)
        let svg = directory + "/hostile.svg"
        let result = try Gestured.run(["render", "--config", directory + "/hostile.json5", "-o", svg,
                                       "config/recordings/one-finger-taps.evemu"])
        #expect(result.status == 0, "\(result.stderr)")
        let parsed = try python(["xml", svg])
        let data = try #require(parsed["data"] as? [String: Any])
        let views = try #require(data["views"] as? [[String: Any]])
        #expect(views.map { $0["id"] as! String } == [ids[0], ids[2], ids[4]])
        let recognizers = try #require(data["recognizers"] as? [[String: Any]])
        #expect(Set(recognizers.map { $0["id"] as! String }) == [ids[1], ids[3]])
        let touches = try #require(data["touches"] as? [[String: Any]])
        #expect(!touches.isEmpty && touches.allSatisfy { $0["view"] as? String == long })
        let texts = try #require(parsed["texts"] as? [String])
        for id in ids.dropLast() { #expect(texts.contains { $0.contains(id) }, "\(id)") }
        // The long id is drawn shortened, never whole.
        #expect(texts.contains { $0.hasPrefix(String(repeating: "x", count: 40)) && $0.contains("…") })
        #expect(!texts.contains { $0.contains(long) })
        let bytes = try String(contentsOfFile: svg, encoding: .utf8)
        #expect(!bytes.contains("<script><"), "markup in an id reached the document")
    }

    /// `--from-jsonl`: the saved events of `replay --trace --contacts` draw the same picture as
    /// the recording itself, but for the file named in the header and the data's `recording`.
    @Test(arguments: goldens)
    func savedEventsDrawTheSamePicture(_ config: String, _ recording: String, _ golden: String) throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let replay = try Gestured.run(["replay", "--trace", "--contacts", "--config", config, recording])
        #expect(replay.status == 0, "\(replay.stderr)")
        let events = directory + "/events.jsonl"
        try replay.stdout.write(toFile: events, atomically: true, encoding: .utf8)
        let fromEvents = try Gestured.run(["render", "--config", config, "--from-jsonl", events])
        #expect(fromEvents.status == 0, "\(fromEvents.stderr)")
        let direct = try String(contentsOfFile: Self.goldenDirectory + golden, encoding: .utf8)
        func normalised(_ svg: String, _ name: String) -> [String] {
            svg.split(separator: "\n", omittingEmptySubsequences: false).map { line in
                line.contains("gestured render: ") ? "(header)" : line.replacingOccurrences(of: "\"recording\":\"\(name)\"", with: "\"recording\":…")
            }
        }
        let a = normalised(direct, recording), b = normalised(fromEvents.stdout, events)
        #expect(a.count == b.count)
        for (index, (lineA, lineB)) in zip(a, b).enumerated() where lineA != lineB {
            Issue.record("line \(index + 1) differs:\n\(lineA)\n\(lineB)")
            break
        }
        // Without contacts there is no path to draw, and the command says how to save the events.
        let bare = directory + "/bare.jsonl"
        let plain = try Gestured.run(["replay", "--config", config, recording])
        try plain.stdout.write(toFile: bare, atomically: true, encoding: .utf8)
        let refused = try Gestured.run(["render", "--config", config, "--from-jsonl", bare])
        #expect(refused.status == 1 && refused.stderr.contains("--trace --contacts"), "\(refused.stderr)")
    }

    /// With several screens, `--screen` picks the screen whose layout and panel are drawn; of a
    /// merged stream of several screens, `--from-jsonl` draws that screen's events only, the
    /// same picture as its recording drawn alone.
    @Test func aScreenOfSeveralIsDrawnAlone() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let config = ScreenReplayTests.config
        let gallery = try Gestured.run(["render", "--config", config, "--screen", "gallery", "-o", directory + "/gallery.svg",
                                        "config/recordings/one-finger-taps.evemu"])
        #expect(gallery.status == 0, "\(gallery.stderr)")
        let data = try #require(try python(["xml", directory + "/gallery.svg"])["data"] as? [String: Any])
        #expect(data["screen"] as? String == "gallery")
        let views = try #require(data["views"] as? [[String: Any]])
        #expect(views.first?["id"] as? String != "lobby")

        let merged = try Gestured.run(["replay", "--trace", "--contacts", "--config", config,
                                       "--screen", ScreenReplayTests.lobby, "--screen", ScreenReplayTests.gallery])
        #expect(merged.status == 0, "\(merged.stderr)")
        let events = directory + "/merged.jsonl"
        try merged.stdout.write(toFile: events, atomically: true, encoding: .utf8)
        for screen in ["lobby", "gallery"] {
            let recording = screen == "lobby" ? "config/recordings/lobby-session.evemu" : "config/recordings/one-finger-taps.evemu"
            let alone = try Gestured.run(["render", "--config", config, "--screen", screen, recording])
            let fromEvents = try Gestured.run(["render", "--config", config, "--screen", screen, "--from-jsonl", events])
            #expect(alone.status == 0 && fromEvents.status == 0, "\(alone.stderr)\(fromEvents.stderr)")
            let body = { (svg: String) in svg.split(separator: "\n").filter { !$0.contains("gestured render: ") && !$0.hasPrefix("{\"format\"") } }
            #expect(body(alone.stdout) == body(fromEvents.stdout), "screen \(screen)")
            #expect(alone.stdout.contains("\"screen\":\"\(screen)\""))
        }

        let unknown = try Gestured.run(["render", "--config", config, "--screen", "hall", "config/recordings/one-finger-taps.evemu"])
        #expect(unknown.status == 1 && unknown.stderr.contains("lobby, gallery"), "\(unknown.stderr)")
    }

    /// A line that is not an event is named by file and line.
    @Test func aLineThatIsNotAnEventIsNamed() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let events = directory + "/broken.jsonl"
        try "{\"type\":\"device\",\"seq\":1,\"time\":0,\"name\":\"x\"}\n{\"type\": oops}\n".write(toFile: events, atomically: true, encoding: .utf8)
        let result = try Gestured.run(["render", "--config", "config/lobby.json5", "--from-jsonl", events])
        #expect(result.status == 1)
        #expect(result.stderr.contains("broken.jsonl:2:"), "\(result.stderr)")
    }

    /// A long drag and more touches than are drawn: the path keeps at most 512 points by the
    /// doubling stride (its first and last sample among them), at most 100 ticks with a doubled
    /// interval, 64 touches drawn and the rest counted, and the file stays small.
    @Test func aLongRecordingWithManyTouchesStaysBounded() throws {
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // 30 s of drag at 100 frames a second, then 70 taps.
        var script = "screen 1920 1080\ndown 1 100 100\nmove 1 1800 900 over 30s\nup 1\n"
        for tap in 0..<70 { script += "wait 50ms\ndown 1 \(200 + tap * 20) 500\nwait 30ms\nup 1\n" }
        try script.write(toFile: directory + "/long.touches", atomically: true, encoding: .utf8)
        let synth = try Gestured.run(["synth", "-o", directory + "/long.evemu", directory + "/long.touches"])
        #expect(synth.status == 0, "\(synth.stderr)")
        let svg = directory + "/long.svg"
        let result = try Gestured.run(["render", "--config", "config/lobby.json5", "-o", svg, directory + "/long.evemu"])
        #expect(result.status == 0, "\(result.stderr)")
        let data = try #require(try python(["xml", svg])["data"] as? [String: Any])
        let touches = try #require(data["touches"] as? [[String: Any]])
        #expect(touches.count == 64)
        #expect(data["touchesLeftOut"] as? Int == 7)
        let drag = touches[0]
        let points = drag["points"] as! [[Double]], ticks = drag["ticks"] as! [[Double]]
        // The landing, 3,000 frames of glide, the lift.
        #expect(drag["samples"] as? Int == 3002)
        // The stride doubles each time 512 points are kept: at samples 512, 1,024 and 2,048, to
        // 8; that keeps 376 points (samples 0, 8, …, 3,000), then the last sample, 3,001.
        #expect(drag["stride"] as? Int == 8)
        #expect(points.count == 377)
        #expect(points.first?[0] == 0 && points.last?[0] == drag["end"] as? Double)
        #expect(zip(points, points.dropFirst()).allSatisfy { $0[0] < $1[0] })
        // 300 ticks of 100 ms would be: the interval doubles twice, to 400 ms.
        #expect(drag["tickInterval"] as? Int == 400_000)
        #expect(ticks.count <= 100 && ticks.count >= 50)
        #expect(ticks.allSatisfy { Int($0[0]) % 400_000 == 0 })
        let size = try FileManager.default.attributesOfItem(atPath: svg)[.size] as! Int
        #expect(size < 400_000, "\(size) bytes")
    }

    /// A recording that is not there: status 1 and the file named, nothing written.
    @Test func aMissingRecordingIsNamed() throws {
        let result = try Gestured.run(["render", "--config", "config/lobby.json5", "no-such.evemu"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("no-such.evemu"), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    /// The picture in a real headless Chromium (Debian's, with python3-selenium, which
    /// scripts/setup-deps.sh installs when absent): it renders, and its view ids and recognizer
    /// names are text the browser laid out.
    @Test func chromiumRendersThePictureAndItsTextIsFindable() throws {
        try runSetupDeps()
        let directory = try temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let svg = directory + "/lobby.svg"
        let result = try Gestured.run(["render", "--config", "config/lobby.json5", "-o", svg,
                                       "config/recordings/lobby-session.evemu"])
        #expect(result.status == 0, "\(result.stderr)")
        let words = ["welcomeStart", "welcomeDialog", "carousel", "checkIn", "welcomeSwipe", "carouselPan", "Legend"]
        let output = try pythonOutput(["browser", svg, directory + "/lobby.png"] + words)
        #expect(output.contains("ok: 7 words found"), "\(output)")
        #expect(output.contains("colours"), "\(output)")
    }

    // MARK: - Helpers

    private func json(_ text: String) -> String {
        String(decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
    }

    private func temporaryDirectory() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-render-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
        return path
    }

    /// render_check.py's output, after it exited 0.
    private func pythonOutput(_ arguments: [String]) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/python3")
        process.arguments = [Gestured.packageRoot + "/Tests/gesturedTests/render/render_check.py"] + arguments
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: stdout, as: UTF8.self)
        try #require(process.terminationStatus == 0, "render_check.py \(arguments[0]): \(String(decoding: stderr, as: UTF8.self))\n\(text)")
        return text
    }

    private func python(_ arguments: [String]) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(try pythonOutput(arguments).utf8)) as? [String: Any])
    }

    private func runSetupDeps() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/bin/bash")
        process.arguments = [Gestured.packageRoot + "/scripts/setup-deps.sh"]
        try process.run()
        process.waitUntilExit()
        // setup-deps.sh exits 1 without swift on PATH, after installing the packages; what
        // matters here is that the browser is there.
        try #require(FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium"), "chromium is not installed")
    }
}
