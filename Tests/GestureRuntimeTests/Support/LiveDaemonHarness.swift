#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureConfig
import GestureCore
import GestureRuntime
import GestureServer
import GestureSystem
import Logging
import Testing

/// A ``LiveDaemon`` on the test's own thread: pipe devices (``PipeProvider``), a real socket
/// in a temporary directory, real clients, a datagram socket standing in for systemd's
/// `NOTIFY_SOCKET`, and `--stdout` captured. The socket server runs on a ``ManualClock``. The
/// test drives the loop with ``drive(until:)``, which handles what is ready without waiting
/// (``EventLoop/runReady()``) until the clients' lines satisfy a condition or nothing is ready
/// any more: nothing sleeps, and no wait has a wall-clock limit. What a test makes ready (a
/// pipe device written, a request sent, a deadline already past on `CLOCK_MONOTONIC`) is ready
/// at once.
final class LiveDaemonHarness {
    let directory: String
    let socketPath: String
    let loop: EventLoop
    let provider: PipeProvider
    /// One provider per screen (several screens: ``init(configuration:screens:clock:)``).
    let providers: [PipeProvider]
    let daemon: LiveDaemon
    let notify: NotifyCollector
    let serverClock = ManualClock(now: 1_000_000)
    private let captured = CapturedOutput()
    private var clients: [LoopClient] = []

    /// - Parameters:
    ///   - configuration: the configuration file's text (JSON5).
    ///   - sources: the devices, handed out as ``PipeProvider`` does: the first at start.
    ///   - clock: the runner's "now" (cancellations on removal and stop are stamped with it).
    convenience init(configuration: String, sources: [PipeSource],
                     clock: Timestamp = Timestamp(microseconds: 5_000_000)) throws {
        try self.init(configuration: configuration, screens: [sources], clock: clock)
    }

