import GestureConfig

/// What a successful reload did.
public struct ReloadReport: Sendable {
    /// The layout revision after the reload (unchanged when the layout file did not change).
    public var revision: Int
    public var layoutChanged: Bool
    /// The socket section as now configured: who may control is re-read on reload.
    public var socket: SocketConfig
    /// Changes that take effect only after a restart (the device, the screen, gestures, the
    /// socket path), each a sentence.
    public var needsRestart: [String]

    public init(revision: Int, layoutChanged: Bool, socket: SocketConfig, needsRestart: [String] = []) {
        self.revision = revision
        self.layoutChanged = layoutChanged
        self.socket = socket
        self.needsRestart = needsRestart
    }
}

extension ReloadReport {
    /// The changes between two configurations that a reload cannot apply to a running daemon,
    /// each as a sentence for the log and the `reload` reply. The layout and who may control
    /// are applied at once; the rest is read when the daemon starts.
    public static func changesNeedingRestart(from old: Configuration, to new: Configuration) -> [String] {
        var changes: [String] = []
        if old.device != new.device || old.grab != new.grab || old.deviceOverrides != new.deviceOverrides {
            changes.append("device and grab apply after a restart")
        }
        if old.screen != new.screen { changes.append("screen applies after a restart") }
        if old.settings != new.settings { changes.append("gestures apply after a restart") }
        // The virtual panel is made with the panel (docs/routing.md): routing on, off or
        // changed takes a restart.
        if old.routing != new.routing { changes.append("routing applies after a restart") }
        if old.socket.path != new.socket.path || old.socket.group != new.socket.group {
            changes.append("socket.path and socket.group apply after a restart")
        }
        return changes
    }
}
