import GestureSystem

/// Why the daemon cannot listen for clients, each saying what to change.
public enum SocketSetupError: Error, Hashable, Sendable, CustomStringConvertible {
    /// Another process (a running gestured) accepts connections on the path.
    case inUse(path: String)
    /// Something that is not a socket sits at the path.
    case notASocket(path: String)
    /// The socket's directory does not exist.
    case noDirectory(path: String)
    /// `socket.group` names no group on this system.
    case unknownGroup(String)
    /// An inherited descriptor is not a listening Unix stream socket.
    case unusableInherited(fd: Int32, reason: String)
    /// The path cannot be a Unix socket address (empty, longer than `sun_path` holds).
    case badPath(UnixSocketAddress.Problem)
    case system(SystemError)

    public var description: String {
        switch self {
        case .inUse(let path):
            "\(path): another gestured is listening on this socket; stop it (systemctl stop gestured) or give this one another --socket path"
        case .notASocket(let path):
            "\(path): the file exists and is not a socket; remove it or choose another socket path"
        case .noDirectory(let path):
            "\(path): the directory does not exist; create it (the service's RuntimeDirectory=gestured does) or choose another socket path"
        case .unknownGroup(let name):
            "socket.group \"\(name)\" is not a group on this system; create it (systemd-sysusers gestured.conf) or change socket.group"
        case .unusableInherited(let fd, let reason):
            "the socket passed by systemd (descriptor \(fd)) \(reason); use ListenStream= with a path in gestured.socket"
        case .badPath(let problem):
            problem.description
        case .system(let error):
            "\(error)"
        }
    }
}
