import GestureCore

/// Reading recognizers (docs/layout.md, "Recognizers") and their parameters out of JSON values.
/// Which parameters a kind takes, and in which unit, comes from ``RecognizerKind/parameterKeys``.
extension SchemaReader {
    /// The keys every recognizer takes, before its type's parameters.
    static let recognizerKeys = ["id", "type", "enabled", "cancelsTouchesInView", "delaysTouchesBegan",
                                 "delaysTouchesEnded", "requireToFail", "simultaneousWith", "claims"]

    /// Every parameter name of every type, to tell "belongs to another type" from a typo.
    static let allParameterNames: [String] = {
        var names: [String] = []
        for kind in RecognizerKind.allCases {
            for key in kind.parameterKeys where !names.contains(key.name) { names.append(key.name) }
        }
        return names
    }()

    /// The recognizer at `path`; unreadable values are reported and replaced by defaults.
    mutating func recognizer(_ value: JSONValue, at path: String) -> RecognizerSpec {
        guard let members = object(value, at: path, expected: "a recognizer object { id, type, … }") else {
            return RecognizerSpec(id: path, kind: .tap)
        }
        let key = { (name: String) in Self.path(path, name) }

        let id = layoutID(in: members, at: path, of: "recognizer")
        let kinds = RecognizerKind.allCases.map(\.rawValue)
        var kind: RecognizerKind? = nil
        if let value = members["type"] {
            kind = word(value, at: key("type"), as: RecognizerKind.self, naming: "a recognizer type")
        } else {
            missing(key("type"), "add type: one of \(Self.choices(kinds))")
        }

        var spec = RecognizerSpec(id: id, kind: kind ?? .tap)
        spec.enabled = bool(members["enabled"], at: key("enabled")) ?? true
        spec.cancelsTouchesInView = bool(members["cancelsTouchesInView"], at: key("cancelsTouchesInView"))
        spec.delaysTouchesBegan = bool(members["delaysTouchesBegan"], at: key("delaysTouchesBegan"))
        spec.delaysTouchesEnded = bool(members["delaysTouchesEnded"], at: key("delaysTouchesEnded"))
        spec.requireToFail = recognizerIDs(members["requireToFail"], at: key("requireToFail")) ?? []
        spec.simultaneousWith = recognizerIDs(members["simultaneousWith"], at: key("simultaneousWith")) ?? []
        spec.claims = bool(members["claims"], at: key("claims"))

        if let kind {
            var inPointsOnly: [MillimetreThresholds.Entry]? = nil
            spec.parameters = parameters(in: members, of: kind, at: path, millimetres: &inPointsOnly)
            reportUnknownParameterKeys(in: members, of: kind, at: path, known: Self.recognizerKeys)
        } else {
            // Without a type the parameters cannot be read, but typos can still be caught.
            reportUnknownKeys(in: members, at: path, known: Self.recognizerKeys + Self.allParameterNames,
                              what: "a recognizer")
        }
        return spec
    }

    /// `requireToFail` / `simultaneousWith`: recognizer ids.
    mutating func recognizerIDs(_ value: JSONValue?, at path: String) -> [String]? {
        array(value, at: path, expected: "an array of recognizer ids [\"…\"]") { reader, element, path in
            reader.string(element, at: path, expected: "a string (a recognizer id)")
        }
    }

    /// The parameters of type `kind` among `members` (a recognizer, or `gestures.<type>`), read
    /// in the order of the parameter table; ranges are the validator's (they apply to values
    /// built in code too). Distances given as `{ mm: N }` go to `millimetres`; where it is nil
    /// (a layout's recognizer) distances are in points only.
    mutating func parameters(in members: [String: JSONValue], of kind: RecognizerKind, at path: String,
                             millimetres: inout [MillimetreThresholds.Entry]?) -> RecognizerParameters {
        var parameters = RecognizerParameters()
        for parameter in kind.parameterKeys {
            guard let value = members[parameter.name] else { continue }
            let keyPath = Self.path(path, parameter.name)
            let read: ParameterValue?
            switch parameter.unit {
            case .count(let range, let noun):
                read = integer(value, at: keyPath, expected: "a whole number of \(noun) from \(range.lowerBound) to "
                    + "\(range.upperBound)").map(ParameterValue.count)
            case .seconds:
                read = number(value, at: keyPath, expected: "a number of seconds").map(ParameterValue.number)
            case .points:
                guard case .object(let distance) = value else {
                    read = number(value, at: keyPath, expected: "a number of points").map(ParameterValue.number)
                    break
                }
                read = nil
                guard millimetres != nil else {
                    report(keyPath, "a layout's distances are in points; give a number of points here, or set "
                        + "gestures.\(kind.rawValue).\(parameter.name) in the configuration in millimetres for every "
                        + "\(kind.rawValue) recognizer")
                    continue
                }
                if let mm = self.millimetres(distance, at: keyPath) {
                    millimetres?.append(MillimetreThresholds.Entry(
                        key: keyPath, target: .recognizer(kind, parameter: parameter.name), millimetres: mm))
                }
            case .pointsPerSecond:
                read = number(value, at: keyPath, expected: "a number of points per second").map(ParameterValue.number)
            case .radians:
                read = number(value, at: keyPath, expected: "a number of radians").map(ParameterValue.number)
            case .ratio:
                read = number(value, at: keyPath, expected: "a number (a ratio)").map(ParameterValue.number)
            case .words(let allowed, let noun):
                read = words(value, at: keyPath, among: allowed, naming: noun).map(ParameterValue.words)
            }
            if let read { parameters[parameter.name] = read }
        }
        return parameters
    }

    /// An array of words from `allowed` (`direction`, `edges`), all or nothing.
    mutating func words(_ value: JSONValue, at path: String, among allowed: [String], naming what: String) -> [String]? {
        let expected = "an array of " + Self.choices(allowed)
        let words = array(value, at: path, expected: expected) { reader, element, path in
            reader.word(element, at: path, among: allowed, naming: what)
        }
        // All or nothing: the words that could be read are not what the user meant either.
        guard case .array(let elements) = value, words?.count == elements.count else { return nil }
        return words
    }

    /// Unknown keys of an object that holds parameters of `kind`: a parameter of another type
    /// says so, anything else gets the usual suggestion.
    mutating func reportUnknownParameterKeys(in members: [String: JSONValue], of kind: RecognizerKind, at path: String,
                                             known common: [String]) {
        let own = kind.parameterKeys.map(\.name)
        let others = Self.allParameterNames.filter { !own.contains($0) }
        reportUnknownKeys(in: members, at: path, known: common + own, what: "a \(kind.rawValue) recognizer") { key in
            guard others.contains(key) else { return nil }
            return "\(key) is not a parameter of \(kind.rawValue) recognizers; remove it (\(kind.rawValue) takes "
                + (own.isEmpty ? "no parameters" : Self.list(own)) + ")"
        }
    }
}
