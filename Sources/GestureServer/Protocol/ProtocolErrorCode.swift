/// The `code` of an error reply (docs/protocol.md, "Errors"), a word a client can branch on; the message says
/// what to change.
public enum ProtocolErrorCode: String, Hashable, Sendable, CaseIterable {
    /// The line is not JSON.
    case badJSON = "bad_json"
    /// A field is missing, unknown or of the wrong type.
    case badRequest = "bad_request"
    /// `type` names no request.
    case unknownType = "unknown_type"
    /// `layout.set` or `view.update` would make an invalid layout; `problems` lists why.
    case invalidLayout = "invalid_layout"
    /// `view.update` names a view the layout does not have.
    case unknownView = "unknown_view"
    /// A request names a `screen` the daemon does not have, or names none where the daemon
    /// has several; the message lists the screens.
    case unknownScreen = "unknown_screen"
    /// `reload` found an invalid configuration; the running one is kept.
    case invalidConfig = "invalid_config"
    /// The client may not change the layout.
    case forbidden
    /// A line longer than the limit; the connection is closed.
    case lineTooLong = "line_too_long"
    /// The client did not read its events fast enough; the connection is closed.
    case slowConsumer = "slow_consumer"
    /// The daemon's budget for unfinished request lines over all clients is spent and this
    /// connection held the most; the connection is closed.
    case overloaded
}
