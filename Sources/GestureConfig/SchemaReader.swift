import GestureCore

/// Reads typed values out of ``JSONValue``s by key path and collects every problem instead of
/// stopping at the first, so one run of `check-config` lists everything to fix.
///
/// A value that cannot be read is reported and replaced by the caller's default; its key path
/// is remembered so that the layout validator's findings about the placeholder are dropped.
struct SchemaReader {
    private(set) var problems: [LayoutProblem] = []
    /// Key paths whose value was reported and replaced by a placeholder.
    private(set) var replacedPaths: [String] = []

    mutating func report(_ path: String, _ message: String) {
        problems.append(LayoutProblem(path: path, message: message))
        replacedPaths.append(path)
    }

    /// Adds problems found by a validator (ranges, references), which replace nothing.
    mutating func append(_ found: [LayoutProblem]) {
        problems += found
    }

    /// Reports a value of the wrong type; `expected` names the type with its article.
    mutating func mismatch(_ path: String, expected: String, found: JSONValue) {
        var message = "expected \(expected), found \(found.kindDescription)"
        if case .null = found { message += "; remove the key to use the default" }
        report(path, message)
    }

    /// True when `path` is at or below a key path whose value was replaced.
    func isReplaced(_ path: String) -> Bool {
        replacedPaths.contains { replaced in
            path == replaced || path.hasPrefix(replaced + ".") || path.hasPrefix(replaced + "[")
        }
    }

    // MARK: Key paths

    /// `base.key`, or `key` at the top of a configuration; keys that are not identifiers are
    /// quoted (`layout["my key"]`) so the path stays unambiguous.
    static func path(_ base: String, _ key: String) -> String {
        // ASCII letters first: Unicode property lookups cost more than the rest of a path.
        let isIdentifier = !key.isEmpty && key.unicodeScalars.allSatisfy {
            ("a"..."z").contains($0) || ("A"..."Z").contains($0) || ("0"..."9").contains($0) || $0 == "_" || $0 == "$"
                || (!$0.isASCII && $0.properties.isAlphabetic)
        } && !("0"..."9").contains(key.unicodeScalars.first!)
        if !isIdentifier { return "\(base)[\"\(key)\"]" }
        return base.isEmpty ? key : "\(base).\(key)"
    }

    static func path(_ base: String, _ index: Int) -> String { "\(base)[\(index)]" }

    // MARK: Objects

    /// The members of an object, or `nil` (reported) when `value` is something else.
    mutating func object(_ value: JSONValue, at path: String, expected: String) -> [String: JSONValue]? {
        if case .object(let members) = value { return members }
        mismatch(path, expected: expected, found: value)
        return nil
    }

    /// Reports the keys of `members` that are not in `known`, sorted so the order does not
    /// depend on the decoder's, each with the closest known key when one is close.
    /// `what` names the object for the fallback advice ("a view").
    mutating func reportUnknownKeys(in members: [String: JSONValue], at path: String, known: [String], what: String,
                                    explain: (String) -> String? = { _ in nil }) {
        for key in members.keys.sorted() where !known.contains(key) {
            let keyPath = Self.path(path, key)
            if let explanation = explain(key) {
                report(keyPath, explanation)
            } else if let near = LayoutValidator.suggestion(for: key, among: known) {
                report(keyPath, "unknown key; did you mean \"\(near)\"?")
            } else {
                report(keyPath, "unknown key; remove it (\(what) takes \(Self.list(known)))")
            }
        }
    }

    /// `a, b, c` for messages.
    static func list(_ words: [String]) -> String { words.joined(separator: ", ") }

    /// `"a", "b" or "c"` for messages.
    static func choices(_ words: [String]) -> String {
        let quoted = words.map { "\"\($0)\"" }
        guard quoted.count > 1 else { return quoted.first ?? "" }
        return quoted.dropLast().joined(separator: ", ") + " or " + quoted.last!
    }

