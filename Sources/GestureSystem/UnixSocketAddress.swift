import CLinux
#if canImport(Glibc)
import Glibc
#endif

/// An `AF_UNIX` address: a file system path, or an abstract name written with a leading `@`
/// as systemd writes `NOTIFY_SOCKET` (the `@` stands for the leading NUL byte).
public struct UnixSocketAddress: Hashable, Sendable, CustomStringConvertible {
    public let name: String

    /// `sun_path` holds 108 bytes, including the terminating NUL of a path.
    public static let capacity = 108

    /// Why a name cannot be a Unix socket address, saying what to change.
    public enum Problem: Error, Hashable, Sendable, CustomStringConvertible {
        case empty
        case tooLong(name: String, bytes: Int)

        public var description: String {
            switch self {
            case .empty:
                "the socket path is empty; give a path such as /run/gestured/gestured.sock"
            case .tooLong(let name, let bytes):
                "\(name): the socket path is \(bytes) bytes long and a Unix socket path holds at most "
                    + "\(UnixSocketAddress.capacity - 1) (sun_path); choose a shorter path"
            }
        }
    }

    public init(_ name: String) throws(Problem) {
        guard !name.isEmpty else { throw .empty }
        guard name.utf8.count < Self.capacity else { throw .tooLong(name: name, bytes: name.utf8.count) }
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
