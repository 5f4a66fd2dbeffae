#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Socket activation as sd_listen_fds(3) defines it: systemd (or `systemd-socket-activate`)
/// passes listening sockets from descriptor 3 on and names their count in `LISTEN_FDS`, for
/// the process in `LISTEN_PID`. Read once at start-up; the variables are then removed so a
/// child process never takes them for its own.
public enum SocketActivation {
    /// The first descriptor systemd passes (`SD_LISTEN_FDS_START`).
    public static let firstDescriptor = FileDescriptor(rawValue: 3)

    /// The passed descriptors, or an empty array when this process was not socket-activated.
    public static func takeDescriptors(environment: (String) -> String? = { getenv($0).map { String(cString: $0) } })
        -> [FileDescriptor] {
        defer {
            unsetenv("LISTEN_PID")
            unsetenv("LISTEN_FDS")
            unsetenv("LISTEN_FDNAMES")
        }
        guard let pid = environment("LISTEN_PID").flatMap({ Int32($0) }), pid == getpid(),
              let count = environment("LISTEN_FDS").flatMap({ Int32($0) }), count > 0 else {
            return []
        }
        return (0..<count).map { FileDescriptor(rawValue: firstDescriptor.rawValue + $0) }
    }
}
