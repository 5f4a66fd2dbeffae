#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import Testing
@testable import WebBridge

/// What SIGHUP changes in a running bridge (docs/web.md § Signals), said without the token.
struct BridgeReloadTests {
    static let running = BridgeOptions(socketPath: "/run/gestured/gestured.sock",
                                       web: WebConfig(origins: [OriginPattern("http://localhost:*")!], token: "old-token-0123456789"),
                                       version: "test")

    @Test func nothingChanged() {
        let reload = BridgeReload(from: Self.running, web: Self.running.web, socketPath: Self.running.socketPath)
        #expect(reload.isEmpty)
    }

    @Test func originsTokenAndSocketAreAppliedAndTheTokenIsNeverNamed() {
        var web = Self.running.web
        web.origins.append(OriginPattern("https://kiosk.example")!)
        web.token = "new-token-0123456789"
        let reload = BridgeReload(from: Self.running, web: web, socketPath: "/tmp/other.sock")
        #expect(reload.applied == [
            "web.origins: [http://localhost:*] -> [http://localhost:*, https://kiosk.example]",
            "web.token: changed",
            "socket.path: /run/gestured/gestured.sock -> /tmp/other.sock",
        ])
        #expect(reload.needsRestart.isEmpty)
        #expect(!reload.applied.joined().contains("token-0123456789"))
    }

    @Test func aTokenSetOrRemoved() {
        var web = Self.running.web
        web.token = nil
        #expect(BridgeReload(from: Self.running, web: web, socketPath: Self.running.socketPath).applied
            == ["web.token: removed; every page may change the layout"])
        var none = Self.running
        none.web.token = nil
        #expect(BridgeReload(from: none, web: Self.running.web, socketPath: Self.running.socketPath).applied
            == ["web.token: set; changes now need it"])
    }

    @Test func aNewListenAddressNeedsARestart() {
        var web = Self.running.web
        web.listen = ListenAddress(host: "127.0.0.1", port: 7301)
        let reload = BridgeReload(from: Self.running, web: web, socketPath: Self.running.socketPath)
        #expect(reload.applied.isEmpty)
        #expect(reload.needsRestart == ["web.listen: 127.0.0.1:7300 -> 127.0.0.1:7301; the bridge listens on 127.0.0.1:7300 "
            + "until it is restarted"])
    }
}

/// What each signal means to gestured-web (docs/web.md § Signals).
struct BridgeSignalsTests {
    @Test func stopReloadAndIgnore() {
        #expect(BridgeSignals.meaning(of: SIGTERM) == .stop)
        #expect(BridgeSignals.meaning(of: SIGINT) == .stop)
        #expect(BridgeSignals.meaning(of: SIGHUP) == .reload)
        for signal in BridgeSignals.waited where ![SIGTERM, SIGINT, SIGHUP].contains(signal) {
            #expect(BridgeSignals.meaning(of: signal) == .ignore, "\(BridgeSignals.name(of: signal))")
        }
    }

    /// Every signal whose default action ends the process is waited for, except the faults,
    /// the crash reports, SIGPIPE (ignored) and SIGPROF (Swift's crash handler needs it open).
    @Test func everyTerminatingSignalHasAMeaning() {
        let kept: Set<Int32> = [SIGSEGV, SIGBUS, SIGILL, SIGFPE, SIGTRAP, SIGSYS, SIGABRT, SIGQUIT, SIGPIPE, SIGPROF, SIGKILL]
        let notTerminating: Set<Int32> = [SIGCHLD, SIGCONT, SIGSTOP, SIGTSTP, SIGTTIN, SIGTTOU, SIGURG, SIGWINCH]
        let glibcOwn: Set<Int32> = [32, 33]
        for signal in Int32(1)...BridgeSignals.realtimeSignals.upperBound
            where !kept.contains(signal) && !notTerminating.contains(signal) && !glibcOwn.contains(signal) {
            #expect(BridgeSignals.waited.contains(signal), "\(BridgeSignals.name(of: signal)) is not handled")
        }
        for signal in kept { #expect(!BridgeSignals.waited.contains(signal), "\(BridgeSignals.name(of: signal))") }
    }

    @Test func names() {
        #expect(BridgeSignals.name(of: SIGHUP) == "SIGHUP")
        #expect(BridgeSignals.name(of: SIGUSR1) == "SIGUSR1")
        #expect(BridgeSignals.name(of: BridgeSignals.realtimeSignals.lowerBound) == "SIGRTMIN")
        #expect(BridgeSignals.name(of: BridgeSignals.realtimeSignals.lowerBound + 3) == "SIGRTMIN+3")
        #expect(BridgeSignals.name(of: BridgeSignals.realtimeSignals.upperBound - 1) == "SIGRTMAX-1")
        #expect(BridgeSignals.name(of: BridgeSignals.realtimeSignals.upperBound) == "SIGRTMAX")
    }
}
