/// A request's `id`, echoed as `re` in its reply: a number or a string, as the client chose.
public enum RequestID: Hashable, Sendable {
    case number(Double)
    case string(String)
}
