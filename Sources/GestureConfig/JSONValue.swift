/// A JSON5 value as written in a file, before it is read into typed configuration values, so
/// that every problem in it can be found and named by key path instead of stopping at the
/// first one as a `Decodable` model would.
public enum JSONValue: Hashable, Sendable {
    /// Keys in no particular order: the decoder does not keep document order, so readers
    /// report problems in schema order instead.
    case object([String: JSONValue])
    case array([JSONValue])
    case string(String)
    /// JSON5 numbers, including hexadecimal, `Infinity` and `NaN`.
    case number(Double)
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

extension JSONValue: Decodable {
    /// Any key: objects are read whole and their keys checked against the schema afterwards.
    private struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }

    /// Tries each container kind in turn. Only the container probes are `try?`: an error
    /// inside a member (a malformed string, say) propagates, so the caller can locate it.
    public init(from decoder: any Decoder) throws {
        if let container = try? decoder.container(keyedBy: AnyKey.self) {
            var members: [String: JSONValue] = [:]
            for key in container.allKeys {
                members[key.stringValue] = try container.decode(JSONValue.self, forKey: key)
            }
            self = .object(members)
        } else if var container = try? decoder.unkeyedContainer() {
            var elements: [JSONValue] = []
            while !container.isAtEnd { elements.append(try container.decode(JSONValue.self)) }
            self = .array(elements)
        } else {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() {
                self = .null
            } else if let bool = try? container.decode(Bool.self) {
                self = .bool(bool)
            } else if let number = try? container.decode(Double.self) {
                self = .number(number)
            } else {
                self = .string(try container.decode(String.self))
            }
        }
    }
}
