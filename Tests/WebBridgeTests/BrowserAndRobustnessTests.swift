#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureConfig
import Testing
@testable import WebBridge

/// The web bridge end to end (SPEC 13), driven by the Python scripts next to this file: real
/// gestured and gestured-web processes, a real headless Chromium (Debian's chromium and
/// chromium-driver, with python3-selenium; scripts/setup-deps.sh installs them) and raw
/// WebSocket clients that misbehave. Each script prints one "ok: …" line per check and exits 1
/// on the first failure, with the processes' logs.
@Suite(.serialized)
struct BrowserAndRobustnessTests {
    @Test func theExamplePageIsTheLayoutAndReceivesItsEvents() throws {
        var arguments = ["--gestured", Paths.binary("gestured"), "--bridge", Paths.binary("gestured-web"),
                         "--root", Paths.packageRoot]
        if let screenshot = ProcessInfo.processInfo.environment["GESTURED_WEB_SCREENSHOT"], !screenshot.isEmpty {
            arguments += ["--screenshot", screenshot]
        } else {
            arguments += ["--screenshot", "{workdir}/debug-overlay.png"]
        }
        let output = try Script.run("browser_test.py", arguments)
        for check in ["layout answers", "moving the help button", "after screen.set", "another origin gets 403", "without the token are refused",
                      "reconnected", "dispatched exactly the daemon's", "helpTap recognized", "touchUpInside",
                      "carouselPan began", "mapPinch began", "debug overlay",
                      "data-gestured-routing"] {
            #expect(output.contains(check), "missing check: \(check)")
        }
    }

    @Test func browsersThatVanishStallOrSendGarbageDisturbNobody() throws {
        let output = try Script.run("robustness_test.py", ["--gestured", Paths.binary("gestured"),
                                                           "--bridge", Paths.binary("gestured-web")])
        for check in ["never reads", "vanished", "garbage", "close frames", "too long", "still serves"] {
            #expect(output.contains(check), "missing check: \(check)")
        }
    }
}

/// Issue 25 end to end, each with the real gestured and gestured-web: the token gate against
/// every shape of the bypass class, memory under floods from pages that never read, and the
/// bridge's answer to every signal a service may be sent.
@Suite(.serialized)
struct BridgeRobustnessTests {
    @Test func aPageWithoutTheTokenCannotChangeTheDaemonWhateverTheShapeOfItsMessage() throws {
        let output = try Script.run("gate_test.py", ["--gestured", Paths.binary("gestured"),
                                                     "--bridge", Paths.binary("gestured-web")])
        for check in ["the daemon changed nothing", "the check above can fail"] {
            #expect(output.contains(check), "missing check: \(check)")
        }
    }

    /// Before issue 25 the first three floods grew a debug bridge by 58, 35 and 25 MB; after,
    /// every kind by 1 to 5 MB (docs/web.md § Memory under floods). The limit is what a page
    /// may hold (BridgeOptions.sessionMemoryBound, 6.2 MiB) with room for the allocator's slack.
    @Test func aPageThatNeverReadsCannotGrowTheBridgeWhateverItSends() throws {
        let output = try Script.run("flood_test.py", ["--gestured", Paths.binary("gestured"),
                                                      "--bridge", Paths.binary("gestured-web"), "--limit-mib", "16"])
        for check in ["binary messages:", "changes without the token:", "pings:", "text the gate cannot parse:",
                      "requests the daemon answers:", "kinds of flood: the bridge grew by"] {
            #expect(output.contains(check), "missing check: \(check)")
        }
    }

    /// prlimit is util-linux's, part of every Debian system.
    @Test func outOfDescriptorsTheBridgePausesAcceptingAndRecovers() throws {
        let output = try Script.run("descriptors_test.py", ["--gestured", Paths.binary("gestured"),
                                                            "--bridge", Paths.binary("gestured-web")])
        for check in ["accepting paused", "descriptors free again"] {
            #expect(output.contains(check), "missing check: \(check)")
        }
    }

    @Test func everySignalHasItsMeaning() throws {
        let output = try Script.run("signals_test.py", ["--gestured", Paths.binary("gestured"),
                                                        "--bridge", Paths.binary("gestured-web")])
        for check in ["signals with no meaning", "SIGHUP: the new origin", "SIGHUP with an invalid file",
                      "SIGHUP with a new web.listen", "a burst of", "SIGTERM: the page got close 1001",
                      "SIGINT: the page got close 1001"] {
            #expect(output.contains(check), "missing check: \(check)")
        }
    }
}

/// Runs a script of Tests/WebBridgeTests/web with Debian's python3 (python3-selenium is
/// Debian's) in a fresh work directory, and returns its output; a failing script fails the
/// test with everything it printed.
enum Script {
    static func run(_ name: String, _ arguments: [String]) throws -> String {
        let workdir = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: workdir) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: FileManager.default.isExecutableFile(atPath: "/usr/bin/python3")
                                    ? "/usr/bin/python3" : "/usr/bin/env")
        let script = Paths.packageRoot + "/Tests/WebBridgeTests/web/" + name
        let prefix = process.executableURL!.path == "/usr/bin/env" ? ["python3"] : []
        process.arguments = prefix + [script, "--workdir", workdir]
            + arguments.map { $0.replacingOccurrences(of: "{workdir}", with: workdir) }
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let output = String(decoding: data, as: UTF8.self)
        print(output)
        #expect(process.terminationStatus == 0, "\(name) failed:\n\(output)")
        return output
    }
}

