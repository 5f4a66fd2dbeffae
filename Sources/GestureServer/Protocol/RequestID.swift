import GestureConfig

/// A request's `id`, echoed as `re` in its reply: a string, or a number kept as the client
/// wrote it, so that any number (an integer above 2^53 included) comes back unaltered and the
/// client can match its reply (docs/protocol.md).
public enum RequestID: Hashable, Sendable {
    case number(JSONNumber)
    case string(String)
}
