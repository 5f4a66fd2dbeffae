import CLinux
#if canImport(Glibc)
import Glibc
#endif
import GestureSystem

/// An `AF_UNIX` address: a file system path, or an abstract name written with a leading `@`
/// as systemd writes `NOTIFY_SOCKET` (the `@` stands for the leading NUL byte).
public struct UnixSocketAddress: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    /// `sun_path` holds 108 bytes, including the terminating NUL of a path.
    public static let capacity = 108

    public init(_ name: String) throws(SystemError) {
        guard !name.isEmpty, name.utf8.count < Self.capacity else {
            throw SystemError(call: "sockaddr_un", errno: ENAMETOOLONG, subject: name)
        }
        self.name = name
    }

    public var isAbstract: Bool { name.hasPrefix("@") }

    public var description: String { name }

    /// Calls `body` with the `sockaddr` and its length, as bind(2), connect(2) and sendto(2) take them.
    public func withSockaddr<R>(_ body: (UnsafePointer<sockaddr>, socklen_t) -> R) -> R {
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        var bytes = Array(name.utf8)
        if isAbstract { bytes[0] = 0 }
        withUnsafeMutableBytes(of: &address.sun_path) { path in
            for (index, byte) in bytes.enumerated() { path[index] = byte }
        }
        // An abstract name is exactly its bytes; a path also counts its NUL.
        let pathLength = bytes.count + (isAbstract ? 0 : 1)
        let length = socklen_t(MemoryLayout<sa_family_t>.size + pathLength)
        return withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { body($0, length) }
        }
    }
}
