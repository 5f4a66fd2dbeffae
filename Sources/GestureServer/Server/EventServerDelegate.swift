import GestureConfig
import GestureCore

/// Whoever owns the engine (the live runner, a socket replay) and so carries out the
/// requests that reach into it. Called on the event loop's thread, between input frames, so
/// a layout change is atomic with respect to the input.
public protocol EventServerDelegate: AnyObject {
    /// The layout the engine runs now (`view.update` changes one view of it).
    var currentLayout: ViewSpec { get }

    /// Replaces the layout with a validated one: touches already down keep their views and
    /// recognizers (`Engine.replaceLayout`). Publishes the `layout` event (with the input
    /// time) through the server and returns the new revision.
    func replaceLayout(_ layout: ViewSpec, reason: String) -> Int

    /// Hit-tests a point of the current layout, with its trace, without a touch.
    func hitTest(_ point: Point) -> HitTestEvent

    /// What `status` reports about the input side.
    func inputStatus() -> InputStatus

    /// Re-reads the configuration (SIGHUP, `reload`). On success the new layout is applied as
    /// ``replaceLayout(_:reason:)`` does; an invalid configuration changes nothing.
    func reload() -> Result<ReloadReport, ConfigurationError>

    /// Some subscriber asks for hit-test traces and failed transitions, or none does any more:
    /// the engine's `tracing` should be on while either this or the daemon's `--trace` is.
    func tracingDemandChanged(_ wanted: Bool)
}

/// The input side of `status` (SPEC 9: device, layout revision, counters).
public struct InputStatus: Sendable {
    /// Where the input comes from: `device`, or `replay`.
    public var source: String
    /// The device's name, `nil` while it is absent (unplugged, not found yet).
    public var device: String?
    /// The device path or the recording file.
    public var path: String?
    public var layoutRevision: Int
    public var activeTouches: Int
    /// Touch frames processed since the start.
    public var frames: Int
    /// The input timeline's latest time, in microseconds.
    public var time: Int64

    public init(source: String, device: String?, path: String?, layoutRevision: Int, activeTouches: Int,
                frames: Int, time: Int64) {
        self.source = source
        self.device = device
        self.path = path
        self.layoutRevision = layoutRevision
        self.activeTouches = activeTouches
        self.frames = frames
        self.time = time
    }
}

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
        if old.device != new.device || old.grab != new.grab { changes.append("device and grab apply after a restart") }
        if old.screen != new.screen || old.axes != new.axes { changes.append("screen and axes apply after a restart") }
        if old.settings != new.settings { changes.append("gestures apply after a restart") }
        if old.socket.path != new.socket.path || old.socket.group != new.socket.group {
            changes.append("socket.path and socket.group apply after a restart")
        }
        return changes
    }
}
