import GestureCore

/// A line the server itself sends (docs/protocol.md, "Requests and replies"), as a value: the greeting, the
/// answer to a request, an error, or the goodbye. ``ReplyEncoder`` is the one place that turns it into
/// JSON.
public enum Reply: Sendable {
    /// `{"type":"hello","protocol":"gestured/1","version":…,"startId":…,"canControl":…}` on
    /// connect; with several screens, `"screens":[…]` before `canControl` (empty `screens`:
    /// none written).
    case hello(version: String, startID: StartID, screens: [ScreenStatus], canControl: Bool)
    /// `{"type":"reply","re":…,"ok":true,…}`: a request carried out.
    case ok(RequestID?, Answer)
    /// `{"type":"error","re":…,"error":{…}}`.
    case error(ProtocolError)
    /// `{"type":"bye","reason":…,"message":…}`: the server is about to close the connection.
    case bye(reason: String, message: String)
    /// `{"type":"superseded","seq":…,"time":…,"what":"layout","by":…,"revision":…,"message":…}`:
    /// to the client whose layout another client's `layout.set` replaced (docs/protocol.md
    /// § Changing the layout). `seq` and `time` are those of the `layout` event of the new layout.
    case superseded(seq: Int64, time: Int64, by: String, revision: Int, message: String)

    /// What a successful request answers, besides `ok`.
    public enum Answer: Sendable {
        /// `unsubscribe`: nothing more.
        case done
        /// `subscribe`: the filters as understood; `trace` says whether trace-only events come.
        case subscribed(Subscription, trace: Bool)
        /// `layout.set`, `view.update`: the new layout revision.
        case revision(Int)
        /// `hitTest`: the point, the view found (or none) and the trace.
        case hitTest(x: Double, y: Double, HitTestEvent)
        case status(ServerStatus)
        /// `screen.set`: the screen now in force.
        case screen(ScreenGeometry)
        case reloaded(ReloadReport)
    }
}

/// What `status` answers (docs/protocol.md, "Requests and replies": the daemon, its input side, its clients
/// and its counters).
public struct ServerStatus: Sendable {
    public var version: String
    public var startID: StartID
    public var pid: Int
    /// `nil` when the server has no owner any more (stopping).
    public var input: InputStatus?
    public var socket: String
    public var connected: Int
    public var subscribed: Int
    public var counters: EventServer.Counters
}
