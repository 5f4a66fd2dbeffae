import CLinux
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// The socket calls of the edges on `AF_UNIX` sockets, each named after the C function it
/// wraps, `EINTR` retried and every failure a ``SystemError`` with errno and the call.
public enum UnixSocket {
    /// Stream (the client protocol) or datagram (sd_notify).
    public enum Kind: Sendable {
        case stream
        case datagram

        var rawValue: Int32 {
            switch self {
            case .stream: Int32(SOCK_STREAM.rawValue)
            case .datagram: Int32(SOCK_DGRAM.rawValue)
            }
        }
    }

    /// socket(2) `AF_UNIX`, close-on-exec, and non-blocking when asked.
    public static func open(_ kind: Kind, nonBlocking: Bool = false, subject: String = "") throws(SystemError) -> FileDescriptor {
        let flags = kind.rawValue | Int32(SOCK_CLOEXEC.rawValue) | (nonBlocking ? Int32(SOCK_NONBLOCK.rawValue) : 0)
        return FileDescriptor(rawValue: try systemCall("socket(AF_UNIX)", subject: subject) { socket(AF_UNIX, flags, 0) })
    }

    /// socketpair(2) `AF_UNIX` stream, close-on-exec (tests and in-process peers).
    public static func pair() throws(SystemError) -> (FileDescriptor, FileDescriptor) {
        var fds: [Int32] = [-1, -1]
        try systemCall("socketpair(AF_UNIX)") { socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &fds) }
        return (FileDescriptor(rawValue: fds[0]), FileDescriptor(rawValue: fds[1]))
    }
}

extension FileDescriptor {
    /// bind(2) to `address`.
    public func bind(to address: UnixSocketAddress) throws(SystemError) {
        let fd = rawValue
        try systemCall("bind", subject: address.name) { address.withSockaddr { Glibc.bind(fd, $0, $1) } }
    }

    /// listen(2).
    public func listen(backlog: Int32, subject: String = "") throws(SystemError) {
        let fd = rawValue
        try systemCall("listen", subject: subject) { Glibc.listen(fd, backlog) }
    }

    /// connect(2) to `address` (blocking sockets: it completes at once for Unix sockets).
    public func connect(to address: UnixSocketAddress) throws(SystemError) {
        let fd = rawValue
        try systemCall("connect", subject: address.name) { address.withSockaddr { Glibc.connect(fd, $0, $1) } }
    }

    /// accept(2) of one pending connection on a non-blocking listening socket, made
    /// non-blocking and close-on-exec; `nil` when none is pending (`EAGAIN`). A peer that gave
    /// up before it was accepted (`ECONNABORTED`, `EPROTO`) is skipped. (accept4 is hidden
    /// behind `_GNU_SOURCE` in Glibc's module, and the daemon execs nothing in between.)
    public func acceptConnection(subject: String = "") throws(SystemError) -> FileDescriptor? {
        while true {
            let client = Glibc.accept(rawValue, nil, nil)
            if client >= 0 {
                let connection = FileDescriptor(rawValue: client)
                do {
                    try connection.makeNonBlockingAndCloseOnExec(subject: subject)
                } catch {
                    connection.closeReleasing()
                    throw error
                }
                return connection
            }
            let error = SystemError.currentErrno
            switch error {
            case .interrupted, .connectionAbort, .protocolError: continue
            case .wouldBlock, .resourceTemporarilyUnavailable: return nil
            default: throw SystemError(call: "accept", errno: error, subject: subject)
            }
        }
    }

    /// sendto(2) of one datagram to `address`, `MSG_NOSIGNAL`.
    public func send(_ bytes: [UInt8], to address: UnixSocketAddress) throws(SystemError) {
        let fd = rawValue
        try systemCall("sendto", subject: address.name) {
            address.withSockaddr { pointer, length in
                bytes.withUnsafeBytes { sendto(fd, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL), pointer, length) }
            }
        }
    }

    /// getsockopt(2) of an integer option at `SOL_SOCKET` (`SO_DOMAIN`, `SO_TYPE`, `SO_ACCEPTCONN`).
    public func socketOption(_ name: Int32, call: String) throws(SystemError) -> Int32 {
        let fd = rawValue
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        try systemCall(call) { getsockopt(fd, SOL_SOCKET, name, &value, &length) }
        return value
    }

    /// setsockopt(2) of an integer option at `SOL_SOCKET` (`SO_SNDBUF` in tests).
    public func setSocketOption(_ name: Int32, to value: Int32, call: String) throws(SystemError) {
        let fd = rawValue
        var value = value
        try systemCall(call) { setsockopt(fd, SOL_SOCKET, name, &value, socklen_t(MemoryLayout<Int32>.size)) }
    }

    /// setsockopt(2) `SO_SNDBUF`: the bytes the kernel holds for this socket's peer, which
    /// the kernel doubles for its own bookkeeping (socket(7)).
    public func setSendBufferSize(_ bytes: Int32) throws(SystemError) {
        try setSocketOption(SO_SNDBUF, to: bytes, call: "setsockopt(SO_SNDBUF)")
    }

    /// The path a Unix socket is bound to (getsockname(2)); `nil` for an unnamed one.
    public func boundPath() throws(SystemError) -> String? {
        let fd = rawValue
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        try systemCall("getsockname") {
            withUnsafeMutablePointer(to: &address) { pointer in
                pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
            }
        }
        let path = withUnsafeBytes(of: &address.sun_path) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return path.isEmpty ? nil : path
    }
}

/// The file-system calls on a socket's path, each named after its C function.
public enum SocketFile {
    /// What is at a path, without following a final symlink (lstat(2)); `nil` when nothing is.
    public enum Kind: Sendable, Equatable {
        case socket
        case other
    }

    /// lstat(2): what is at `path`, `nil` when nothing (`ENOENT`).
    public static func kind(at path: String) throws(SystemError) -> Kind? {
        var status = stat()
        do {
            try systemCall("lstat", subject: path) { lstat(path, &status) }
        } catch where error.errno == .noSuchFileOrDirectory {
            return nil
        }
        return (status.st_mode & S_IFMT) == S_IFSOCK ? .socket : .other
    }

    /// chmod(2).
    public static func setMode(_ mode: mode_t, of path: String) throws(SystemError) {
        try systemCall("chmod", subject: path) { chmod(path, mode) }
    }

    /// chown(2) of the group only.
    public static func setGroup(_ gid: gid_t, of path: String) throws(SystemError) {
        try systemCall("chown", subject: path) { chown(path, uid_t.max, gid) }
    }

    /// unlink(2); a file already gone is not an error.
    public static func remove(_ path: String) throws(SystemError) {
        do {
            try systemCall("unlink", subject: path) { unlink(path) }
        } catch where error.errno == .noSuchFileOrDirectory {
        }
    }
}
