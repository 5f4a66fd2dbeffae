#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// The socket calls of a TCP listener on the loopback address (`gestured calibrate`'s page):
/// socket(2) `AF_INET`, setsockopt(2) `SO_REUSEADDR`, bind(2) to 127.0.0.1, listen(2) and
/// getsockname(2), each `EINTR` retried and every failure a ``SystemError`` with errno and the
/// call. Only 127.0.0.1: what it serves is for a browser on the same machine, never the network.
public enum LoopbackSocket {
    /// A non-blocking, close-on-exec listening socket on 127.0.0.1:`port` (0: a free port the
    /// kernel picks; ``port(of:)`` says which). Accept with `acceptConnection`.
    public static func listen(port: UInt16, backlog: Int32) throws(SystemError) -> FileDescriptor {
        let subject = "127.0.0.1:\(port)"
        let flags = Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue | SOCK_NONBLOCK.rawValue)
        let fd = try systemCall("socket(AF_INET)", subject: subject) { socket(AF_INET, flags, 0) }
        let descriptor = FileDescriptor(rawValue: fd)
        do {
            // A calibration started again at once must not wait for the last one's TIME_WAIT.
            var one: Int32 = 1
            try systemCall("setsockopt(SO_REUSEADDR)", subject: subject) {
                setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, socklen_t(MemoryLayout<Int32>.size))
            }
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
            try systemCall("bind", subject: subject) {
                withUnsafePointer(to: &address) {
                    $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                        Glibc.bind(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
                    }
                }
            }
            try systemCall("listen", subject: subject) { Glibc.listen(fd, backlog) }
        } catch {
            descriptor.closeReleasing()
            throw error
        }
        return descriptor
    }

    /// The port `descriptor` (an `AF_INET` socket) is bound to.
    public static func port(of descriptor: FileDescriptor) throws(SystemError) -> UInt16 {
        var address = sockaddr_in()
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        let fd = descriptor.rawValue
        try systemCall("getsockname") {
            withUnsafeMutablePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
        }
        return UInt16(bigEndian: address.sin_port)
    }
}
