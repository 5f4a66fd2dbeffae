#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Starting, reloading and stopping the daemon (SPEC 9, 10): the socket file, SIGHUP and
/// `reload`, SIGTERM, and what systemd sees.
@Suite("Daemon life cycle")
struct LifecycleTests {
    /// One finger down for ten seconds: long enough to stop the daemon while it is down.
    static let heldTouch = SyntheticRecording.evemu([
        (0.001, [.down(slot: 0, id: 1, x: 100, y: 100)]),
        (10.0, [.move(slot: 0, x: 102, y: 100)]),
        (10.05, [.up(slot: 0)]),
    ])

    @Test func sigtermCancelsActiveTouchesTellsClientsAndExitsZero() throws {
        let daemon = try DaemonFixture(recording: Self.heldTouch, options: ["--realtime"])
        let client = try daemon.subscriber(#""kinds":["touches"]"#)
        let began = try parse(client.readLine() ?? "{}")
        #expect(began["phase"] as? String == "began")
        daemon.process.signal(SIGTERM)
        let rest = try client.readToEnd().map(parse)
        #expect(rest.map { $0["type"] as? String } == ["touches", "bye"])
        #expect(rest.first?["phase"] as? String == "cancelled")
        #expect(rest.last?["reason"] as? String == "stopping")
        #expect(daemon.process.waitForExit() == 0)
        #expect(daemon.notify.waitFor(line: "STOPPING=1") != nil)
        // The socket file is gone with the daemon that made it.
        #expect(access(daemon.socketPath, F_OK) != 0)
    }

    @Test func sighupAndReloadKeepTheRunningConfigurationWhenTheNewOneIsInvalid() throws {
        let daemon = try DaemonFixture(recording: ProtocolTests.mixedRecording, waitClients: 2)
        let watcher = try daemon.subscriber(#""kinds":["layout"]"#)
        let controller = try daemon.connect()
        _ = controller.readLine()

        // An invalid configuration: SIGHUP logs it, `reload` replies with every problem.
        daemon.directory.write("gestured.json5", "{ screen: { width: 800, height: 480 }, layout: { id: \"x\", frame: [0, 0, 10] } }")
        daemon.process.signal(SIGHUP)
        #expect(daemon.notify.waitFor(line: "RELOADING=1") != nil)
        #expect(daemon.notify.waitFor(line: "READY=1") != nil)
        #expect(daemon.process.waitForStderr(containing: "the new configuration is invalid; the running one is kept"))
        let refused = try controller.request(#"{"type":"reload","id":1}"#)
        let error = refused["error"] as? [String: Any]
        #expect(error?["code"] as? String == "invalid_config")
        #expect((error?["problems"] as? [[String: Any]])?.first?["path"] as? String == "layout.frame", "\(refused)")
        let unchanged = try controller.request(#"{"type":"hitTest","id":2,"x":100,"y":100}"#)
        #expect(unchanged["view"] as? String == "left")

        // A valid one with another layout is applied and announced.
        daemon.directory.write("gestured.json5", """
            { screen: { width: 800, height: 480 }, layout: \(TestLayouts.replacement) }
            """)
        let reloaded = try controller.request(#"{"type":"reload","id":3}"#)
        #expect(reloaded["ok"] as? Bool == true && reloaded["layoutChanged"] as? Bool == true && reloaded["revision"] as? Int == 2,
                "\(reloaded)")
        let announced = try parse(watcher.readLine() ?? "{}")
        #expect(announced["type"] as? String == "layout" && announced["revision"] as? Int == 2)
        let changed = try controller.request(#"{"type":"hitTest","id":4,"x":100,"y":100}"#)
        #expect(changed["view"] as? String == "poster")

        daemon.process.signal(SIGTERM)
        #expect(daemon.process.waitForExit() == 0)
    }

    @Test func aStaleSocketFileIsReplacedAndALiveOneIsNot() throws {
        let daemon = try DaemonFixture(recording: ProtocolTests.mixedRecording, start: false)
        // What a crashed daemon leaves: a socket file nobody accepts on.
        let stale = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in daemon.socketPath.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(stale, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        #expect(bound == 0)
        close(stale)
        #expect(access(daemon.socketPath, F_OK) == 0)

        try daemon.start()
        let client = try daemon.connect()
        #expect(type(of: client.readLine() ?? "") == "hello")

        // A second daemon on the same path refuses to steal it, and says why.
        let second = try ChildProcess(daemon.arguments())
        #expect(second.waitForExit() == 1)
        #expect(second.stderrText.contains("another gestured is listening on this socket"), "\(second.stderrText)")
        let still = try daemon.connect()
        #expect(type(of: still.readLine() ?? "") == "hello")

        // Something that is not a socket is never removed.
        let directory = Paths.temporaryDirectory()
        defer { directory.remove() }
        let file = directory.write("not-a-socket", "precious")
        let third = try ChildProcess([Paths.gestured, "replay", "--config", daemon.configPath, "--socket", file,
                                      daemon.directory.file("recording.evemu")])
        #expect(third.waitForExit() == 1)
        #expect(third.stderrText.contains("the file exists and is not a socket"))
        #expect((try? String(contentsOfFile: file, encoding: .utf8)) == "precious")

        daemon.process.signal(SIGTERM)
        #expect(daemon.process.waitForExit() == 0)
    }

    @Test func theServiceManagerHearsReadyWatchdogReloadingAndStopping() throws {
        let daemon = try DaemonFixture(recording: Self.heldTouch, start: false)
        // A 200 ms watchdog: the daemon must ping every 100 ms from its loop.
        try daemon.start(options: ["--realtime"], environment: ["WATCHDOG_USEC": "200000"])
        let ready = daemon.notify.messages.first { $0.contains("READY=1") } ?? ""
        #expect(ready.contains("STATUS=waiting for 1 subscriber(s) on \(daemon.socketPath)"), "\(ready)")
        for _ in 0..<3 { #expect(daemon.notify.waitFor(line: "WATCHDOG=1", timeout: 5) != nil) }

        daemon.process.signal(SIGHUP)
        let reloading = daemon.notify.waitFor(line: "RELOADING=1") ?? ""
        #expect(reloading.split(separator: "\n").contains { $0.hasPrefix("MONOTONIC_USEC=") && Int64($0.dropFirst(15)) ?? 0 > 0 })
        #expect(daemon.notify.waitFor(line: "READY=1") != nil)

        daemon.process.signal(SIGTERM)
        #expect(daemon.notify.waitFor(line: "STOPPING=1") != nil)
        #expect(daemon.process.waitForExit() == 0)
    }

    @Test func noWatchdogPingsWhenSystemdAskedForNone() throws {
        let daemon = try DaemonFixture(recording: Self.heldTouch)
        daemon.process.signal(SIGTERM)
        #expect(daemon.notify.waitFor(line: "STOPPING=1") != nil)
        #expect(daemon.process.waitForExit() == 0)
        #expect(!daemon.notify.messages.contains { $0.contains("WATCHDOG=1") })
    }

    @Test(.enabled(if: access("/usr/bin/systemd-socket-activate", X_OK) == 0, "needs Debian's systemd package"))
    func socketActivationUsesThePassedSocket() throws {
        let daemon = try DaemonFixture(recording: ProtocolTests.mixedRecording, start: false)
        let activator = try ChildProcess(["/usr/bin/systemd-socket-activate", "-l", daemon.socketPath,
                                          "-E", "NOTIFY_SOCKET=\(daemon.notify.path)"]
                                             + daemon.arguments().map { $0 == daemon.socketPath ? "/nonexistent/ignored.sock" : $0 })
        #expect(activator.waitForStderr(containing: "Listening on"), "\(activator.stderrText)")
        // The first connection starts gestured, which takes over the listening socket.
        let client = try daemon.connect()
        #expect(type(of: client.readLine() ?? "") == "hello")
        #expect(daemon.notify.waitFor(line: "READY=1") != nil)
        let status = try client.request(#"{"type":"status","id":1}"#)
        #expect(status["socket"] as? String == daemon.socketPath)
        #expect(try client.request(#"{"type":"subscribe","id":2}"#)["ok"] as? Bool == true)
        let stream = try client.readToEnd()
        #expect(events(in: stream).count > 10)
        #expect(activator.waitForExit() == 0)
        #expect(activator.stderrText.contains("using the socket passed by systemd"))
        // The socket belongs to whoever passed it: gestured leaves the file alone.
        #expect(access(daemon.socketPath, F_OK) == 0)
    }

    /// A configuration error under socket activation (docs/service.md, "Configuration errors"):
    /// every client that connects while the daemon holds the socket is told why, the journal
    /// line says what to do, and the exit status is 78, which the unit does not restart on.
    @Test(.enabled(if: access("/usr/bin/systemd-socket-activate", X_OK) == 0, "needs Debian's systemd package"))
    func aConfigurationErrorTellsTheClientsAndExits78() throws {
        let directory = Paths.temporaryDirectory()
        defer { directory.remove() }
        let config = directory.write("broken.json5", """
            { screen: { width: -1920, height: 1080 }, layout: { id: "root", frame: [0, 0, 1920, 1080] } }
            """)
        let socketPath = directory.file("gestured.sock")
        let activator = try ChildProcess(["/usr/bin/systemd-socket-activate", "-l", socketPath,
                                          Paths.gestured, "run", "--config", config, "--socket", "/nonexistent/ignored.sock"])
        #expect(activator.waitForStderr(containing: "Listening on"), "\(activator.stderrText)")
        // The first connection starts gestured; it and a second one during the hold are told.
        var answers: [String] = []
        for _ in 0..<2 {
            let client = try TestClient(path: socketPath)
            answers.append(client.readLine() ?? "")
            #expect(try client.readToEnd().isEmpty)
        }
        for answer in answers {
            let bye = try parse(answer)
            #expect(bye["type"] as? String == "bye")
            #expect(bye["reason"] as? String == "configuration")
            #expect((bye["message"] as? String ?? "").contains("screen.width"), "\(answer)")
        }
        #expect(activator.waitForExit(timeout: 20) == 78)
        let stderr = activator.stderrText
        #expect(stderr.contains("screen.width"), "\(stderr)")
        #expect(stderr.contains("not started: the configuration has errors"), "\(stderr)")
        #expect(stderr.contains("gestured check-config \(config)"), "\(stderr)")
        // The socket is the activator's (systemd's): gestured leaves the file for the next start.
        #expect(access(socketPath, F_OK) == 0)
    }

    @Test func aConfigurationErrorWithoutSystemdExits78AtOnce() throws {
        let directory = Paths.temporaryDirectory()
        defer { directory.remove() }
        let config = directory.write("broken.json5", "{ screen: { width: 0, height: 1080 } ")
        let daemon = try ChildProcess([Paths.gestured, "run", "--config", config, "--socket", directory.file("g.sock")])
        #expect(daemon.waitForExit(timeout: 20) == 78)
        #expect(daemon.stderrText.contains("\(config):"), "\(daemon.stderrText)")
        #expect(access(directory.file("g.sock"), F_OK) != 0)
    }

    @Test(.enabled(if: access("/usr/bin/systemd-analyze", X_OK) == 0, "needs Debian's systemd package"))
    func systemdAnalyzeAcceptsTheUnits() throws {
        let directory = Paths.temporaryDirectory()
        defer { directory.remove() }
        // verify checks that ExecStart= exists: point it at the binary under test.
        let service = try String(contentsOfFile: Paths.packageRoot + "/systemd/gestured.service", encoding: .utf8)
        #expect(service.contains("ExecStart=/usr/bin/gestured run"))
        let unit = directory.write("gestured.service", service.replacingOccurrences(of: "/usr/bin/gestured", with: Paths.gestured))
        let socketUnit = directory.write("gestured.socket",
                                         try String(contentsOfFile: Paths.packageRoot + "/systemd/gestured.socket", encoding: .utf8))
        // --man=no: Documentation=man:gestured(1) names the page the package installs, not there on a build host.
        let verify = try ChildProcess(["/usr/bin/systemd-analyze", "verify", "--man=no", unit, socketUnit])
        #expect(verify.waitForExit(timeout: 30) == 0)
        #expect(verify.stderrText.isEmpty, "\(verify.stderrText)")

        // The check can fail: a misspelt key is reported.
        let broken = directory.write("broken.service", service.replacingOccurrences(of: "/usr/bin/gestured", with: Paths.gestured)
            .replacingOccurrences(of: "WatchdogSec=", with: "WatchdogSecs="))
        let refused = try ChildProcess(["/usr/bin/systemd-analyze", "verify", "--man=no", broken])
        refused.waitForExit(timeout: 30)
        #expect(refused.stderrText.contains("Unknown key 'WatchdogSecs'"), "\(refused.stderrText)")
    }
}
