/// The parameters in force for one recognizer, every key of its kind set: what a recognizer
/// machine is built from. ``GestureSettings/resolved(_:)`` makes them from the kind's defaults
/// (``RecognizerKindMachine/defaults``, the one place each kind's numbers are written), the
/// global `gestures` overrides of its kind and the recognizer's own values, so a machine never
/// falls back on a value of its own. Durations are in seconds, distances in points, velocities
/// in points per second.
public struct ResolvedParameters: Hashable, Sendable {
    public let kind: RecognizerKind
    /// Every key of the kind's ``RecognizerKind/parameterKeys`` (and what
    /// ``RecognizerKindMachine/completing(_:settings:)`` added).
    public let values: RecognizerParameters

    init(kind: RecognizerKind, values: RecognizerParameters) {
        self.kind = kind
        self.values = values
    }

    /// The whole number in force for `key`. Every kind's defaults set all of its keys (a test
    /// checks it), so a missing one is a bug in the kind's file.
    func count(_ key: String) -> Int {
        guard let value = values.count(key) else { Self.missing(key, of: kind) }
        return value
    }

    /// The number in force for `key`.
    func number(_ key: String) -> Double {
        guard let value = values.number(key) else { Self.missing(key, of: kind) }
        return value
    }

    /// The words in force for `key`, as the values of `type`; words it does not know are left
    /// out (the configuration reader and the validator refuse them).
    func words<Word: RawRepresentable>(_ key: String, as type: Word.Type) -> [Word] where Word.RawValue == String {
        guard let words = values.words(key) else { Self.missing(key, of: kind) }
        return words.compactMap(Word.init(rawValue:))
    }

    private static func missing(_ key: String, of kind: RecognizerKind) -> Never {
        preconditionFailure("engine bug: the \(kind) kind's defaults do not set \(key)")
    }
}
