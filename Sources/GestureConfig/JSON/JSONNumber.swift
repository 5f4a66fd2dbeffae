/// A number of a JSON5 or JSON text: its value, and the literal as written, so that a value
/// which a `Double` cannot hold exactly (a request `id` above 2^53) can be echoed unaltered.
public struct JSONNumber: Hashable, Sendable, CustomStringConvertible,
    ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
    /// The nearest `Double` (never infinite unless written `Infinity`).
    public var value: Double
    /// The characters of the number in the text (`12`, `-0.5`, `0x1F`, `Infinity`).
    public var literal: String

    public init(value: Double, literal: String) {
        (self.value, self.literal) = (value, literal)
    }

    public init(_ value: Double) {
        self.init(value: value, literal: JSONNumber.format(value))
    }

    public init(integerLiteral value: Int) { self.init(Double(value)) }
    public init(floatLiteral value: Double) { self.init(value) }

    /// True when ``literal`` is a number in JSON's own grammar (RFC 8259, section 6), so it
    /// can be written back into a JSON line as it is.
    public var literalIsJSON: Bool {
        var bytes = literal.utf8[...]
        if bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
        func digits() -> Int {
            let count = bytes.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }.count
            bytes = bytes.dropFirst(count)
            return count
        }
        let leading = bytes.first
        let whole = digits()
        guard whole > 0, !(leading == UInt8(ascii: "0") && whole > 1) else { return false }
        if bytes.first == UInt8(ascii: ".") {
            bytes = bytes.dropFirst()
            guard digits() > 0 else { return false }
        }
        if bytes.first == UInt8(ascii: "e") || bytes.first == UInt8(ascii: "E") {
            bytes = bytes.dropFirst()
            if bytes.first == UInt8(ascii: "+") || bytes.first == UInt8(ascii: "-") { bytes = bytes.dropFirst() }
            guard digits() > 0 else { return false }
        }
        return bytes.isEmpty
    }

    /// Numbers are equal by value, as JSON means them: `1`, `1.0` and `1e0` are one number.
    public static func == (lhs: JSONNumber, rhs: JSONNumber) -> Bool { lhs.value == rhs.value }
    public func hash(into hasher: inout Hasher) { hasher.combine(value) }

    public var description: String { literal }

    /// A number as a person would write it: `2`, not `2.0`.
    public static func format(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