/// Where the tests find things.
enum Paths {
    /// The package root: the nearest directory above this file with Package.swift.
    static let packageRoot: String = {
        var directory = String(#filePath)
        while let slash = directory.lastIndex(of: "/") {
            directory = String(directory[..<slash])
            if access(directory + "/Package.swift", F_OK) == 0 { return directory }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// A binary built next to this test bundle.
    static func binary(_ name: String) -> String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            let executable = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var directory = String(executable[..<executable.lastIndex(of: "/")!])
            while !directory.isEmpty {
                if access(directory + "/" + name, X_OK) == 0 { return directory + "/" + name }
                guard let slash = directory.lastIndex(of: "/") else { break }
                directory = String(directory[..<slash])
            }
        }
        return packageRoot + "/.build/debug/" + name
    }

    static func temporaryDirectory() -> String {
        var template = Array("/tmp/gestured-web-test-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }
}

/// The bridge's unit file, as systemd reads it.
struct ServiceUnitTests {
    @Test(.enabled(if: access("/usr/bin/systemd-analyze", X_OK) == 0, "needs Debian's systemd package"))
    func systemdAnalyzeAcceptsTheBridgeUnit() throws {
        let directory = Paths.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        // verify checks that ExecStart= exists: point it at the binary under test; the units
        // it names (gestured.socket, gestured.service) are verified beside it.
        let service = try String(contentsOfFile: Paths.packageRoot + "/systemd/gestured-web.service", encoding: .utf8)
        #expect(service.contains("ExecStart=/usr/bin/gestured-web --config"))
        let units = [
            ("gestured-web.service", service.replacingOccurrences(of: "/usr/bin/gestured-web", with: Paths.binary("gestured-web"))),
            ("gestured.service", try String(contentsOfFile: Paths.packageRoot + "/systemd/gestured.service", encoding: .utf8)
                .replacingOccurrences(of: "/usr/bin/gestured", with: Paths.binary("gestured"))),
            ("gestured.socket", try String(contentsOfFile: Paths.packageRoot + "/systemd/gestured.socket", encoding: .utf8)),
        ]
        var paths: [String] = []
        for (name, text) in units {
            let path = directory + "/" + name
            try text.write(toFile: path, atomically: true, encoding: .utf8)
            paths.append(path)
        }
        let (status, output) = try Self.run(["/usr/bin/systemd-analyze", "verify", "--man=no"] + paths)
        #expect(status == 0 && output.isEmpty, "\(output)")
        // The check can fail: a misspelt key is reported.
        try service.replacingOccurrences(of: "SupplementaryGroups=", with: "SupplementaryGroup=")
            .replacingOccurrences(of: "/usr/bin/gestured-web", with: Paths.binary("gestured-web"))
            .write(toFile: paths[0], atomically: true, encoding: .utf8)
        let (_, refused) = try Self.run(["/usr/bin/systemd-analyze", "verify", "--man=no"] + paths)
        #expect(refused.contains("Unknown key 'SupplementaryGroup'"), "\(refused)")
    }

    static func run(_ arguments: [String]) throws -> (Int32, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: data, as: UTF8.self))
    }
}

/// The unit's limits follow from the bridge's own (docs/limits.md § Web bridge): changing
/// `maxConnections` or a per-page bound without the unit fails here.
struct ServiceUnitLimitTests {
    static func value(_ key: String, in unit: String) -> String? {
        unit.split(separator: "\n").first { $0.hasPrefix(key + "=") }.map { String($0.dropFirst(key.count + 1)) }
    }

    static func bytes(_ text: String?) -> Int? {
        guard let text, let unit = text.last, let number = Int(text.dropLast()) else { return nil }
        switch unit {
        case "K": return number << 10
        case "M": return number << 20
        case "G": return number << 30
        default: return Int(text)
        }
    }

    @Test func memoryAndDescriptorsCoverEveryPageTheBridgeAllows() throws {
        let unit = try String(contentsOfFile: Paths.packageRoot + "/systemd/gestured-web.service", encoding: .utf8)
        let options = BridgeOptions(socketPath: "/run/gestured/gestured.sock", web: WebConfig(), version: "test")
        // The bridge itself and one message in the gate's hands: measured at about 60 MiB.
        let bound = options.maxConnections * (options.sessionMemoryBound + options.sessionKernelBound) + (60 << 20)
        let high = try #require(Self.bytes(Self.value("MemoryHigh", in: unit)))
        let max = try #require(Self.bytes(Self.value("MemoryMax", in: unit)))
        #expect(high >= bound, "MemoryHigh=\(high >> 20)M is below the bound of \(bound >> 20) MiB")
        #expect(high <= bound + bound / 4, "MemoryHigh=\(high >> 20)M is far above the bound of \(bound >> 20) MiB")
        #expect(max >= high + high / 5, "MemoryMax= leaves no margin above MemoryHigh=")
        let files = try #require(Self.value("LimitNOFILE", in: unit).flatMap { Int($0) })
        #expect(files >= 2 * options.maxConnections + 64, "LimitNOFILE=\(files) for \(options.maxConnections) pages")
        #expect(Self.value("Restart", in: unit) == "always")
        #expect(Self.value("ExecReload", in: unit)?.contains("kill -HUP") == true)
    }
}

/// The daemon must not grow by the bridge (issue 16): SwiftNIO is linked into gestured-web
/// only. Checked on the built binaries, by the module names Swift's symbols carry.
struct DaemonStaysSmallTests {
    @Test func onlyTheBridgeLinksSwiftNIO() throws {
        let marker = Data("NIOPosix".utf8)
        let bridge = try Data(contentsOf: URL(fileURLWithPath: Paths.binary("gestured-web")))
        let daemon = try Data(contentsOf: URL(fileURLWithPath: Paths.binary("gestured")))
        #expect(bridge.range(of: marker) != nil, "the check can fail: the bridge does link NIOPosix")
        #expect(daemon.range(of: marker) == nil, "gestured links SwiftNIO")
    }
}
