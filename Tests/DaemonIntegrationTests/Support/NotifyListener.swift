#if canImport(Glibc)
import Glibc
#endif

/// A stand-in for systemd's notification socket: a datagram socket whose path goes into
/// `NOTIFY_SOCKET`, collecting what the daemon says (READY=1, WATCHDOG=1, …).
final class NotifyListener {
    let path: String
    private let fd: Int32
    /// Every datagram received so far, in order.
    private(set) var messages: [String] = []

    init(path: String) throws {
        self.path = path
        fd = socket(AF_UNIX, Int32(SOCK_DGRAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard result == 0 else { throw TestFailure("bind \(path): \(String(cString: strerror(errno)))") }
    }

    deinit { close(fd) }

    /// Messages before this index were consumed by earlier waits.
    private var cursor = 0

    /// Waits until a datagram after the previous match satisfies `predicate`; returns it, or
    /// `nil` at the deadline. Waits in a row thus check the order of the messages.
    func waitFor(timeout: Double = 10, _ predicate: (String) -> Bool) -> String? {
        let deadline = Deadline(timeout)
        while true {
            while cursor < messages.count {
                cursor += 1
                if predicate(messages[cursor - 1]) { return messages[cursor - 1] }
            }
            var poller = pollfd(fd: fd, events: Int16(POLLIN), revents: 0)
            guard !deadline.hasPassed, poll(&poller, 1, deadline.pollMilliseconds) > 0 else {
                if deadline.hasPassed { return nil }
                continue
            }
            var buffer = [UInt8](repeating: 0, count: 4096)
            let count = recv(fd, &buffer, buffer.count, 0)
            if count > 0 { messages.append(String(decoding: buffer[0..<count], as: UTF8.self)) }
        }
    }

    /// Waits for a datagram with the line `line` (such as `READY=1`).
    func waitFor(line: String, timeout: Double = 10) -> String? {
        waitFor(timeout: timeout) { $0.split(separator: "\n").contains { $0 == line } }
    }
}
