import GestureCore

/// The input side of `status` (docs/protocol.md, "Requests and replies": device, layout revision, counters)
/// and the screen the layout's frames are in.
public struct InputStatus: Sendable {
    /// Where the input comes from: `device`, or `replay`.
    public var source: String
    /// The device's name, `nil` while it is absent (unplugged, not found yet).
    public var device: String?
    /// The device path or the recording file.
    public var path: String?
    public var layoutRevision: Int
    /// The layout's ``LayoutHash``, set by the owner that holds the layout's description.
    public var layoutHash: LayoutHash?
    public var activeTouches: Int
    /// Touches down per route (docs/routing.md); nil when the configuration routes none.
    public var routes: RouteCounts?
    /// Touch frames processed since the start.
    public var frames: Int
    /// The input timeline's latest time, in microseconds.
    public var time: Int64
    /// The screen in points: what a client that builds the layout from its own window (the web
    /// client) scales its coordinates to.
    public var screen: ScreenGeometry
    /// Each screen of a daemon of several screens, in the configuration's order; empty with one
    /// (the members above are then the only screen's; with several, the first's).
    public var screens: [ScreenStatus] = []

    public init(source: String, device: String?, path: String?, layoutRevision: Int, activeTouches: Int,
                frames: Int, time: Int64, screen: ScreenGeometry, routes: RouteCounts? = nil) {
        (self.source, self.device, self.path, self.layoutRevision, self.activeTouches, self.frames, self.time, self.screen, self.routes) =
            (source, device, path, layoutRevision, activeTouches, frames, time, screen, routes)
    }
}

/// One screen of `status` in a daemon of several screens: its id, its panel (or none yet), its
/// touches and frames, and its geometry.
public struct ScreenStatus: Sendable, Hashable {
    public var id: String
    /// The device's name and node, nil while the screen waits for its panel.
    public var device: String?
    public var path: String?
    public var activeTouches: Int
    public var frames: Int
    public var screen: ScreenGeometry

    public init(id: String, device: String?, path: String?, activeTouches: Int, frames: Int, screen: ScreenGeometry) {
        (self.id, self.device, self.path, self.activeTouches, self.frames, self.screen) =
            (id, device, path, activeTouches, frames, screen)
    }
}
