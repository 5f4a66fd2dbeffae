#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Runs the built `gestured` binary as a user would.
enum Gestured {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url = url.deletingLastPathComponent()
        }
        return url.path
    }()

    /// The binary sits next to the test bundle in the build products directory.
    static let binary: String = {
        let exe = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
        return exe.deletingLastPathComponent().appendingPathComponent("gestured").path
    }()

    struct Result {
        var status: Int32
        var stdout: String
        var stderr: String
    }

    /// Runs the binary with its output to /dev/null and returns its exit status and its peak
    /// resident memory in bytes: the largest `VmHWM` of /proc/PID/status read while it runs
    /// (every 10 ms; the peak of its own address space). wait4(2)'s `ru_maxrss` would not do:
    /// it counts the spawning test process's memory, which the child shared until its exec.
    static func runMeasuringMemory(_ arguments: [String]) throws -> (status: Int32, peakBytes: Int) {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        let argv = ([binary] + arguments).map { strdup($0) } + [nil]
        defer { for pointer in argv { free(pointer) } }
        var pid = pid_t()
        let spawned = posix_spawn(&pid, binary, &actions, nil, argv, environ)
        guard spawned == 0 else { throw CocoaError(.fileReadUnknown) }
        var peak = 0
        // A process that has exited has no address space left, and its status no VmHWM line.
        while let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
              let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") }) {
            let kilobytes = Int(line.split(separator: " ", omittingEmptySubsequences: true)[1]) ?? 0
            peak = max(peak, kilobytes * 1024)
            usleep(10_000)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0
        return (exited ? (status >> 8) & 0xff : -1, peak)
    }

    /// `columns` is $COLUMNS for the help's layout; without it, 80 (stdout is a pipe).
    static func run(_ arguments: [String], columns: Int? = nil) throws -> Result {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: binary)
        process.arguments = arguments
        process.currentDirectoryURL = URL(fileURLWithPath: packageRoot)
        var environment = ProcessInfo.processInfo.environment.filter { $0.key != "COLUMNS" }
        if let columns { environment["COLUMNS"] = String(columns) }
        process.environment = environment
        let out = Pipe(), err = Pipe()
        process.standardOutput = out
        process.standardError = err
        try process.run()
        let stdout = out.fileHandleForReading.readDataToEndOfFile()
        let stderr = err.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return Result(status: process.terminationStatus, stdout: String(decoding: stdout, as: UTF8.self),
                      stderr: String(decoding: stderr, as: UTF8.self))
    }
}

/// Runs the binary with arguments of any bytes (not only UTF-8, which `Process` needs), and
/// returns its exit status (-1 if a signal ended it) and what it wrote on stderr.
enum RawArguments {
    static func run(_ arguments: [[UInt8]]) throws -> (status: Int32, stderr: String) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let errorPath = directory.appendingPathComponent("stderr").path
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, errorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        let words = [Array(Gestured.binary.utf8)] + arguments
        let argv: [UnsafeMutablePointer<CChar>?] = words.map { bytes in
            let pointer = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (index, byte) in bytes.enumerated() { pointer[index] = CChar(bitPattern: byte) }
            pointer[bytes.count] = 0
            return pointer
        } + [nil]
        defer { for pointer in argv { pointer?.deallocate() } }
        var pid = pid_t()
        guard posix_spawn(&pid, Gestured.binary, &actions, nil, argv, environ) == 0 else {
            throw CocoaError(.fileReadUnknown)
        }
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        let exited = status & 0x7f == 0
        let stderr = (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? ""
        return (exited ? (status >> 8) & 0xff : -1, stderr)
    }
}