    /// A daemon of several screens: `screens` gives each configured screen's devices, in order.
    init(configuration: String, screens: [[PipeSource]], clock: Timestamp = Timestamp(microseconds: 5_000_000)) throws {
        var template = Array("/tmp/gestured-live-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        socketPath = directory + "/gestured.sock"
        let configPath = directory + "/gestured.json5"
        try configuration.write(toFile: configPath, atomically: true, encoding: .utf8)
        let loaded = try ConfigurationLoader.load(path: configPath)
        notify = try NotifyCollector(path: directory + "/notify")
        let notifyPath = notify.path
        let notifier = ServiceNotifier(environment: { $0 == "NOTIFY_SOCKET" ? notifyPath : nil })
        loop = try EventLoop()
        providers = screens.map { PipeProvider($0) }
        provider = providers[0]
        let listener = try ListeningSocket.bind(path: socketPath)
        let captured = captured
        let inputs = zip(loaded.screens, providers).map { LiveDaemon.ScreenInput(id: $0.id, provider: $1) }
        daemon = LiveDaemon(loop: loop, screens: inputs, configuration: loaded, listener: listener,
                            options: LiveDaemon.Options(server: EventServer.Options(version: "test")),
                            logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() }, notifier: notifier,
                            stdout: { captured.bytes += $0 }, clock: { clock }, serverClock: serverClock)
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// What `--stdout` wrote, as lines.
    var stdoutLines: [String] {
        String(decoding: captured.bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// A client that connected and read its `hello`.
    func connect() throws -> LoopClient {
        let client = try LoopClient(path: socketPath)
        clients.append(client)
        guard try drive(until: { !client.lines.isEmpty }), lineType(client.lines[0]) == "hello" else {
            throw TestFailure("no hello: \(client.lines)")
        }
        client.hello = client.lines.removeFirst()
        return client
    }

    /// A connected client that subscribed with `filters` (JSON members) and got the reply.
    func subscriber(_ filters: String = "") throws -> LoopClient {
        let client = try connect()
        let reply = try request(client, #"{"type":"subscribe","id":"sub""# + (filters.isEmpty ? "" : "," + filters) + "}")
        guard reply["ok"] as? Bool == true else { throw TestFailure("subscribe refused: \(reply)") }
        return client
    }

    /// Sends a request with an `id` and runs the loop until its answer arrives; the events
    /// before it stay in the client's ``LoopClient/lines``.
    func request(_ client: LoopClient, _ json: String) throws -> [String: Any] {
        let id = try #require(try parse(json)["id"].map { "\($0)" })
        client.send(json)
        func answerIndex() -> Int? {
            client.lines.firstIndex { line in
                guard let object = try? parse(line), let re = object["re"] else { return false }
                return "\(re)" == id
            }
        }
        guard try drive(until: { answerIndex() != nil }), let index = answerIndex() else {
            throw TestFailure("no answer to \(json); received \(client.lines)")
        }
        return try parse(client.lines.remove(at: index))
    }

    /// Runs what is ready and lets every client read, until `condition` holds or nothing is
    /// ready any more; false then. Bounded: 10,000 turns is far more than any test's traffic.
    @discardableResult
    func drive(until condition: () -> Bool) throws -> Bool {
        for _ in 0..<10_000 {
            let ready = try loop.runReady()
            for client in clients where !client.reachedEnd { client.receive() }
            if condition() { return true }
            // A layout being prepared on the worker thread comes back through the loop.
            if ready == 0, daemon.jobsOffLoop > 0 {
                try loop.runReady(waitingAtMost: 10_000)
                continue
            }
            if ready == 0 { return false }
        }
        return condition()
    }
}

/// `--stdout`'s bytes, kept by reference for the daemon's write closure.
final class CapturedOutput {
    var bytes: [UInt8] = []
}

/// A stand-in for systemd's notification socket. ``ServiceNotifier`` sends synchronously, so
/// what the daemon said is already queued here when the call that said it returns.
final class NotifyCollector {
    let path: String
    private let fd: Int32
    private(set) var messages: [String] = []

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0 else { throw TestFailure("bind \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// Every datagram received so far, after taking what is queued.
    func received() -> [String] {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = recv(fd, &buffer, buffer.count, 0)
            guard count > 0 else { break }
            messages.append(String(decoding: buffer[0..<count], as: UTF8.self))
        }
        return messages
    }
}

/// A real client of the daemon's socket, read only when the loop says it is readable.
final class LoopClient {
    let fd: Int32
    /// Closed already (a failed connect): deinit, which runs after a throw from init once every
    /// property is set, must not close the number again — by then perhaps another test's.
    private var closed = false
    /// Complete lines received and not yet taken.
    var lines: [String] = []
    /// The `hello` the server greeted it with (``LiveDaemonHarness/connect()``).
    var hello = ""
    /// True once the server closed the connection.
    private(set) var reachedEnd = false
    private var partial: [UInt8] = []

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard connected == 0 else {
            let error = errno
            close(fd)
            closed = true
            throw TestFailure("connect \(path): \(String(cString: strerror(error)))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { if !closed { close(fd) } }

    /// Sends one request line (small: the socket buffer takes it at once).
    func send(_ line: String) {
        let bytes = Array((line + "\n").utf8)
        let sent = bytes.withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        precondition(sent == bytes.count, "a request line did not fit in the socket buffer")
    }

    /// Reads everything available now.
    func receive() {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count > 0 {
                partial += chunk[0..<count]
            } else if count < 0 && errno == EINTR {
                continue
            } else {
                // End of stream, or an error other than "nothing more now".
                if count == 0 || errno != EAGAIN { reachedEnd = true }
                break
            }
        }
        while let newline = partial.firstIndex(of: 0x0A) {
            lines.append(String(decoding: partial[..<newline], as: UTF8.self))
            partial.removeSubrange(...newline)
        }
    }

    /// The received lines parsed, without taking them.
    func objects() throws -> [[String: Any]] { try lines.map(parse) }
}

/// A test's own error with a message.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A line of JSON as a dictionary.
func parse(_ line: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        throw TestFailure("not a JSON object: \(line)")
    }
    return object
}

/// The `type` of a line of JSON.
func lineType(_ line: String) -> String? {
    (try? parse(line))?["type"] as? String
}

