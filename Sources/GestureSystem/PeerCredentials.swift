#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// Who is at the other end of a Unix socket, as the kernel recorded it when the peer
/// connected (`SO_PEERCRED`, and `SO_PEERGROUPS` for its supplementary groups): unforgeable,
/// unlike anything the client could say about itself.
public struct PeerCredentials: Hashable, Sendable, CustomStringConvertible {
    public var pid: Int32
    public var uid: UInt32
    public var gid: UInt32
    /// The peer's supplementary groups; `nil` when the kernel cannot tell (before Linux 4.13).
    public var groups: [UInt32]?

    public init(pid: Int32, uid: UInt32, gid: UInt32, groups: [UInt32]? = nil) {
        (self.pid, self.uid, self.gid, self.groups) = (pid, uid, gid, groups)
    }

    /// `struct ucred` of <sys/socket.h>, which Glibc's module hides behind `_GNU_SOURCE`.
    private struct UCred {
        var pid: Int32 = 0
        var uid: UInt32 = 0
        var gid: UInt32 = 0
    }

    /// The credentials of the peer of the connected socket `socket` (getsockopt(2) `SO_PEERCRED`).
    public static func of(_ socket: FileDescriptor) throws(SystemError) -> PeerCredentials {
        let fd = socket.rawValue
        var credentials = UCred()
        var length = socklen_t(MemoryLayout<UCred>.size)
        try systemCall("getsockopt(SO_PEERCRED)") { getsockopt(fd, SOL_SOCKET, SO_PEERCRED, &credentials, &length) }
        return PeerCredentials(pid: credentials.pid, uid: credentials.uid, gid: credentials.gid,
                               groups: supplementaryGroups(fd))
    }

    /// getsockopt(2) `SO_PEERGROUPS`, growing the buffer once on `ERANGE`; `nil` when the
    /// kernel cannot tell (before Linux 4.13), and the policy then asks the group database.
    private static func supplementaryGroups(_ fd: Int32) -> [UInt32]? {
        var groups = [gid_t](repeating: 0, count: 64)
        for _ in 0..<2 {
            var length = socklen_t(groups.count * MemoryLayout<gid_t>.size)
            if getsockopt(fd, SOL_SOCKET, SO_PEERGROUPS, &groups, &length) == 0 {
                return Array(groups.prefix(Int(length) / MemoryLayout<gid_t>.size))
            }
            guard errno == ERANGE else { return nil }
            groups = [gid_t](repeating: 0, count: Int(length) / MemoryLayout<gid_t>.size + 1)
        }
        return nil
    }

    public var description: String { "pid \(pid) uid \(uid) gid \(gid)" }

    /// The peer's program name as the kernel keeps it (`/proc/PID/comm`, at most 15 bytes),
    /// `nil` when it cannot be read (the peer has exited, or `/proc` is not mounted).
    public var programName: String? {
        guard let file = try? FileDescriptor.open("/proc/\(pid)/comm", .readOnly) else { return nil }
        defer { try? file.close() }
        var buffer = [UInt8](repeating: 0, count: 64)
        guard let count = try? buffer.withUnsafeMutableBytes({ try file.read(into: $0) }), count > 0 else { return nil }
        let name = buffer[..<count].prefix { $0 != 0x0A && $0 != 0 }
        return name.isEmpty ? nil : String(decoding: name, as: UTF8.self)
    }
}
