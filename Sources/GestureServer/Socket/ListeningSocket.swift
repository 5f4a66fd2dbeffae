#if canImport(Glibc)
import Glibc
#endif
import GestureSystem
import SystemPackage

/// The Unix stream socket clients connect to (docs/protocol.md, "Access"): bound to a path with mode 0660 and
/// the configured group, or inherited from systemd (socket activation). Non-blocking; accepted
/// connections are non-blocking and close-on-exec. The calls are GestureSystem's.
public final class ListeningSocket {
    public let descriptor: FileDescriptor
    /// The path clients connect to (for logs and `status`).
    public let path: String
    /// True when this process created the file, and so removes it on close; a socket systemd
    /// passed belongs to the `.socket` unit.
    public let ownsPath: Bool
    private var closed = false

    private init(descriptor: FileDescriptor, path: String, ownsPath: Bool) {
        (self.descriptor, self.path, self.ownsPath) = (descriptor, path, ownsPath)
    }

    deinit { close() }

    /// Creates the socket at `path`. A file left there by a process that crashed (a socket no
    /// one accepts on) is replaced; a socket a live daemon holds is not (``SocketSetupError/inUse(path:)``).
    /// - Parameters:
    ///   - group: the group to own the file, so its members may connect; `nil` keeps the
    ///     daemon's group.
    ///   - mode: the file's permission bits (0660, docs/protocol.md, "Access").
    public static func bind(path: String, group: String? = nil, mode: mode_t = 0o660,
                            backlog: Int32 = 64) throws(SocketSetupError) -> ListeningSocket {
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(path) } catch { throw .badPath(error) }
        var gid: gid_t?
        if let group {
            guard let resolved = ControlPolicy.gid(of: group) else { throw .unknownGroup(group) }
            gid = resolved
        }
        let socket: FileDescriptor
        do { socket = try UnixSocket.open(.stream, nonBlocking: true, subject: path) } catch { throw .system(error) }
        do throws(SocketSetupError) {
            try bindReplacingStale(socket, address)
            // bind(2) creates the file under the umask; set the mode and group before listen(2),
            // so no one connects in between with the wrong permissions.
            do {
                try SocketFile.setMode(mode, of: path)
                if let gid { try SocketFile.setGroup(gid, of: path) }
                try socket.listen(backlog: backlog, subject: path)
            } catch {
                throw SocketSetupError.system(error)
            }
        } catch {
            socket.closeReleasing()
            throw error
        }
        return ListeningSocket(descriptor: socket, path: path, ownsPath: true)
    }

    /// Adopts a listening socket passed by systemd (``SocketActivation``).
    public static func adopt(_ socket: FileDescriptor) throws(SocketSetupError) -> ListeningSocket {
        func check(_ option: Int32, _ call: String, _ expected: (Int32) -> Bool, _ reason: String) throws(SocketSetupError) {
            let value: Int32
            do { value = try socket.socketOption(option, call: call) } catch { throw .unusableInherited(fd: socket.rawValue, reason: "\(error)") }
            guard expected(value) else { throw .unusableInherited(fd: socket.rawValue, reason: reason) }
        }
        try check(SO_DOMAIN, "getsockopt(SO_DOMAIN)", { $0 == AF_UNIX }, "is not a Unix socket")
        try check(SO_TYPE, "getsockopt(SO_TYPE)", { $0 == Int32(SOCK_STREAM.rawValue) }, "is not a stream socket")
        try check(SO_ACCEPTCONN, "getsockopt(SO_ACCEPTCONN)", { $0 != 0 }, "is not listening")
        let path: String?
        do {
            try socket.makeNonBlockingAndCloseOnExec(subject: "the socket passed by systemd")
            path = try socket.boundPath()
        } catch {
            throw .system(error)
        }
        return ListeningSocket(descriptor: socket, path: path ?? "(inherited descriptor \(socket.rawValue))", ownsPath: false)
    }

    /// Accepts one pending connection, non-blocking and close-on-exec, or `nil` when none is
    /// pending.
    public func accept() throws(SystemError) -> FileDescriptor? {
        try descriptor.acceptConnection(subject: path)
    }

    /// Stops listening and removes the file this process created. Removing it can fail only
    /// if someone removed or replaced it already, and then it is not ours to remove.
    public func close() {
        guard !closed else { return }
        closed = true
        descriptor.closeReleasing()
        if ownsPath { try? SocketFile.remove(path) }
    }

    /// Binds, and on `EADDRINUSE` tells a stale file from a live daemon by connecting to it.
    private static func bindReplacingStale(_ socket: FileDescriptor, _ address: UnixSocketAddress) throws(SocketSetupError) {
        let path = address.name
        for attempt in 0..<2 {
            do {
                try socket.bind(to: address)
                return
            } catch {
                switch error.errno {
                case .addressInUse where attempt == 0:
                    let kind: SocketFile.Kind?
                    do { kind = try SocketFile.kind(at: path) } catch { throw .system(error) }
                    guard let kind else { continue }
                    guard kind == .socket else { throw .notASocket(path: path) }
                    if isAccepting(address) { throw .inUse(path: path) }
                    // Nobody listens: the file of a daemon that crashed. Replace it.
                    do { try SocketFile.remove(path) } catch { throw .system(error) }
                case .noSuchFileOrDirectory:
                    throw .noDirectory(path: path)
                default:
                    throw .system(error)
                }
            }
        }
        throw .inUse(path: path)
    }

    /// Whether a process accepts connections on `address` (connect(2) succeeds, or the
    /// listener's backlog is full, `EAGAIN`, which means it is very much alive).
    static func isAccepting(_ address: UnixSocketAddress) -> Bool {
        guard let probe = try? UnixSocket.open(.stream) else { return false }
        defer { probe.closeReleasing() }
        do {
            try probe.connect(to: address)
            return true
        } catch {
            return error.errno == .resourceTemporarilyUnavailable
        }
    }
}
