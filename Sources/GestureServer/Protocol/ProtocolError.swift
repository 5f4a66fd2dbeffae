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
        (self.code, self.message, self.requestID, self.problems) = (code, message, requestID, problems)
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
