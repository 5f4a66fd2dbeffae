import GestureConfig
import GestureCore

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

    /// With several screens, what the reload did to each, in the owner's order; empty with one
    /// (``revision`` and ``layoutChanged`` are then the only screen's; with several, the first's,
    /// and ``layoutChanged`` is true when any screen's changed).
    public var screens: [ScreenReload] = []

    public init(revision: Int, layoutChanged: Bool, socket: SocketConfig, needsRestart: [String] = [],
                screens: [ScreenReload] = []) {
        (self.revision, self.layoutChanged, self.socket, self.needsRestart, self.screens) =
            (revision, layoutChanged, socket, needsRestart, screens)
    }

    /// The indices of the screens whose layout the reload replaced (the configuration's layout
    /// now, set by nobody).
    public var changedScreens: [Int] {
        screens.isEmpty ? (layoutChanged ? [0] : []) : screens.indices.filter { screens[$0].layoutChanged }
    }
}

/// What a reload did to one screen of several.
public struct ScreenReload: Sendable, Hashable {
    public var id: String
    /// The screen's layout revision after the reload.
    public var revision: Int
    public var layoutChanged: Bool
    /// Set when the file's layout for this screen is invalid: the screen keeps the layout it
    /// had, and this says why (the sentence names the screen; each problem its key path).
    public var keptLayout: KeptLayout?

    public init(id: String, revision: Int, layoutChanged: Bool, keptLayout: KeptLayout? = nil) {
        (self.id, self.revision, self.layoutChanged, self.keptLayout) = (id, revision, layoutChanged, keptLayout)
    }

    /// Why a screen kept its layout.
    public struct KeptLayout: Sendable, Hashable {
        public var message: String
        public var problems: [LayoutProblem]

        public init(message: String, problems: [LayoutProblem]) {
            (self.message, self.problems) = (message, problems)
        }
    }
}

extension ReloadReport {
    /// The changes between two configurations that a reload cannot apply to a running daemon,
    /// each as a sentence for the log and the `reload` reply. The layout and who may control
    /// are applied at once; the rest is read when the daemon starts.
    public static func changesNeedingRestart(from old: Configuration, to new: Configuration) -> [String] {
        var changes: [String] = []
        if !old.isMultiScreen && !new.isMultiScreen {
            if old.device != new.device || old.grab != new.grab || old.deviceOverrides != new.deviceOverrides {
                changes.append("device and grab apply after a restart")
            }
            if old.screen != new.screen { changes.append("screen applies after a restart") }
        } else {
            // Several screens: each screen's own, named. A screen the file adds, removes or
            // reorders is a pipeline and a panel: those take a restart too.
            if old.screens.map(\.id) != new.screens.map(\.id) {
                changes.append("screens (which there are, and their order) apply after a restart")
            }
            if old.grab != new.grab { changes.append("grab applies after a restart") }
            for was in old.screens {
                guard let now = new.screen(id: was.id) else { continue }
                if was.device != now.device || was.deviceOverrides != now.deviceOverrides {
                    changes.append("screen \(was.id): device applies after a restart")
                }
                if was.screen != now.screen { changes.append("screen \(was.id): screen applies after a restart") }
            }
        }
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