/// A long recording for memory tests: a recording's description, then its events again and
/// again, each copy shifted to start one second after the previous one ends (as
/// scripts/long-recording.py makes them for measurements).
enum LongRecording {
    /// Writes at least `bytes` bytes of events to `path`; returns the size written.
    static func write(repeating source: String, to path: String, bytes: Int) throws -> Int {
        let lines = try String(contentsOfFile: source, encoding: .utf8).split(separator: "\n")
        let header = lines.prefix { !$0.hasPrefix("E:") }.map { $0 + "\n" }.joined()
        let events: [(time: Int64, rest: Substring)] = lines.filter { $0.hasPrefix("E:") }.map { line in
            let fields = line.dropFirst(3).split(separator: " ", maxSplits: 1)
            let stamp = fields[0].split(separator: ".")
            return (Int64(stamp[0])! * 1_000_000 + Int64(stamp[1])!, fields[1])
        }
        let period = events.last!.time - events.first!.time + 1_000_000
        _ = FileManager.default.createFile(atPath: path, contents: Data(header.utf8))
        let file = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
        defer { try? file.close() }
        try file.seekToEnd()
        var written = header.utf8.count
        var copy: Int64 = 0
        while written < bytes {
            var block = ""
            for event in events {
                let time = event.time + copy * period
                let micros = String(time % 1_000_000)
                block += "E: \(time / 1_000_000).\(String(repeating: "0", count: 6 - micros.count))\(micros) \(event.rest)\n"
            }
            try file.write(contentsOf: Data(block.utf8))
            written += block.utf8.count
            copy += 1
        }
        return written
    }
}

