/// A type an option or positional argument's text converts to.
public protocol ArgumentValue {
    /// `nil` when the text is not a value of this type.
    init?(argument: String)
    /// What a valid value looks like, for the error about an invalid one: "a whole number".
    static var expectation: String { get }
}

extension String: ArgumentValue {
    public init?(argument: String) { self = argument }
    public static var expectation: String { "any text" }
}

extension Int: ArgumentValue {
    /// Decimal digits with an optional sign, as `Int.init(_:)` reads them; out of range is invalid.
    public init?(argument: String) {
        guard let value = Int(argument) else { return nil }
        self = value
    }

    public static var expectation: String { "a whole number" }
}
