#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
@testable import GestureServer
import GestureSystem
import SystemPackage
import Testing

@Suite("Sockets, credentials and the service manager")
struct SocketTests {
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/gestured-unit-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    @Test func theSocketFileGetsMode0660AndAStaleOneIsReplaced() throws {
        let directory = Self.temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/test.sock"
        let first = try ListeningSocket.bind(path: path, group: "nogroup")
        var status = stat()
        stat(path, &status)
        #expect(status.st_mode & 0o777 == 0o660)
        #expect(status.st_gid == 65534)
        #expect(throws: SocketSetupError.inUse(path: path)) { try ListeningSocket.bind(path: path) }
        // Closing the descriptor without removing the file is what a crash leaves behind.
        first.descriptor.closeReleasing()
        let second = try ListeningSocket.bind(path: path)
        #expect(ListeningSocket.isAccepting(try UnixSocketAddress(path)))
        second.close()
        #expect(access(path, F_OK) != 0)
        #expect(throws: SocketSetupError.unknownGroup("no-such-group-here")) {
            try ListeningSocket.bind(path: path, group: "no-such-group-here")
        }
        #expect(throws: SocketSetupError.noDirectory(path: directory + "/missing/x.sock")) {
            try ListeningSocket.bind(path: directory + "/missing/x.sock")
        }
    }

    @Test func anInheritedSocketMustBeAListeningStreamSocket() throws {
        let datagram = try UnixSocket.open(.datagram)
        defer { datagram.closeReleasing() }
        #expect(throws: SocketSetupError.unusableInherited(fd: datagram.rawValue, reason: "is not a stream socket")) {
            try ListeningSocket.adopt(datagram)
        }
        let activation = SocketActivation.takeDescriptors { name in
            ["LISTEN_PID": "\(getpid())", "LISTEN_FDS": "2"][name]
        }
        #expect(activation.map(\.rawValue) == [3, 4])
        #expect(SocketActivation.takeDescriptors { ["LISTEN_PID": "1", "LISTEN_FDS": "1"][$0] }.isEmpty)
    }

    @Test func peerCredentialsAndTheControlPolicy() throws {
        let (one, other) = try UnixSocket.pair()
        defer { one.closeReleasing(); other.closeReleasing() }
        let peer = try PeerCredentials.of(one)
        #expect(peer.pid == getpid() && peer.uid == getuid() && peer.gid == getgid())

        let policy = ControlPolicy(socket: SocketConfig(controlGroup: "users", controlUsers: ["nobody", "no-such-user"]),
                                   ownUID: 4242)
        #expect(policy.unresolved == ["user \"no-such-user\""])
        #expect(policy.allows(PeerCredentials(pid: 1, uid: 0, gid: 0, groups: [])))              // root
        #expect(policy.allows(PeerCredentials(pid: 1, uid: 4242, gid: 4242, groups: [])))        // the daemon's user
        #expect(policy.allows(PeerCredentials(pid: 1, uid: 65534, gid: 65534, groups: [])))      // controlUsers
        #expect(policy.allows(PeerCredentials(pid: 1, uid: 5000, gid: 100, groups: [])))         // primary group
        #expect(policy.allows(PeerCredentials(pid: 1, uid: 5000, gid: 5000, groups: [7, 100]))) // supplementary
        #expect(!policy.allows(PeerCredentials(pid: 1, uid: 5000, gid: 5000, groups: [7])))
        #expect(!ControlPolicy(socket: SocketConfig(), ownUID: 4242).allows(PeerCredentials(pid: 1, uid: 5000, gid: 100)))
    }

    @Test func sdNotifyDatagramsReachAnAbstractSocket() throws {
        let name = "@gestured-test-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        let receiverSocket = try UnixSocket.open(.datagram)
        defer { receiverSocket.closeReleasing() }
        try receiverSocket.bind(to: UnixSocketAddress(name))
        let receiver = receiverSocket.rawValue
        let notifier = ServiceNotifier { ["NOTIFY_SOCKET": name, "WATCHDOG_USEC": "3000000"][$0] }
        #expect(notifier.isActive && notifier.watchdogMicroseconds == 3_000_000)
        notifier.ready(status: "serving")
        notifier.stopping(status: "bye")
        var buffer = [UInt8](repeating: 0, count: 512)
        var messages: [String] = []
        for _ in 0..<2 {
            var poller = pollfd(fd: receiver, events: Int16(POLLIN), revents: 0)
            #expect(poll(&poller, 1, 5000) == 1)
            let count = recv(receiver, &buffer, buffer.count, 0)
            messages.append(String(decoding: buffer[0..<max(count, 0)], as: UTF8.self))
        }
        #expect(messages == ["READY=1\nSTATUS=serving", "STOPPING=1\nSTATUS=bye"])

        #expect(!ServiceNotifier { _ in nil }.isActive)
        let otherPID = ServiceNotifier { ["NOTIFY_SOCKET": name, "WATCHDOG_USEC": "1000", "WATCHDOG_PID": "1"][$0] }
        #expect(otherPID.watchdogMicroseconds == nil)
    }

    @Test func logLinesCarryJournalPrioritiesAndQuotedValues() {
        #expect(JournalLogHandler.priority(.error) == 3)
        #expect(JournalLogHandler.priority(.info) == 6)
        #expect(JournalLogHandler.priority(.debug) == 7)
        #expect(JournalLogHandler.quoted("plain") == "plain")
        #expect(JournalLogHandler.quoted("two words") == "\"two words\"")
        #expect(JournalLogHandler.quoted("say \"hi\"") == "\"say \\\"hi\\\"\"")
    }
}
