#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Synthetic evemu recordings of an 800 × 480 panel whose device units are screen points (the
/// description of the bundled Atmel maXTouch recording), so a test states touches in points.
enum SyntheticRecording {
    /// One contact's change in a frame.
    enum Change {
        case down(slot: Int, id: Int, x: Int, y: Int)
        case move(slot: Int, x: Int, y: Int)
        case up(slot: Int)
    }

    static let header = """
        # EVEMU 1.3
        # A synthetic recording for gestured's integration tests (the Atmel maXTouch description).
        N: Atmel maXTouch Touchscreen
        I: 0018 0000 0000 0000
        P: 02 00 00 00 00 00 00 00
        B: 00 0b 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 04 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 02 00 00 00 00 00 00 00 00
        B: 03 03 00 00 00 00 80 e0 0a
        B: 04 00 00 00 00 00 00 00 00
        B: 05 00 00 00 00 00 00 00 00
        B: 11 00 00 00 00 00 00 00 00
        B: 12 00 00 00 00 00 00 00 00
        B: 14 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        A: 00 0 799 0 0 0
        A: 01 0 479 0 0 0
        A: 2f 0 9 0 0 0
        A: 35 0 799 0 0 0
        A: 36 0 479 0 0 0
        A: 37 0 2 0 0 0
        A: 39 0 65535 0 0 0
        A: 3b 0 1 0 0 0

        """

    /// The evemu text of `frames` (time in seconds, the changes of that frame).
    static func evemu(_ frames: [(time: Double, changes: [Change])]) -> String {
        var text = header
        var down = 0
        for (time, changes) in frames {
            let stamp = String(format: "%.6f", time)
            func event(_ type: Int, _ code: Int, _ value: Int) {
                text += "E: \(stamp) \(String(format: "%04x %04x", type, code)) \(String(format: "%04d", value))\n"
            }
            for change in changes {
                switch change {
                case .down(let slot, let id, let x, let y):
                    event(3, 0x2f, slot); event(3, 0x39, id); event(3, 0x35, x); event(3, 0x36, y)
                    down += 1
                    if down == 1 { event(1, 0x14a, 1) }
                case .move(let slot, let x, let y):
                    event(3, 0x2f, slot); event(3, 0x35, x); event(3, 0x36, y)
                case .up(let slot):
                    event(3, 0x2f, slot); text += "E: \(stamp) 0003 0039 -001\n"
                    down -= 1
                    if down == 0 { event(1, 0x14a, 0) }
                }
            }
            event(0, 0, 0)
        }
        return text
    }

    /// A tap at (x, y) starting at `time`: down, then up 50 ms later.
    static func tap(at time: Double, x: Int, y: Int, id: Int) -> [(time: Double, changes: [Change])] {
        [(time, [.down(slot: 0, id: id, x: x, y: y)]), (time + 0.05, [.up(slot: 0)])]
    }

    /// One finger panning back and forth on the left half for `frames` frames of 8 ms: a long,
    /// steady stream of touches and pan events (about 700 bytes per frame).
    static func longPan(frames: Int) -> [(time: Double, changes: [Change])] {
        var result: [(time: Double, changes: [Change])] = [(0.001, [.down(slot: 0, id: 1, x: 100, y: 100)])]
        for frame in 1..<frames {
            let y = 100 + (frame % 200 < 100 ? frame % 100 : 100 - frame % 100) * 2
            result.append((0.001 + Double(frame) * 0.008, [.move(slot: 0, x: 100 + frame % 7, y: y)]))
        }
        result.append((0.001 + Double(frames) * 0.008, [.up(slot: 0)]))
        return result
    }
}

/// The test configurations: an 800 × 480 screen with a left view that pans and a right
/// button, and a replacement layout.
enum TestLayouts {
    static let main = """
        {
          id: "screen", frame: [0, 0, 800, 480],
          recognizers: [{ id: "screenTap", type: "tap" }],
          subviews: [
            { id: "left", frame: [0, 0, 400, 480], recognizers: [{ id: "leftPan", type: "pan" }] },
            { id: "rightButton", frame: [400, 0, 400, 480], kind: "control" },
          ],
        }
        """

    /// The layout `layout.set` sends: one view over the whole screen, as compact JSON.
    static let replacement = #"{"id":"wall","frame":[0,0,800,480],"subviews":[{"id":"poster","frame":[0,0,800,480]}]}"#

    /// A configuration with `socket` settings (JSON5 members) and the main layout inline.
    static func configuration(socket: String = "") -> String {
        """
        {
          screen: { width: 800, height: 480 },
          socket: { path: "/run/gestured/unused.sock", \(socket) },
          layout: \(main),
        }
        """
    }
}

/// One daemon under test: a temporary directory, a configuration, a recording, the
/// notification socket, and the running `gestured replay --socket`.
final class DaemonFixture {
    let directory: TemporaryDirectory
    let socketPath: String
    let configPath: String
    let notify: NotifyListener
    private(set) var process: ChildProcess!

    /// Writes the files and starts the daemon; returns once it said READY=1.
    init(recording: String, socket: String = "", options: [String] = [], waitClients: Int = 1,
         environment: [String: String] = [:], start: Bool = true) throws {
        directory = Paths.temporaryDirectory()
        socketPath = directory.file("gestured.sock")
        configPath = directory.write("gestured.json5", TestLayouts.configuration(socket: socket))
        directory.write("recording.evemu", recording)
        notify = try NotifyListener(path: directory.file("notify"))
        if start { try self.start(options: options, waitClients: waitClients, environment: environment) }
    }

    /// The command line of the daemon.
    func arguments(options: [String] = [], waitClients: Int = 1) -> [String] {
        [Paths.gestured, "replay", "--config", configPath, "--socket", socketPath, "--wait-clients", "\(waitClients)"]
            + options + [directory.file("recording.evemu")]
    }

    func start(options: [String] = [], waitClients: Int = 1, environment: [String: String] = [:]) throws {
        process = try ChildProcess(arguments(options: options, waitClients: waitClients),
                                   environment: ["NOTIFY_SOCKET": notify.path].merging(environment) { _, new in new })
        guard notify.waitFor(line: "READY=1") != nil else {
            throw TestFailure("the daemon did not say READY=1; stderr:\n\(process.waitForExit(timeout: 1)) \(process.stderrText)")
        }
    }

    func connect() throws -> TestClient { try TestClient(path: socketPath) }

    /// A connected client that read its hello and subscribed with `filters` (JSON members).
    func subscriber(_ filters: String = "") throws -> TestClient {
        let client = try connect()
        let hello = try parse(client.readLine() ?? "")
        #expect(hello["type"] as? String == "hello")
        let reply = try client.request(#"{"type":"subscribe","id":"s"\#(filters.isEmpty ? "" : ",")\#(filters)}"#)
        #expect(reply["ok"] as? Bool == true, "subscribe failed: \(reply)")
        return client
    }

    deinit {
        if let process, process.exitStatus == nil { process.waitForExit(timeout: 5) }
        directory.remove()
    }
}

/// The events of a stream (what a subscriber reads before `bye`), without hello and replies.
func events(in lines: [String]) -> [String] {
    lines.filter { line in
        let type = type(of: line)
        return type != "hello" && type != "reply" && type != "bye" && type != "error"
    }
}
