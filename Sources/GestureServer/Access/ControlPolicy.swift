#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureSystem

/// Who may change the layout (`layout.set`, `view.update`, `reload`; docs/protocol.md, "Access"): root, the
/// user the daemon runs as (it could do anything the daemon does anyway), the configured
/// `controlUsers`, and members of `controlGroup` — by the peer's primary group or any of its
/// supplementary groups. Every other client may subscribe, hit-test and ask for the status.
public struct ControlPolicy: Sendable {
    /// The uids of `controlUsers` that exist on this system.
    public private(set) var users: Set<UInt32> = []
    /// The gid of `controlGroup`, when it exists.
    public private(set) var group: UInt32?
    /// Configured names that are neither a user nor a group here (worth a warning: a typo
    /// silently locks a kiosk program out).
    public private(set) var unresolved: [String] = []
    private let ownUID: UInt32

    public init(socket: SocketConfig, ownUID: UInt32 = getuid()) {
        self.ownUID = ownUID
        for name in socket.controlUsers {
            if let uid = Self.uid(of: name) { users.insert(uid) } else { unresolved.append("user \"\(name)\"") }
        }
        if let name = socket.controlGroup {
            if let gid = Self.gid(of: name) { group = gid } else { unresolved.append("group \"\(name)\"") }
        }
    }

    /// Whether `peer` may change the layout.
    public func allows(_ peer: PeerCredentials) -> Bool {
        if peer.uid == 0 || peer.uid == ownUID || users.contains(peer.uid) { return true }
        guard let controlGroup = group else { return false }
        if peer.gid == controlGroup { return true }
        let groups = peer.groups ?? Self.groupList(uid: peer.uid, primary: peer.gid)
        return groups.contains(controlGroup)
    }

    /// getpwnam_r(3).
    public static func uid(of name: String) -> UInt32? {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.pw_uid
    }

    /// getgrnam_r(3).
    public static func gid(of name: String) -> UInt32? {
        var entry = Glibc.group()
        var result: UnsafeMutablePointer<Glibc.group>?
        var buffer = [CChar](repeating: 0, count: 16384)
        guard getgrnam_r(name, &entry, &buffer, buffer.count, &result) == 0, result != nil else { return nil }
        return entry.gr_gid
    }

    /// The groups of the user `uid` per the group database (getgrouplist(3)), for kernels that
    /// do not report a peer's supplementary groups.
    static func groupList(uid: UInt32, primary: UInt32) -> [UInt32] {
        var entry = passwd()
        var result: UnsafeMutablePointer<passwd>?
        var buffer = [CChar](repeating: 0, count: 4096)
        guard getpwuid_r(uid, &entry, &buffer, buffer.count, &result) == 0, result != nil, let name = entry.pw_name else {
            return [primary]
        }
        var count: Int32 = 64
        var groups = [gid_t](repeating: 0, count: Int(count))
        if getgrouplist(name, primary, &groups, &count) < 0 {
            groups = [gid_t](repeating: 0, count: Int(count))
            guard getgrouplist(name, primary, &groups, &count) >= 0 else { return [primary] }
        }
        return Array(groups.prefix(Int(count)))
    }
}
