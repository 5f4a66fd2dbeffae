/// A gesture recognizer attached to a view, as the layout declares it (docs/layout.md).
public struct RecognizerSpec: Hashable, Sendable {
    /// Unique in the layout; names the recognizer in every gesture event.
    public var id: String
    public var kind: RecognizerKind
    public var enabled: Bool
    /// `nil`: the default (`true`).
    public var cancelsTouchesInView: Bool?
    /// `nil`: the default (`false`).
    public var delaysTouchesBegan: Bool?
    /// `nil`: the default (`true`).
    public var delaysTouchesEnded: Bool?
    public var requireToFail: [String]
    public var simultaneousWith: [String]
    /// This recognizer's own parameter values; anything unset comes from the global
    /// `gestures` overrides, then from ``GestureSettings`` defaults.
    public var parameters: RecognizerParameters
    /// A *claiming* recognizer (docs/routing.md): when it begins or recognizes, its touches
    /// become gestured's alone, forwarded ones cancelled on the virtual panel. `nil`: `false`.
    public var claims: Bool?

    public init(id: String, kind: RecognizerKind, enabled: Bool = true, cancelsTouchesInView: Bool? = nil,
                delaysTouchesBegan: Bool? = nil, delaysTouchesEnded: Bool? = nil, requireToFail: [String] = [],
                simultaneousWith: [String] = [], parameters: RecognizerParameters = RecognizerParameters(),
                claims: Bool? = nil) {
        self.id = id
        self.kind = kind
        self.enabled = enabled
        self.cancelsTouchesInView = cancelsTouchesInView
        self.delaysTouchesBegan = delaysTouchesBegan
        self.delaysTouchesEnded = delaysTouchesEnded
        self.requireToFail = requireToFail
        self.simultaneousWith = simultaneousWith
        self.parameters = parameters
        self.claims = claims
    }
}

/// Parameter values of recognizers by configuration key, each optional: used both for one
/// recognizer's own values and for the global overrides of one kind (`gestures.tap`, …).
/// Which keys a kind accepts, in which unit and range, is its ``RecognizerKind/parameterKeys``.
/// Durations are in seconds, distances in points, velocities in points per second.
public struct RecognizerParameters: Hashable, Sendable, ExpressibleByDictionaryLiteral {
    /// The values set, by key.
    public private(set) var values: [String: ParameterValue]

    public init(_ values: [String: ParameterValue] = [:]) {
        self.values = values
    }

    public init(dictionaryLiteral elements: (String, ParameterValue)...) {
        values = Dictionary(elements, uniquingKeysWith: { _, last in last })
    }

    /// The value set for `key`, or nil.
    public subscript(key: String) -> ParameterValue? {
        get { values[key] }
        set { values[key] = newValue }
    }

    public var isEmpty: Bool { values.isEmpty }

    /// A whole number set for `key` (a count), or nil.
    public func count(_ key: String) -> Int? {
        if case .count(let value) = values[key] { value } else { nil }
    }

    /// A number set for `key` (a count is a number too), or nil.
    public func number(_ key: String) -> Double? {
        switch values[key] {
        case .number(let value): value
        case .count(let value): Double(value)
        case .words, nil: nil
        }
    }

    /// Words set for `key` (`direction`, `edges`), or nil.
    public func words(_ key: String) -> [String]? {
        if case .words(let value) = values[key] { value } else { nil }
    }

    /// Values set here win over values set in `base`.
    public func overriding(_ base: RecognizerParameters) -> RecognizerParameters {
        RecognizerParameters(base.values.merging(values) { _, own in own })
    }
}

/// One parameter value as a configuration file states it.
public enum ParameterValue: Hashable, Sendable, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral,
                            ExpressibleByArrayLiteral {
    /// A whole number (taps, touches).
    case count(Int)
    /// A measure in the key's unit.
    case number(Double)
    /// Words from the key's list (`["left", "up"]`).
    case words([String])

    public init(integerLiteral value: Int) { self = .count(value) }
    public init(floatLiteral value: Double) { self = .number(value) }
    public init(arrayLiteral elements: String...) { self = .words(elements) }

    /// A count equals the same number: `slop: 12` written in code is the `12` a file gives.
    public static func == (lhs: ParameterValue, rhs: ParameterValue) -> Bool {
        switch (lhs, rhs) {
        case (.count(let a), .count(let b)): a == b
        case (.count(let a), .number(let b)), (.number(let b), .count(let a)): Double(a) == b
        case (.number(let a), .number(let b)): a == b || (a.isNaN && b.isNaN)
        case (.words(let a), .words(let b)): a == b
        case (.count, .words), (.number, .words), (.words, .count), (.words, .number): false
        }
    }

    public func hash(into hasher: inout Hasher) {
        switch self {
        case .count(let value): hasher.combine(Double(value))
        case .number(let value): hasher.combine(value.isNaN ? .nan : value)
        case .words(let value): hasher.combine(value)
        }
    }
}

/// One configurable parameter of a recognizer kind: its name in configuration files and the
/// unit and range of its value.
public struct ParameterKey: Sendable {
    public var name: String
    public var unit: ParameterUnit

    public init(_ name: String, _ unit: ParameterUnit) {
        self.name = name
        self.unit = unit
    }
}

/// The unit of a parameter value, with its range (docs/limits.md).
public enum ParameterUnit: Sendable {
    /// A whole number in the range; the noun says what is counted ("taps", "touches").
    case count(ClosedRange<Int>, noun: String)
    /// Seconds, ``LayoutLimits/seconds``.
    case seconds
    /// Points, ``LayoutLimits/distance``; a `gestures` section may give millimetres.
    case points
    /// Points per second, ``LayoutLimits/velocity``.
    case pointsPerSecond
    /// Radians, ``LayoutLimits/radians``.
    case radians
    /// A dimensionless ratio, ``LayoutLimits/ratio``.
    case ratio
    /// A non-empty array of the words; the noun names one ("a swipe direction").
    case words([String], noun: String)
}
