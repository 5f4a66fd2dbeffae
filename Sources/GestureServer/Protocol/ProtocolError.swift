/// The `code` of an error reply (SPEC 9), a word a client can branch on; the message says
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
    /// `reload` found an invalid configuration; the running one is kept.
    case invalidConfig = "invalid_config"
    /// The client may not change the layout.
    case forbidden
    /// A line longer than the limit; the connection is closed.
    case lineTooLong = "line_too_long"
    /// The client did not read its events fast enough; the connection is closed.
    case slowConsumer = "slow_consumer"
}

/// An error reply: its code, a sentence saying what to change, the request's `id` and, for
/// layouts and configurations, every problem with its key path.
public struct ProtocolError: Error, Hashable, Sendable {
    public var code: ProtocolErrorCode
    public var message: String
    /// The `id` of the request, when it could be read.
    public var requestID: RequestID?
    public var problems: [(path: String, message: String)]

    public init(_ code: ProtocolErrorCode, _ message: String, requestID: RequestID? = nil,
                problems: [(path: String, message: String)] = []) {
        self.code = code
        self.message = message
        self.requestID = requestID
        self.problems = problems
    }

    public static func == (lhs: ProtocolError, rhs: ProtocolError) -> Bool {
        lhs.code == rhs.code && lhs.message == rhs.message && lhs.requestID == rhs.requestID
            && lhs.problems.map(\.path) == rhs.problems.map(\.path)
            && lhs.problems.map(\.message) == rhs.problems.map(\.message)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(code)
        hasher.combine(message)
        hasher.combine(requestID)
    }
}

/// A request's `id`, echoed as `re` in its reply: a number or a string, as the client chose.
public enum RequestID: Hashable, Sendable {
    case number(Double)
    case string(String)
}