    /// A number as a person would write it in the file: `2`, not `2.0`.
    static func describe(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    /// The `id` of the view or recognizer (`what`) whose members are at `path`: a name unique in
    /// the layout. A missing or unreadable one is reported and replaced by the key path, which
    /// no real id collides with.
    mutating func layoutID(in members: [String: JSONValue], at path: String, of what: String) -> String {
        let key = Self.path(path, "id")
        guard let value = members["id"] else {
            missing(key, "add id: \"…\", a name that is unique in the layout")
            return path
        }
        return string(value, at: key, expected: "a string (the \(what)'s unique name)") ?? path
    }

    /// Reports a required key that is absent.
    mutating func missing(_ path: String, _ advice: String) {
        report(path, "missing; \(advice)")
    }

    // MARK: Scalars

    mutating func bool(_ value: JSONValue?, at path: String) -> Bool? {
        guard let value else { return nil }
        if case .bool(let bool) = value { return bool }
        mismatch(path, expected: "true or false", found: value)
        return nil
    }

    mutating func number(_ value: JSONValue?, at path: String, expected: String = "a number") -> Double? {
        guard let value else { return nil }
        if case .number(let number) = value { return number.value }
        mismatch(path, expected: expected, found: value)
        return nil
    }

    /// A whole number that fits `Int` (counts, device units); the range is checked by the
    /// caller, and `expected` says what it is ("a whole number of touches from 1 to 20").
    mutating func integer(_ value: JSONValue?, at path: String, expected: String = "a whole number") -> Int? {
        guard let number = number(value, at: path, expected: expected) else { return nil }
        guard number.isFinite, number == number.rounded() else {
            report(path, "\(Self.describe(number)) is not a whole number; use \(expected)")
            return nil
        }
        // 2^53: beyond it not every whole number is a Double, and Int(number) would trap
        // beyond 2^63.
        guard abs(number) <= 9_007_199_254_740_992, let integer = Int(exactly: number) else {
            report(path, "\(Self.describe(number)) is out of range; use \(expected)")
            return nil
        }
        return integer
    }

    mutating func string(_ value: JSONValue?, at path: String, expected: String = "a string") -> String? {
        guard let value else { return nil }
        if case .string(let string) = value { return string }
        mismatch(path, expected: expected, found: value)
        return nil
    }

    /// One of the words of an enumeration, by raw value.
    mutating func word<Word: RawRepresentable & CaseIterable>(_ value: JSONValue?, at path: String,
                                                                as type: Word.Type, naming what: String) -> Word?
    where Word.RawValue == String {
        word(value, at: path, among: Word.allCases.map(\.rawValue), naming: what).flatMap(Word.init(rawValue:))
    }

    /// One of `words` (a recognizer parameter's list); anything else is reported with the
    /// nearest word or the whole list.
    mutating func word(_ value: JSONValue?, at path: String, among words: [String], naming what: String) -> String? {
        guard let string = string(value, at: path, expected: Self.choices(words)) else { return nil }
        if words.contains(string) { return string }
        if let near = LayoutValidator.suggestion(for: string, among: words) {
            report(path, "\"\(string)\" is not \(what); did you mean \"\(near)\"?")
        } else {
            report(path, "\"\(string)\" is not \(what); use \(Self.choices(words))")
        }
        return nil
    }

    /// An array whose elements are read by `element`; elements that cannot be read are
    /// reported at their index and left out.
    mutating func array<Element>(_ value: JSONValue?, at path: String, expected: String,
                                 element: (inout SchemaReader, JSONValue, String) -> Element?) -> [Element]? {
        guard let value else { return nil }
        guard case .array(let elements) = value else {
            mismatch(path, expected: expected, found: value)
            return nil
        }
        var result: [Element] = []
        for (index, item) in elements.enumerated() {
            if let read = element(&self, item, Self.path(path, index)) { result.append(read) }
        }
        return result
    }

    /// An array of exactly `names.count` numbers (`frame`, `calibration`): all or nothing.
    mutating func numbers(_ value: JSONValue?, at path: String, names: [String], expected: String) -> [Double]? {
        guard let value else { return nil }
        guard case .array(let elements) = value else {
            mismatch(path, expected: expected, found: value)
            return nil
        }
        guard elements.count == names.count else {
            report(path, "expected \(expected), found \(value.kindDescription)")
            return nil
        }
        var numbers: [Double] = []
        for (index, element) in elements.enumerated() {
            if let number = number(element, at: Self.path(path, index), expected: "a number (\(names[index]))") {
                numbers.append(number)
            }
        }
        return numbers.count == names.count ? numbers : nil
    }
}
