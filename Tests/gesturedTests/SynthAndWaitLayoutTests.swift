#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `gestured synth` (a recording from a gesture script in CSS pixels) and `gestured replay
/// --wait-layout` (a replay that begins once a client set its layout), with the real binary.
@Suite(.serialized)
struct SynthAndWaitLayoutTests {
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/gestured-synth-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    /// A 1920 × 1080 screen with a row of 20-point views around (400, 200): a point off by one
    /// view's width lands on a neighbour.
    static let configuration = """
        {
          screen: { width: 1920, height: 1080 },
          layout: { id: "screen", frame: [0, 0, 1920, 1080], subviews: [
            { id: "left", frame: [370, 190, 20, 20] },
            { id: "target", frame: [390, 190, 20, 20] },
            { id: "right", frame: [410, 190, 20, 20] },
            { id: "below", frame: [390, 210, 20, 20] },
          ] },
        }
        """

    /// The views the touches of a replay began on.
    static func viewsTouched(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["type"] as? String == "touches", object["phase"] as? String == "began" else { return nil }
            return object["view"] as? String
        }
    }

    /// A page whose viewport starts at (100, 50) on the screen, at devicePixelRatio × zoom =
    /// 1.5: CSS (200, 100) is the point (400, 200), the middle of "target"; the same CSS point
    /// read as points, or without the origin, lands elsewhere.
    @Test(arguments: [
        ("page origin 100 50\npage scale 1.5\nunits css\ndown 1 200 100", "target"),
        ("page origin 100 50\npage scale 1.5\nunits css\ndown 1 186.7 100", "left"),
        ("page origin 100 50\npage scale 1.5\nunits css\ndown 1 200 110", "below"),
        // The viewport's size gives the scale: 1920 / 1280 = 1.5.
        ("page viewport 1280 720\nunits css\ndown 1 266.67 133.34", "target"),
        ("units points\ndown 1 400 200", "target"),
    ])
    func aSynthesisedTapLandsOnTheViewAtItsCSSPixel(_ lines: String, _ view: String) throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/tap.touches", recording = directory + "/tap.evemu", config = directory + "/kiosk.json5"
        try "# a tap\nscreen 1920 1080\n\(lines)\nwait 80ms\nup 1\n".write(toFile: script, atomically: true, encoding: .utf8)
        try Self.configuration.write(toFile: config, atomically: true, encoding: .utf8)

        let synth = try Gestured.run(["synth", script, "-o", recording])
        #expect(synth.status == 0, "\(synth.stderr)")
        let text = try String(contentsOfFile: recording, encoding: .utf8)
        #expect(text.hasPrefix("# EVEMU 1.3\n# Made by gestured synth from tap.touches"))
        #expect(text.contains("N: gestured virtual touchscreen"))
        // Standard output gives the same.
        #expect(try Gestured.run(["synth", script]).stdout == text)

        let replay = try Gestured.run(["replay", "--config", config, recording])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(Self.viewsTouched(replay.stdout) == [view])
    }

    /// Each mistake names the file, the line and what is allowed.
    @Test(arguments: [
        ("screen 1920 1080\npage scale 0\n", "s.touches:2: `page scale` is 0.0; screen points per CSS pixel from 0.05 to 20.0"),
        ("screen 1920 1080\npage scale 1\npage viewport 100 100\n",
         "s.touches:3: `page scale` and `page viewport` each say how large a CSS pixel is; give one of them once"),
        ("screen 1920 1080\npage origin 1\n",
         "s.touches:2: expected `page origin` and 2 numbers: the viewport's top-left corner in screen points"),
        ("screen 1920 1080\npage zoom 2\n", "s.touches:2: expected `page origin X Y` (points), `page scale S` (points per CSS "
            + "pixel: devicePixelRatio × zoom) or `page viewport WIDTH HEIGHT` (CSS pixels); found `page zoom`"),
        ("screen 1920 1080\npage viewport 1280 1000\n", "s.touches:2: the viewport (1280.0 × 1000.0 CSS pixels) has another "
            + "shape than the screen below its origin (1920.0 × 1080.0 points): give `page scale` (and `page origin`) instead, "
            + "as window.devicePixelRatio × zoom and where the viewport lies"),
        ("units css\ndown 1 5 5\n", "s.touches:2: positions in CSS pixels need a `screen WIDTH HEIGHT` line first (or `units mm` / `units device`)"),
        ("screen 1920 1080\npage scale 2\nunits css\ndown 1 1000 10\n", "s.touches:4: CSS pixels (1000.0, 10.0) are points "
            + "(2000.0, 20.0) with the page's origin (0.0, 0.0) and scale 2.0: (2000.0, 20.0) is off the screen: x from 0 to "
            + "below 1920.0, y from 0 to below 1080.0"),
    ])
    func mistakesAreNamed(_ text: String, _ message: String) throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try text.write(toFile: directory + "/s.touches", atomically: true, encoding: .utf8)
        let result = try Gestured.run(["synth", directory + "/s.touches"])
        #expect(result.status == 1)
        #expect(result.stderr == "gestured: \(directory)/\(message)\n")
    }

    @Test func aScriptThatIsNotThereIsNamed() throws {
        let result = try Gestured.run(["synth", "/nonexistent/tap.touches"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("gestured: /nonexistent/tap.touches: cannot read the script: "))
    }

    // MARK: --wait-layout

    @Test(arguments: [
        (["--wait-layout"], "--wait-layout needs --socket PATH"),
        (["--socket", "/tmp/x.sock", "--wait-layout", "--wait-layout-timeout", "0"],
         "--wait-layout-timeout is 0; use a number of seconds from 1 to 3600"),
        (["--socket", "/tmp/x.sock", "--wait-layout", "--wait-layout-timeout", "3601"],
         "--wait-layout-timeout is 3601; use a number of seconds from 1 to 3600"),
        (["--socket", "/tmp/x.sock", "--wait-layout-timeout", "5"], "--wait-layout-timeout needs --wait-layout"),
    ])
    func waitLayoutOptionsAreChecked(_ options: [String], _ message: String) throws {
        let result = try Gestured.run(["replay", "--config", "config/lobby.json5"] + options + ["config/recordings/one-finger-taps.evemu"])
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }

    @Test func withoutALayoutTheReplayFailsWhenTheWaitIsOver() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try Gestured.run(["replay", "--config", "config/lobby.json5", "--socket", directory + "/s.sock",
                                       "--wait-clients", "0", "--wait-layout", "--wait-layout-timeout", "1",
                                       "config/recordings/one-finger-taps.evemu"])
        #expect(result.status == 1)
        #expect(result.stderr.contains("gestured: --wait-layout: no client set a layout (layout.set) within 1 s; 0 client(s) "
            + "subscribed. Load the page that sends its layout (or raise --wait-layout-timeout), then run the replay again"),
            "\(result.stderr)")
    }

    /// A subscriber alone does not start it; its `layout.set` does, and the touches come after
    /// its reply, on its layout.
    @Test func theReplayBeginsWhenAClientSetsALayout() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let socketPath = directory + "/s.sock"
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Gestured.binary)
        process.currentDirectoryURL = URL(fileURLWithPath: Gestured.packageRoot)
        process.arguments = ["replay", "--config", "config/lobby.json5", "--socket", socketPath, "--wait-layout",
                             "--wait-layout-timeout", "60", "config/recordings/one-finger-taps.evemu"]
        let errors = Pipe()
        process.standardError = errors
        try process.run()
        defer { if process.isRunning { process.terminate() } }

        let client = try LineClient(path: socketPath)
        #expect(try client.next()["type"] as? String == "hello")
        try client.send(#"{"type":"subscribe","id":1}"#)
        #expect(try client.next()["type"] as? String == "reply")
        // Subscribed, and still nothing replayed: it waits for a layout.
        try client.send(#"{"type":"status","id":2}"#)
        let status = try client.next()
        #expect((status["input"] as? [String: Any])?["frames"] as? Int == 0, "\(status)")
        #expect((status["counters"] as? [String: Any])?["events"] as? Int == 0, "\(status)")

        try client.send(#"{"type":"layout.set","id":3,"layout":{"id":"page","frame":[0,0,1920,1080]}}"#)
        var seen: [[String: Any]] = []
        while true {
            let line = try client.next()
            seen.append(line)
            if line["type"] as? String == "bye" { break }
        }
        let types = seen.map { $0["type"] as? String ?? "?" }
        let reply = try #require(types.firstIndex(of: "reply"))
        let firstTouch = try #require(types.firstIndex(of: "touches"))
        #expect(reply < firstTouch)
        let began = seen.filter { $0["type"] as? String == "touches" && $0["phase"] as? String == "began" }
        #expect(!began.isEmpty && began.allSatisfy { $0["view"] as? String == "page" })
        #expect(seen.last?["reason"] as? String == "end")
        process.waitUntilExit()
        #expect(process.terminationStatus == 0)
    }
}

/// A blocking client of gestured's socket that reads one JSON line at a time (10 s at most
/// for each, so a broken replay fails the test instead of hanging it). It connects once the
/// socket is there.
final class LineClient {
    private let fd: Int32
    private var buffer: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        var timeout = timeval(tv_sec: 10, tv_usec: 0)
        setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        // The replay binds its socket a moment after it starts: try for up to 10 s.
        for _ in 0..<1000 {
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            if connected == 0 { return }
            usleep(10_000)
        }
        throw POSIXError(.ECONNREFUSED)
    }

    deinit { close(fd) }

    func send(_ line: String) throws {
        let bytes = Array((line + "\n").utf8)
        guard Glibc.send(fd, bytes, bytes.count, Int32(MSG_NOSIGNAL)) == bytes.count else { throw POSIXError(.EPIPE) }
    }

    func next() throws -> [String: Any] {
        try JSONSerialization.jsonObject(with: Data(try nextLine().utf8)) as? [String: Any] ?? [:]
    }

    /// The next line as sent, without its newline.
    func nextLine() throws -> String {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while !buffer.contains(0x0A) {
            let count = recv(fd, &chunk, chunk.count, 0)
            guard count > 0 else { throw POSIXError(count == 0 ? .ECONNRESET : .ETIMEDOUT) }
            buffer += chunk[..<count]
        }
        let newline = buffer.firstIndex(of: 0x0A)!
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
    }
}
