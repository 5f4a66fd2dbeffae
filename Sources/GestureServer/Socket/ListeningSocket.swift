import CLinux
#if canImport(Glibc)
import Glibc
#endif
import GestureSystem

/// The Unix stream socket clients connect to (SPEC 9): bound to a path with mode 0660 and the
/// configured group, or inherited from systemd (socket activation). Non-blocking; accepted
/// connections are non-blocking and close-on-exec.
public final class ListeningSocket {
    public let fd: Int32
    /// The path clients connect to (for logs and `status`).
    public let path: String
    /// True when this process created the file, and so removes it on close; a socket systemd
    /// passed belongs to the `.socket` unit.
    public let ownsPath: Bool
    private var closed = false

    private init(fd: Int32, path: String, ownsPath: Bool) {
        self.fd = fd
        self.path = path
        self.ownsPath = ownsPath
    }

    deinit { close() }

    /// Creates the socket at `path`. A file left there by a process that crashed (a socket no
    /// one accepts on) is replaced; a socket a live daemon holds is not (``SocketSetupError/inUse(path:)``).
    /// - Parameters:
    ///   - group: the group to own the file, so its members may connect; `nil` keeps the
    ///     daemon's group.
    ///   - mode: the file's permission bits (SPEC 9: 0660).
    public static func bind(path: String, group: String? = nil, mode: mode_t = 0o660,
                            backlog: Int32 = 64) throws(SocketSetupError) -> ListeningSocket {
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path) } catch { throw .system(error) }
        var gid: gid_t?
        if let group {
            guard let resolved = ControlPolicy.gid(of: group) else { throw .unknownGroup(group) }
            gid = resolved
        }
        let fd: Int32
        do {
            fd = try retryingInterrupts("socket(AF_UNIX)", subject: path) {
                socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_NONBLOCK.rawValue | SOCK_CLOEXEC.rawValue), 0)
            }
        } catch { throw .system(error) }
        do {
            try bindReplacingStale(fd, address)
            // bind(2) creates the file under the umask; set the mode and group before listen(2),
            // so no one connects in between with the wrong permissions.
            try retryingInterrupts("chmod", subject: path) { chmod(path, mode) }
            if let gid {
                try retryingInterrupts("chown", subject: path) { chown(path, uid_t.max, gid) }
            }
            try retryingInterrupts("listen", subject: path) { listen(fd, backlog) }
        } catch let error as SocketSetupError {
            Glibc.close(fd)
            throw error
        } catch {
            Glibc.close(fd)
            throw .system(error as! SystemError)
        }
        return ListeningSocket(fd: fd, path: path, ownsPath: true)
    }

    /// Adopts a listening socket passed by systemd (``SocketActivation``).
    public static func adopt(fd: Int32) throws(SocketSetupError) -> ListeningSocket {
        var value: Int32 = 0
        var length = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &value, &length) == 0, value == AF_UNIX else {
            throw .unusableInherited(fd: fd, reason: "is not a Unix socket")
        }
        guard getsockopt(fd, SOL_SOCKET, SO_TYPE, &value, &length) == 0, value == Int32(SOCK_STREAM.rawValue) else {
            throw .unusableInherited(fd: fd, reason: "is not a stream socket")
        }
        guard getsockopt(fd, SOL_SOCKET, SO_ACCEPTCONN, &value, &length) == 0, value != 0 else {
            throw .unusableInherited(fd: fd, reason: "is not listening")
        }
        let flags = fcntl(fd, F_GETFL)
        _ = fcntl(fd, F_SETFL, flags | O_NONBLOCK)
        _ = fcntl(fd, F_SETFD, FD_CLOEXEC)
        return ListeningSocket(fd: fd, path: boundPath(fd) ?? "(inherited descriptor \(fd))", ownsPath: false)
    }

    /// Accepts one pending connection (accept(2)), or `nil` when none is pending. The
    /// connection is made non-blocking and close-on-exec (accept4 is hidden behind
    /// `_GNU_SOURCE` in Glibc's module, and the daemon execs nothing in between).
    public func accept() throws(SystemError) -> Int32? {
        while true {
            let client = Glibc.accept(fd, nil, nil)
            if client >= 0 {
                _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
                _ = fcntl(client, F_SETFD, FD_CLOEXEC)
                return client
            }
            switch errno {
            case EINTR: continue
            case EAGAIN, EWOULDBLOCK: return nil
            // The peer gave up before we accepted it: nothing to serve.
            case ECONNABORTED, EPROTO: continue
            default: throw SystemError(call: "accept4", errno: errno, subject: path)
            }
        }
    }

    /// Stops listening and removes the file this process created.
    public func close() {
        guard !closed else { return }
        closed = true
        Glibc.close(fd)
        if ownsPath { unlink(path) }
    }

    /// Binds, and on `EADDRINUSE` tells a stale file from a live daemon by connecting to it.
    private static func bindReplacingStale(_ fd: Int32, _ address: UnixSocketAddress) throws(SocketSetupError) {
        let path = address.name
        for attempt in 0..<2 {
            let result = address.withSockaddr { Glibc.bind(fd, $0, $1) }
            if result == 0 { return }
            let error = errno
            switch error {
            case EADDRINUSE where attempt == 0:
                var status = stat()
                guard lstat(path, &status) == 0 else { continue }
                guard (status.st_mode & S_IFMT) == S_IFSOCK else { throw .notASocket(path: path) }
                if isAccepting(address) { throw .inUse(path: path) }
                // Nobody listens: the file of a daemon that crashed. Replace it.
                unlink(path)
            case ENOENT:
                throw .noDirectory(path: path)
            default:
                throw .system(SystemError(call: "bind", errno: error, subject: path))
            }
        }
        throw .inUse(path: path)
    }

    /// Whether a process accepts connections on `address` (connect(2) succeeds).
    static func isAccepting(_ address: UnixSocketAddress) -> Bool {
        let probe = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard probe >= 0 else { return false }
        defer { Glibc.close(probe) }
        let result = address.withSockaddr { connect(probe, $0, $1) }
        // EAGAIN: the listener's backlog is full, so it is very much alive.
        return result == 0 || errno == EAGAIN
    }

    /// The path a socket is bound to (getsockname(2)).
    private static func boundPath(_ fd: Int32) -> String? {
        var address = sockaddr_un()
        var length = socklen_t(MemoryLayout<sockaddr_un>.size)
        let result = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(fd, $0, &length) }
        }
        guard result == 0 else { return nil }
        let path = withUnsafeBytes(of: &address.sun_path) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        return path.isEmpty ? nil : path
    }
}
