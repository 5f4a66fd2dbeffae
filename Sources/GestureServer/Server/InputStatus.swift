import GestureCore

/// The input side of `status` (SPEC 9: device, layout revision, counters) and the screen the
/// layout's frames are in.
public struct InputStatus: Sendable {
    /// Where the input comes from: `device`, or `replay`.
    public var source: String
    /// The device's name, `nil` while it is absent (unplugged, not found yet).
    public var device: String?
    /// The device path or the recording file.
    public var path: String?
    public var layoutRevision: Int
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

    public init(source: String, device: String?, path: String?, layoutRevision: Int, activeTouches: Int,
                frames: Int, time: Int64, screen: ScreenGeometry, routes: RouteCounts? = nil) {
        self.source = source
        self.device = device
        self.path = path
        self.layoutRevision = layoutRevision
        self.activeTouches = activeTouches
        self.frames = frames
        self.time = time
        self.screen = screen
        self.routes = routes
    }
}
