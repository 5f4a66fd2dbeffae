#if canImport(Glibc)
import Glibc
#endif
import Foundation

/// A real socket client of the daemon, with every read bounded by a deadline.
final class TestClient {
    let fd: Int32
    private var buffer: [UInt8] = []
    /// Events and other lines read while waiting for a reply.
    var stash: [String] = []
    private(set) var isClosed = false
    /// True once the server closed the connection.
    private(set) var reachedEnd = false

    init(path: String) throws {
        fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else {
            let error = errno
            // The object is whole, so its deinit runs after this throw: mark the descriptor
            // closed, or deinit would close its number again — by then perhaps another test's.
            close()
            throw TestFailure("connect \(path): \(String(cString: strerror(error)))")
        }
        _ = fcntl(fd, F_SETFL, fcntl(fd, F_GETFL) | O_NONBLOCK)
    }

    deinit { close() }

    func close() {
        guard !isClosed else { return }
        isClosed = true
        Glibc.close(fd)
    }

    /// Sends `text` plus a newline, waiting for room as long as the deadline allows; returns
    /// false when the server closed the connection.
    @discardableResult
    func send(_ text: String, newline: Bool = true, timeout: Double = 10) -> Bool {
        sendBytes(Array(text.utf8) + (newline ? [0x0A] : []), timeout: timeout)
    }

    @discardableResult
    func sendBytes(_ bytes: [UInt8], timeout: Double = 10) -> Bool {
        let deadline = Deadline(timeout)
        var offset = 0
        while offset < bytes.count {
            let sent = bytes[offset...].withUnsafeBytes { Glibc.send(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            if sent > 0 {
                offset += sent
                continue
            }
            guard sent < 0, errno == EAGAIN || errno == EINTR, !deadline.hasPassed else { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLOUT), revents: 0)
            _ = poll(&poller, 1, deadline.pollMilliseconds)
        }
        return true
    }

    /// The next line; `nil` at the end of the stream or when the deadline passes (then
    /// ``reachedEnd`` tells which).
    func readLine(timeout: Double = 10) -> String? {
        let deadline = Deadline(timeout)
        while true {
            if let line = takeLine() { return line }
            guard !reachedEnd, fill(until: deadline) else { return nil }
        }
    }

    /// Every line until the server closes the connection (starting with the ``stash``).
    func readToEnd(timeout: Double = 20) throws -> [String] {
        let deadline = Deadline(timeout)
        var lines = stash
        stash = []
        while true {
            if let line = takeLine() {
                lines.append(line)
                continue
            }
            if reachedEnd { return lines }
            guard fill(until: deadline) else {
                if reachedEnd { return lines }
                throw TestFailure("the connection did not end within \(timeout) s; got \(lines.count) lines")
            }
        }
    }

    /// Sends a request and returns its reply or error (as a dictionary); lines that arrive
    /// before it go to ``stash``.
    func request(_ json: String, timeout: Double = 10) throws -> [String: Any] {
        send(json)
        let deadline = Deadline(timeout)
        while let line = readLine(timeout: max(0.001, deadline.end - Deadline.now())) {
            let object = try parse(line)
            let type = object["type"] as? String
            if type == "reply" || type == "error" { return object }
            stash.append(line)
        }
        throw TestFailure("no reply to \(json) (end of stream: \(reachedEnd))")
    }

    /// Reads whatever is there within the deadline; false at the end of the stream or deadline.
    func fill(until deadline: Deadline) -> Bool {
        var chunk = [UInt8](repeating: 0, count: 65536)
        while true {
            let count = read(fd, &chunk, chunk.count)
            if count > 0 {
                buffer += chunk[0..<count]
                return true
            }
            if count == 0 || (errno != EAGAIN && errno != EINTR) {
                reachedEnd = true
                return false
            }
            if deadline.hasPassed { return false }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            _ = poll(&poller, 1, deadline.pollMilliseconds)
        }
    }

    private func takeLine() -> String? {
        guard let newline = buffer.firstIndex(of: 0x0A) else { return nil }
        let line = String(decoding: buffer[..<newline], as: UTF8.self)
        buffer.removeSubrange(...newline)
        return line
    }

    /// Reads all `clients` to their end at once with poll(2), as 50 separate programs would.
    static func readAllToEnd(_ clients: [TestClient], timeout: Double = 30) throws -> [[String]] {
        let deadline = Deadline(timeout)
        var open = Set(clients.indices)
        while !open.isEmpty {
            var pollers = open.sorted().map { pollfd(fd: clients[$0].fd, events: Int16(POLLIN), revents: 0) }
            if deadline.hasPassed { throw TestFailure("\(open.count) of \(clients.count) clients did not reach the end") }
            _ = poll(&pollers, nfds_t(pollers.count), deadline.pollMilliseconds)
            for (slot, index) in open.sorted().enumerated() where pollers[slot].revents != 0 {
                if !clients[index].fill(until: Deadline(0)) && clients[index].reachedEnd { open.remove(index) }
            }
        }
        return try clients.map { try $0.readToEnd(timeout: 1) }
    }
}

/// A line of JSON as a dictionary.
func parse(_ line: String) throws -> [String: Any] {
    guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] else {
        throw TestFailure("not a JSON object: \(line)")
    }
    return object
}

/// The `type` of a line of JSON.
func type(of line: String) -> String? {
    (try? parse(line))?["type"] as? String
}
