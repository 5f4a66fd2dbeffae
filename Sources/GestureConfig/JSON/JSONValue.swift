/// A JSON5 (or JSON) value as written in a file or a request, before it is read into typed
/// configuration values, so that every problem in it can be found and named by key path
/// instead of stopping at the first one as a `Decodable` model would. Built by ``JSONParser``,
/// which bounds its nesting (``JSONParser/maximumDepth``), so walking it by recursion is safe.
public enum JSONValue: Hashable, Sendable {
    /// Keys in no particular order; readers report problems in schema order instead.
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    /// JSON5 numbers, including hexadecimal, `Infinity` and `NaN`.
    case number(JSONNumber)
    case bool(Bool)
    case null

    /// How a problem message names this kind of value: "found a string".
    var kindDescription: String {
        switch self {
        case .object: "an object"
        case .array(let elements): elements.isEmpty ? "an empty array" : "an array of \(elements.count) elements"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }
}
