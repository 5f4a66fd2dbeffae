#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `gestured run` as systemd starts it, on a host with no touchscreen (SPEC 10, 11): it must
/// not crash, must say READY=1 once its socket listens (STATUS says it waits for the device;
/// docs/decisions.md, *Service*), serve clients, reload, feed the watchdog and stop cleanly.
/// The device is a path in the test's directory that never appears, so the test behaves the
/// same on a machine that has input devices. Live input itself is covered by
/// GestureRuntimeTests (pipes) and the kernel tests (uinput in a VM).
@Suite("gestured run without a device")
struct RunTests {
    final class Daemon {
        let directory = Paths.temporaryDirectory()
        let socketPath: String
        let configPath: String
        let devicePath: String
        let notify: NotifyListener

        init(socket: String = "") throws {
            socketPath = directory.file("gestured.sock")
            configPath = directory.write("gestured.json5", TestLayouts.configuration(socket: socket))
            devicePath = directory.file("touchscreen")
            notify = try NotifyListener(path: directory.file("notify"))
        }

        deinit { directory.remove() }

        func arguments(socket: String? = nil) -> [String] {
            [Paths.gestured, "run", "--config", configPath, "--device", devicePath, "--socket", socket ?? socketPath]
        }

        func start(environment: [String: String] = [:]) throws -> ChildProcess {
            try ChildProcess(arguments(), environment: ["NOTIFY_SOCKET": notify.path].merging(environment) { _, new in new })
        }
    }

    @Test func withNoDeviceItSaysReadyWaitsForTheTouchscreenAndServesClients() throws {
        let daemon = try Daemon()
        let process = try daemon.start(environment: ["WATCHDOG_USEC": "200000"])
        let ready = daemon.notify.waitFor(line: "READY=1")
        #expect(ready == "READY=1\nSTATUS=waiting for the touchscreen (\(daemon.devicePath)); 0 subscribers on \(daemon.socketPath)",
                "\(process.stderrText)")
        // The runner's lines go through the journal handler like every other log line.
        #expect(process.waitForStderr(containing: "waiting for the touchscreen to appear selector=\(daemon.devicePath)"),
                "\(process.stderrText)")
        // The watchdog is fed from the loop that serves input (200 ms asked: a ping every 100 ms).
        for _ in 0..<3 { #expect(daemon.notify.waitFor(line: "WATCHDOG=1", timeout: 5) != nil) }

        let client = try TestClient(path: daemon.socketPath)
        #expect(type(of: client.readLine() ?? "") == "hello")
        let status = try client.request(#"{"type":"status","id":1}"#)
        let input = status["input"] as? [String: Any]
        #expect(input?["source"] as? String == "device")
        #expect(input?["device"] is NSNull, "\(status)")
        #expect((status["layout"] as? [String: Any])?["revision"] as? Int == 1)
        let hit = try client.request(#"{"type":"hitTest","id":2,"x":600,"y":100}"#)
        #expect(hit["view"] as? String == "rightButton")
        #expect(try client.request(#"{"type":"subscribe","id":3}"#)["ok"] as? Bool == true)
        #expect(daemon.notify.waitFor { $0.hasPrefix("STATUS=") && $0.contains("; 1 subscriber on ") } != nil)

        // SIGHUP: RELOADING=1, then READY=1 again; a changed layout is announced.
        daemon.directory.write("gestured.json5", """
            { screen: { width: 800, height: 480 }, layout: \(TestLayouts.replacement) }
            """)
        process.signal(SIGHUP)
        #expect(daemon.notify.waitFor(line: "RELOADING=1") != nil)
        #expect(daemon.notify.waitFor(line: "READY=1") != nil)
        let layout = try parse(client.readLine() ?? "{}")
        #expect(layout["type"] as? String == "layout" && layout["revision"] as? Int == 2, "\(layout)")

        process.signal(SIGTERM)
        let rest = try client.readToEnd().map(parse)
        #expect(rest.map { $0["type"] as? String } == ["bye"])
        #expect(rest.last?["reason"] as? String == "stopping")
        #expect(daemon.notify.waitFor(line: "STOPPING=1") != nil)
        #expect(process.waitForExit() == 0)
        #expect(access(daemon.socketPath, F_OK) != 0)
    }

    @Test func theConfiguredSocketGroupMustExistButATrialSocketDoesNotNeedIt() throws {
        let daemon = try Daemon()
        // The configured socket (the installation's): its group is required.
        let configured = daemon.directory.file("configured.sock")
        daemon.directory.write("gestured.json5", """
            { screen: { width: 800, height: 480 }, socket: { path: "\(configured)", group: "no-such-group-for-gestured" },
              layout: \(TestLayouts.main) }
            """)
        let strict = try ChildProcess([Paths.gestured, "run", "--config", daemon.configPath, "--device", daemon.devicePath])
        #expect(strict.waitForExit() == 1)
        #expect(strict.stderrText.contains(#"socket.group "no-such-group-for-gestured" is not a group on this system"#),
                "\(strict.stderrText)")
        #expect(access(configured, F_OK) != 0)

        // --socket by hand: a warning, and the daemon runs.
        let trial = try daemon.start()
        #expect(daemon.notify.waitFor(line: "READY=1") != nil, "\(trial.stderrText)")
        #expect(trial.waitForStderr(containing: "socket.group is not a group on this system"))
        trial.signal(SIGTERM)
        #expect(trial.waitForExit() == 0)
    }

    @Test(.enabled(if: access("/usr/bin/systemd-socket-activate", X_OK) == 0, "needs Debian's systemd package"))
    func socketActivationServesThePassedSocketWithNoDevice() throws {
        let daemon = try Daemon()
        let activator = try ChildProcess(["/usr/bin/systemd-socket-activate", "-l", daemon.socketPath,
                                          "-E", "NOTIFY_SOCKET=\(daemon.notify.path)"]
                                             + daemon.arguments(socket: "/nonexistent/ignored.sock"))
        #expect(activator.waitForStderr(containing: "Listening on"), "\(activator.stderrText)")
        // The first connection starts gestured (in place of the activator), which takes the socket over.
        let client = try TestClient(path: daemon.socketPath)
        #expect(type(of: client.readLine() ?? "") == "hello")
        let ready = daemon.notify.waitFor(line: "READY=1") ?? ""
        #expect(ready.contains("waiting for the touchscreen"), "\(ready)")
        let status = try client.request(#"{"type":"status","id":1}"#)
        #expect(status["socket"] as? String == daemon.socketPath)
        #expect(activator.waitForStderr(containing: "using the socket passed by systemd"), "\(activator.stderrText)")

        activator.signal(SIGTERM)
        #expect(try client.readToEnd().map(type(of:)) == ["bye"])
        #expect(activator.waitForExit() == 0)
        // The socket belongs to whoever passed it: gestured leaves the file alone.
        #expect(access(daemon.socketPath, F_OK) == 0)
    }
}
