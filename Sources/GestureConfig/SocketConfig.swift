/// Where clients connect and who may change the layout (docs/configuration.md, "`socket`"; docs/protocol.md,
/// "Access").
public struct SocketConfig: Hashable, Sendable {
    /// The default socket path (docs/configuration.md, "`socket`").
    public static let defaultPath = "/run/gestured/gestured.sock"

    /// The longest socket path: `sockaddr_un.sun_path` holds 108 bytes on Linux, one of them
    /// the terminating NUL (unix(7)).
    public static let maximumPathLength = 107

    public var path: String
    /// The group that owns the socket file (mode 0660); `nil`: the daemon's own group.
    public var group: String?
    /// Members of this group may send `layout.set` and `view.update`; `nil`: nobody by group.
    public var controlGroup: String?
    /// Users who may send `layout.set` and `view.update`, by name.
    public var controlUsers: [String]

    public init(path: String = SocketConfig.defaultPath, group: String? = nil, controlGroup: String? = nil,
                controlUsers: [String] = []) {
        (self.path, self.group, self.controlGroup, self.controlUsers) = (path, group, controlGroup, controlUsers)
    }
}
