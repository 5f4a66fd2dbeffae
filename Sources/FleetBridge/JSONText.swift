import GestureCore

/// A JSON object written key by key into bytes, for the payloads the sidecar publishes: keys
/// are any strings (view and recognizer ids), values are escaped by the daemon's own
/// ``JSONWriter/quoted(_:)``, and numbers use its formatting.
public struct JSONText {
    public private(set) var bytes: [UInt8] = [UInt8(ascii: "{")]
    private var first = true

    public init() {}

    private mutating func key(_ name: String) {
        if !first { bytes.append(UInt8(ascii: ",")) }
        first = false
        bytes += JSONWriter.quoted(name)
        bytes.append(UInt8(ascii: ":"))
    }

    public mutating func string(_ name: String, _ value: String) {
        key(name); bytes += JSONWriter.quoted(value)
    }

    public mutating func optionalString(_ name: String, _ value: String?) {
        if let value { string(name, value) } else { raw(name, Array("null".utf8)) }
    }

    public mutating func int(_ name: String, _ value: Int64) {
        key(name); bytes += Array(String(value).utf8)
    }

    public mutating func number(_ name: String, _ value: Double) {
        var writer = JSONWriter()
        writer.number(value)
        key(name); bytes += writer.bytes
    }

    public mutating func bool(_ name: String, _ value: Bool) {
        key(name); bytes += Array((value ? "true" : "false").utf8)
    }

    public mutating func strings(_ name: String, _ values: [String]) {
        key(name)
        bytes.append(UInt8(ascii: "["))
        for (index, value) in values.enumerated() {
            if index > 0 { bytes.append(UInt8(ascii: ",")) }
            bytes += JSONWriter.quoted(value)
        }
        bytes.append(UInt8(ascii: "]"))
    }

    /// `value` is already JSON (an object built by another ``JSONText``, a daemon line).
    public mutating func raw(_ name: String, _ value: some Collection<UInt8>) {
        key(name); bytes += value
    }

    public mutating func object(_ name: String, _ value: JSONText) {
        raw(name, value.finished)
    }

    /// The object with its closing brace.
    public var finished: [UInt8] { bytes + [UInt8(ascii: "}")] }
}