@Suite("gestured hit-test")
struct HitTestCommandTests {
    @Test func printsTheTraceThenTheView() throws {
        let result = try Gestured.run(["hit-test", "config/scenario-a.json5", "20", "320"])
        #expect(result.status == 0)
        #expect(result.stdout == """
            RootView hitTest
            RootView point(inside): true
            BlackView hitTest
            BlackView point(inside): true
            FrontButton hitTest
            FrontButton point(inside): false
            => BlackView

            """)
    }

    @Test func passThroughScenarioReachesTheButtonBehind() throws {
        let result = try Gestured.run(["hit-test", "config/scenario-a-passthrough.json5", "60", "620"])
        #expect(result.stdout.hasSuffix("BackButton hitTest\nBackButton point(inside): true\n=> BackButton\n"))
    }

    @Test func noViewPrintsNone() throws {
        let result = try Gestured.run(["hit-test", "config/scenario-b-none.json5", "150", "100"])
        #expect(result.status == 0)
        #expect(result.stdout == "Container1 hitTest\n=> none\n")
    }

    @Test func aConfigurationUsesItsLayout() throws {
        let result = try Gestured.run(["hit-test", "config/lobby.json5", "1870", "68"])
        #expect(result.stdout.hasSuffix("=> languageClose\n"), "the 24 pt close button is enlarged by hitOutset")
    }

    @Test func badArgumentsSayWhatToChange() throws {
        let result = try Gestured.run(["hit-test", "config/scenario-a.json5", "twenty", "320"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("twenty"))
    }
}

@Suite("gestured check-config")
struct CheckConfigCommandTests {
    @Test(arguments: ["config/lobby.json5", "config/gallery.json5", "config/map.json5", "config/scenario-b.json5"])
    func validFilesExitZeroWithASummary(_ file: String) throws {
        let result = try Gestured.run(["check-config", file])
        #expect(result.status == 0)
        #expect(result.stdout.hasPrefix("\(file): a valid "))
        #expect(result.stderr == "")
    }

    static let broken: [(String, [String])] = [
        ("duplicate-id", [
            #"!8:9: layout.subviews[1].subviews[0].id: the view id "button" is already used at layout.subviews[0]; give each view a unique id"#,
        ]),
        ("malformed", [
            #"!7:19: missing "," between the value of "id" and "frame"; add a comma"#,
        ]),
        ("negative-size", [
            "!6:38: layout.subviews[0].frame[2]: the width is -200; make it from 0 to 1000000 points (frames grow right and down from x, y)",
            "!7:42: layout.subviews[1].frame[3]: the height is -80; make it from 0 to 1000000 points (frames grow right and down from x, y)",
        ]),
        ("redirect-non-descendant", [
            #"!6:55: layout.subviews[0].hitTest.redirect: "right" is not inside "left"; a redirect must name one of this view's descendants ("leftList")"#,
            #"!8:58: layout.subviews[1].hitTest.redirect: "right" is this view itself; name one of its descendants, or use hitTest: "default""#,
        ]),
        ("require-to-fail-cycle", [
            #"!8:62: layout.recognizers[2].requireToFail[0]: requireToFail makes a cycle "singleTap" → "doubleTap" → "tripleTap" → "singleTap", so none of them can ever recognize; remove one of these requirements"#,
        ]),
        ("tracking-slop-on-view", [
            #"!6:44: layout.subviews[0].trackingSlop: only controls track their touches; remove trackingSlop or make the view a control with kind: "control""#,
        ]),
        ("unknown-key", [
            "!6:59: layout.subviews[0].colour: unknown key; remove it (a view takes id, frame, hidden, alpha, userInteractionEnabled, hitOutset, hitTest, passThrough, kind, handlesTouches, multipleTouchEnabled, exclusiveTouch, trackingSlop, routing, recognizers, subviews)",
            #"!6:46: layout.subviews[0].hiden: unknown key; did you mean "hidden"?"#,
        ]),
        ("unknown-require-to-fail", [
            #"!8:53: layout.recognizers[1].requireToFail[0]: no recognizer has the id "doubleTapp"; did you mean "doubleTap"?"#,
            #"!8:67: layout.recognizers[1].requireToFail[1]: "singleTap" is this recognizer itself; name another recognizer or remove the entry"#,
        ]),
        ("wrong-type", [
            "!4:3: layout.frame: expected an array of 4 numbers [x, y, width, height], found a string",
            "!6:7: layout.subviews[0].id: expected a string (the view's unique name), found a number",
            "!6:33: layout.subviews[0].frame[3]: expected a number (height), found a string",
            "!6:40: layout.subviews[0].hidden: expected true or false, found a string",
            "!6:54: layout.subviews[0].alpha: expected a number from 0 to 1, found a string",
            #"!6:69: layout.subviews[0].kind: "button" is not a view kind; use "view" or "control""#,
        ]),
    ]

    /// Every problem on stderr, one per line as `FILE:LINE:COLUMN: KEY.PATH: message` (a `!`
    /// prefix in the table stands for `FILE:` directly followed by `LINE:COLUMN`), and exit
    /// status 1.
    @Test(arguments: broken)
    func brokenFilesPrintEveryProblemAndExitNonZero(_ name: String, _ problems: [String]) throws {
        let file = "Tests/Fixtures/config/broken/\(name).json5"
        let result = try Gestured.run(["check-config", file])
        #expect(result.status == 1)
        #expect(result.stdout == "")
        let expected = problems.map { $0.hasPrefix("!") ? file + ":" + $0.dropFirst() : file + ": " + $0 }
        #expect(result.stderr.split(separator: "\n").map(String.init) == expected)
    }

    @Test func missingFileSaysSo() throws {
        let result = try Gestured.run(["check-config", "no/such/file.json5"])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("no/such/file.json5: "))
    }
}

@Suite("gestured replay")
struct ReplayCommandTests {
    @Test func theReadmeDemoReplaysTheLobbySession() throws {
        let result = try Gestured.run(["replay", "--config", "config/lobby.json5", "config/recordings/lobby-session.evemu"])
        #expect(result.status == 0)
        let lines = result.stdout.split(separator: "\n")
        #expect(lines.first?.hasPrefix(#"{"type":"device","seq":1,"#) == true)
        #expect(lines.contains { $0.contains(#""recognizer":"carouselPan","kind":"pan","view":"carousel","state":"began""#) })
        #expect(lines.contains { $0.contains(#""recognizer":"carouselPan","kind":"pan","view":"carousel","state":"ended""#) })
        #expect(lines.contains { $0.contains(#""view":"checkIn","event":"touchUpInside""#) })
    }

    @Test func aTouchpadIsRefusedUnlessForced() throws {
        let recording = "Tests/Fixtures/recordings/touchpad-scroll.evemu"
        let refused = try Gestured.run(["replay", "--config", "config/lobby.json5", recording])
        #expect(refused.status == 1)
        #expect(refused.stderr.contains("not a touchscreen (touchpad: BTN_TOOL_FINGER without INPUT_PROP_DIRECT"))
        #expect(refused.stderr.contains("--force"))
        let forced = try Gestured.run(["replay", "--force", "--config", "config/lobby.json5", recording])
        #expect(forced.status == 0)
    }

    @Test func aMalformedRecordingNamesFileAndLine() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let bundled = try String(contentsOfFile: Gestured.packageRoot
            + "/config/recordings/one-finger-taps.evemu", encoding: .utf8)
        var lines = bundled.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let firstEvent = lines.firstIndex { $0.hasPrefix("E:") }!
        lines[firstEvent + 2] = "E: 0.000001 0003"
        let path = directory.appendingPathComponent("broken.evemu").path
        try lines.joined(separator: "\n").write(toFile: path, atomically: true, encoding: .utf8)
        let result = try Gestured.run(["replay", "--config", "config/lobby.json5", path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(path):\(firstEvent + 3): "))
    }

    /// `/dev/zero` was read until memory ran out; a FIFO blocked until a writer came.
    @Test(arguments: ["/dev/zero", "/tmp"])
    func aRecordingThatIsNotARegularFileSaysWhatItIs(_ path: String) throws {
        let result = try Gestured.run(["replay", "--config", "config/lobby.json5", path])
        #expect(result.status == 1)
        #expect(result.stderr.hasPrefix("\(path): cannot read the recording (it is a "))
        #expect(result.stderr.hasSuffix("not a regular file); name a recording file (gestured reads regular files only)\n"))
        #expect(result.stdout.isEmpty)
    }

    /// The replay streams the recording: an 8 MiB recording took 42 MB (the file, its lines
    /// and its events held at once); now the whole replay stays within the 30 MB budget of
    /// docs/limits.md whatever the recording's length.
    @Test func aLongRecordingReplaysInBoundedMemory() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("long.evemu").path
        let size = try LongRecording.write(repeating: Gestured.packageRoot + "/config/recordings/one-finger-taps.evemu",
                                           to: path, bytes: 8 << 20)
        #expect(size >= 8 << 20)
        let (status, peak) = try Gestured.runMeasuringMemory(["replay", "--config",
                                                              Gestured.packageRoot + "/config/lobby.json5", path])
        #expect(status == 0)
        #expect(peak < 30 << 20, "peak resident memory \(peak >> 10) KiB")
    }

    @Test func sigtermEndsAReplayCleanly() throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Gestured.binary)
        process.arguments = ["replay", "--realtime", "--config", "config/lobby.json5",
                             "config/recordings/one-finger-taps.evemu"]
        process.currentDirectoryURL = URL(fileURLWithPath: Gestured.packageRoot)
        let out = Pipe()
        process.standardOutput = out
        try process.run()
        // Wait for the first line (the replay is running and paced), then ask it to stop.
        var received = Data()
        while !received.contains(UInt8(ascii: "\n")) {
            let chunk = out.fileHandleForReading.availableData
            if chunk.isEmpty { break }
            received += chunk
        }
        process.terminate()
        received += out.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        #expect(process.terminationReason == .exit)
        #expect(process.terminationStatus == 0)
        let text = String(decoding: received, as: UTF8.self)
        #expect(text.hasPrefix(#"{"type":"device""#))
        #expect(text.hasSuffix("\n"), "output is flushed whole lines")
    }
}

/// Issue 12: command lines that got a misleading answer.
@Suite("Command-line values")
struct CommandLineValueTests {
    /// "Missing expected argument": a point above or left of the screen is a valid point.
    @Test func negativeCoordinatesAreAPoint() throws {
        let result = try Gestured.run(["hit-test", "config/scenario-a.json5", "-5", "-5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "RootView hitTest\nRootView point(inside): false\n=> none\n")
    }

    /// `hit-test L nan 5` answered "=> none".
    @Test(arguments: ["nan", "inf", "-infinity", "1e7"])
    func coordinatesAreFiniteAndBounded(_ x: String) throws {
        let result = try Gestured.run(["hit-test", "config/scenario-a.json5", x, "5"])
        #expect(result.status != 0)
        #expect(result.stdout == "")
        #expect(result.stderr.contains("X is \(x); use a finite number of points from -1000000 to 1000000"), "\(result.stderr)")
    }

    @Test func aPointHasTwoCoordinates() throws {
        let result = try Gestured.run(["hit-test", "config/scenario-a.json5", "5"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("give the point as X Y, in screen points"), "\(result.stderr)")
    }

    /// "Missing value for '--wait-clients <wait-clients>'" for a value that is there.
    @Test func waitClientsMustNotBeNegative() throws {
        let result = try Gestured.run(["replay", "--config", "config/lobby.json5", "--socket", "/tmp/gestured-unused.sock",
                                       "--wait-clients", "-1", "config/recordings/atmel-maxtouch.4-finger-drag-down.evemu"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--wait-clients is -1; use a number of clients from 0 to 1000"), "\(result.stderr)")
    }

    @Test func tailCountMustBePositive() throws {
        let result = try Gestured.run(["tail", "--socket", "/tmp/gestured-unused.sock", "--count", "-1"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--count is -1; use a number of events of 1 or more"), "\(result.stderr)")
    }

    /// `--socket ""` said "File name too long".
    @Test(arguments: [["tail", "--socket", ""], ["run", "--socket", ""],
                      ["replay", "--config", "config/lobby.json5", "--socket", "", "x.evemu"]])
    func anEmptySocketPathSaysSo(_ arguments: [String]) throws {
        let result = try Gestured.run(arguments)
        #expect(result.status != 0)
        #expect(result.stderr.contains("--socket is empty; name the socket file"), "\(result.stderr)")
    }

    @Test func aSocketPathMustFit() throws {
        let result = try Gestured.run(["tail", "--socket", "/tmp/" + String(repeating: "s", count: 103)])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--socket is 108 bytes long; a Unix socket's path holds at most 107 bytes"),
                "\(result.stderr)")
    }

    /// `devices --directory /nonexistent` listed "no input devices" and exited 0.
    @Test func aMissingDeviceDirectoryIsAnError() throws {
        let result = try Gestured.run(["devices", "--directory", "/nonexistent"])
        #expect(result.status == 1)
        #expect(result.stderr == "--directory /nonexistent: No such file or directory; name the directory of the evdev nodes "
            + "(/dev/input)\n")
        let file = try Gestured.run(["devices", "--directory", "Package.swift"])
        #expect(file.status == 1)
        #expect(file.stderr.contains("not a directory"))
    }

    /// A FIFO or /dev/null as the configuration said "permission denied" (as root).
    @Test func aDeviceAsConfigurationSaysWhatItIs() throws {
        let result = try Gestured.run(["check-config", "/dev/null"])
        #expect(result.status == 1)
        #expect(result.stderr == "/dev/null: cannot read the file (it is a character device (such as /dev/null), not a "
            + "regular file); name a configuration or layout file\n")
    }
}

/// The command line that swift-argument-parser gave `gestured`, now read by CommandLineParsing
/// (docs/decisions.md): the same help and JSON help byte for byte, the same exit statuses, and
/// usage errors that name the option and what it takes.
@Suite("Command-line interface")
struct CommandLineInterfaceTests {
    static let golden = Gestured.packageRoot + "/Tests/Golden/command-line/"

    static let helps: [([String], String)] = [
        ([], "gestured.help.txt"), (["--help"], "gestured.help.txt"), (["-h"], "gestured.help.txt"),
        (["help"], "gestured.help.txt"), (["help", "bogus"], "gestured.help.txt"),
        (["--bogus", "--help"], "gestured.help.txt"),
        (["run", "--help"], "gestured-run.help.txt"), (["help", "run"], "gestured-run.help.txt"),
        (["run", "-h", "--socket", ""], "gestured-run.help.txt"),
        (["replay", "-h"], "gestured-replay.help.txt"), (["help", "replay"], "gestured-replay.help.txt"),
        (["record", "--help"], "gestured-record.help.txt"), (["devices", "--help"], "gestured-devices.help.txt"),
        (["tail", "--bogus", "--help"], "gestured-tail.help.txt"), (["hit-test", "L", "1", "-h"], "gestured-hit-test.help.txt"),
        (["check-config", "--help"], "gestured-check-config.help.txt"), (["help", "help"], "gestured-help.help.txt"),
        (["synth", "--help"], "gestured-synth.help.txt"), (["help", "synth"], "gestured-synth.help.txt"),
        (["map", "--help"], "gestured-map.help.txt"),
    ]

    @Test(arguments: helps)
    func helpIsWhatArgumentParserPrinted(_ arguments: [String], _ file: String) throws {
        let result = try Gestured.run(arguments)
        #expect(result.status == 0)
        #expect(result.stderr == "")
        #expect(result.stdout == (try String(contentsOfFile: Self.golden + file, encoding: .utf8)))
    }

    @Test func helpIsLaidOutToColumns() throws {
        let result = try Gestured.run(["replay", "--help"], columns: 50)
        #expect(result.stdout == (try String(contentsOfFile: Self.golden + "gestured-replay.help.50-columns.txt", encoding: .utf8)))
    }

    /// scripts/package-deb.sh makes the man page from it with argument-parser's generate-manual.
    @Test(arguments: [[], ["run"], ["replay"], ["record"], ["synth"], ["devices"], ["tail"], ["hit-test"], ["check-config"],
                      ["help"], ["map"]])
    func dumpHelpIsWhatArgumentParserPrinted(_ subcommand: [String]) throws {
        // Before --version, as argument-parser ranked them.
        let result = try Gestured.run(subcommand + ["--version", "--experimental-dump-help"])
        #expect(result.status == 0)
        let file = (["gestured"] + subcommand).joined(separator: "-") + ".dump-help.json"
        #expect(result.stdout == (try String(contentsOfFile: Self.golden + file, encoding: .utf8)))
    }

    @Test(arguments: [["--version"], ["run", "--version"], ["tail", "--bogus", "--version"], ["help", "--version"],
                      ["hit-test", "L", "1", "2", "--version"]])
    func versionIsPrintedWhateverElseTheLineHolds(_ arguments: [String]) throws {
        let result = try Gestured.run(arguments)
        #expect(result.status == 0)
        #expect(result.stdout == "0.1.0\n")
    }

    static let recording = "config/recordings/one-finger-taps.evemu"

    /// Status 64 (EX_USAGE) and the first line of stderr, as argument-parser answered (the
    /// value errors now also say what the option takes).
    static let usageErrors: [([String], String)] = [
        (["--bogus"], "Error: Unknown option '--bogus'"),
        (["-v"], "Error: Unknown option '-v'"),
        (["bogus"], "Error: Unexpected argument 'bogus'"),
        ([""], "Error: Unexpected argument ''"),
        (["", "run"], "Error: 2 unexpected arguments: '', 'run'"),
        (["--", "run"], "Error: Unexpected argument 'run'"),
        (["run", "extra"], "Error: Unexpected argument 'extra'"),
        (["run", "--sock", "x"], "Error: Unknown option '--sock'. Did you mean '--socket'?"),
        (["run", "--config"], "Error: Missing value for '--config <config>'"),
        (["run", "--config="], "Error: Missing value for '--config <config>'"),
        (["run", "--socket", "--stdout"], "Error: Missing value for '--socket <path>'"),
        (["run", "--stdout=yes"], "Error: The option '--stdout' does not take any value, but 'yes' was specified."),
        (["run", "--socket", ""], "Error: --socket is empty; name the socket file, such as /run/gestured/gestured.sock"),
        (["record", "-o"], "Error: Missing value for '-o <output>'"),
        (["tail", "--count", "x"], "Error: The value 'x' is invalid for '--count <count>'; use a whole number"),
        (["tail", "--count", "99999999999999999999"],
         "Error: The value '99999999999999999999' is invalid for '--count <count>'; use a whole number"),
        (["tail", "--count=0"], "Error: --count is 0; use a number of events of 1 or more"),
        (["check-config"], "Error: Missing expected argument '<file>'"),
        (["check-config", "a", "b"], "Error: Unexpected argument 'b'"),
        (["replay", recording], "Error: Missing expected argument '--config <config>'"),
        (["replay", "--config", "config/lobby.json5"], "Error: give the RECORDING to replay, or --screen ID=RECORDING for each screen"),
        (["replay", "--config", "config/lobby.json5", "--wait-clients", "2", recording], "Error: --wait-clients needs --socket PATH"),
        (["replay", "--config", "config/lobby.json5", "--socket", "/tmp/x.sock", "--wait-clients", "1001", recording],
         "Error: --wait-clients is 1001; use a number of clients from 0 to 1000"),
        (["replay", "--config", "config/lobby.json5", "--queue-limit", "100", recording],
         "Error: --queue-limit must be at least 4096 bytes"),
        (["replay", "--config", "config/lobby.json5", "--queue-limit", "2000000000", recording],
         "Error: --queue-limit is 2000000000; use at most 1073741824 bytes (1 GiB)"),
        (["replay", "--config", "config/lobby.json5", "--queue-limit", "x", recording],
         "Error: The value 'x' is invalid for '--queue-limit'; use a whole number"),
        (["hit-test", "config/scenario-a.json5", "1", "2", "3"], "Error: unexpected '3' after X Y"),
        (["help", "-x"], "Error: Unknown option '-x'"),
    ]

    @Test(arguments: usageErrors)
    func usageErrorsExit64NamingTheOption(_ arguments: [String], _ firstLine: String) throws {
        let result = try Gestured.run(arguments)
        #expect(result.status == 64)
        #expect(result.stdout == "")
        #expect(result.stderr.split(separator: "\n").first.map(String.init) == firstLine, "\(result.stderr)")
    }

    @Test func aUsageErrorShowsTheOptionsHelpAndTheUsage() throws {
        let result = try Gestured.run(["tail", "--count"])
        #expect(result.stderr == """
            Error: Missing value for '--count <count>'
            Help:  --count <count>  Exit after this many events.
            Usage: gestured tail [--socket <path>] [--kinds <kinds> ...] [--views <views> ...] [--recognizers <recognizers> ...] [--screen <id> ...] [--trace] [--count <count>]
              See 'gestured tail --help' for more information.

            """)
    }

    /// What argument-parser got wrong, and this parser reads as meant.
    @Test func doubleDashEndsTheOptionsOfHitTest() throws {
        let result = try Gestured.run(["hit-test", "config/scenario-a.json5", "--", "-5", "-5"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == "RootView hitTest\nRootView point(inside): false\n=> none\n")
    }

    @Test func aFailedCommandExits1WithoutUsage() throws {
        let result = try Gestured.run(["check-config", "no/such/file.json5"])
        #expect(result.status == 1)
        #expect(!result.stderr.contains("Usage:"))
    }

    /// Words the shell can pass that are not UTF-8, or empty, or repeated: an answer and a
    /// status, never a crash.
    static let hostile: [([[UInt8]], Int32)] = [
        ([[0xFF]], 64),
        ([[0x2D, 0x2D, 0xFF, 0xFE]], 64),
        ([Array("run".utf8), [0xC3]], 64),
        ([Array("tail".utf8), Array("--count".utf8), [0xFF]], 64),
        ([Array("check-config".utf8), [0xFF, 0x2F, 0x78]], 1),
        ([Array("hit-test".utf8), Array((Gestured.packageRoot + "/config/scenario-a.json5").utf8), [0xFF], [0x31]], 64),
        ([Array("run".utf8), Array("--socket".utf8), Array(repeating: 0x61, count: 100_000)], 64),
        ([Array("tail".utf8)] + Array(repeating: Array("--kinds=a".utf8), count: 10_000) + [Array("--bogus".utf8)], 64),
        ([[], [], []], 64),
        ([Array("--".utf8), Array("--".utf8)], 64),
        ([Array("check-config".utf8), Array("--".utf8), Array("--".utf8)], 1),
    ]

    @Test(arguments: hostile)
    func hostileWordsGetAnAnswer(_ arguments: [[UInt8]], _ status: Int32) throws {
        let result = try RawArguments.run(arguments)
        #expect(result.status == status, "\(result.stderr)")
        #expect(!result.stderr.isEmpty)
    }
}
