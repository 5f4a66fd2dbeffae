import GestureCore

/// Reading routing rules (docs/routing.md): the configuration's `routing` section and a view's
/// `routing` key. Ranges are the validator's (``LayoutValidator/routingProblems(in:at:)``), so
/// a layout a client sends is held to the same bounds as a file.
extension SchemaReader {
    static let routingKeys = ["default"]
    static let holdKeys = ["hold", "fingers", "distance"]
    static let ruleExpected = "\"claim\", \"forward\" or { hold: <seconds>, fingers?: N, distance?: <points or \"20mm\"> }"

    /// The top-level `routing: { default: … }`; nil when absent or unreadable.
    mutating func routing(_ value: JSONValue?, at path: String) -> RoutingConfiguration? {
        guard let value else { return nil }
        guard let members = object(value, at: path, expected: "an object { default: \"claim\" | \"forward\" | { hold: … } }") else {
            return nil
        }
        reportUnknownKeys(in: members, at: path, known: Self.routingKeys, what: "the routing section")
        let key = Self.path(path, "default")
        guard let rule = members["default"] else {
            missing(key, "add default: \"claim\" (touches are gestured's unless a view says otherwise) or \"forward\" "
                + "(touches reach the desktop unless a view claims them)")
            return nil
        }
        guard let read = routingRule(rule, at: key) else { return nil }
        append(LayoutValidator.routingProblems(in: read, at: key))
        return RoutingConfiguration(defaultRule: read)
    }

    /// A routing rule: `"claim"`, `"forward"`, or `{ hold, fingers?, distance? }`.
    mutating func routingRule(_ value: JSONValue?, at path: String) -> RoutingRule? {
        switch value {
        case nil:
            return nil
        case .string(let word):
            switch word {
            case "claim": return .claim
            case "forward": return .forward
            default:
                if word == "hold" {
                    report(path, "\"hold\" needs its time: write { hold: 0.15 } (seconds), with fingers or distance if needed")
                } else if let near = LayoutValidator.suggestion(for: word, among: ["claim", "forward", "hold"]) {
                    report(path, "\"\(word)\" is not a routing rule; did you mean \"\(near)\"?")
                } else {
                    report(path, "\"\(word)\" is not a routing rule; use \(Self.ruleExpected)")
                }
                return nil
            }
        case .object(let members):
            reportUnknownKeys(in: members, at: path, known: Self.holdKeys, what: "a hold rule")
            let holdKey = Self.path(path, "hold")
            guard members["hold"] != nil else {
                missing(holdKey, "add hold: <seconds> (how long the touch's frames wait, at most 1)")
                return nil
            }
            guard let seconds = number(members["hold"], at: holdKey, expected: "a number of seconds") else { return nil }
            var rule = HoldRule(seconds: seconds)
            let fingersKey = Self.path(path, "fingers")
            if members["fingers"] != nil {
                rule.fingers = integer(members["fingers"], at: fingersKey,
                                       expected: "a whole number of fingers from 2 to 10")
            }
            rule.distance = routingDistance(members["distance"], at: Self.path(path, "distance"))
            return .hold(rule)
        case let other?:
            mismatch(path, expected: Self.ruleExpected, found: other)
            return nil
        }
    }

    /// A hold's distance: points, `"20mm"`, or `{ mm: 20 }` as in the `gestures` section.
    mutating func routingDistance(_ value: JSONValue?, at path: String) -> RoutingDistance? {
        let expected = "a number of points, \"<N>mm\" or { mm: N }"
        switch value {
        case nil:
            return nil
        case .number(let number):
            return .points(number.value)
        case .string(let text):
            guard text.hasSuffix("mm"), let mm = Double(text.dropLast(2).trimmingSpaces), mm.isFinite else {
                report(path, "\"\(text)\" is not a distance; use \(expected)")
                return nil
            }
            return .millimetres(mm)
        case .object(let members):
            return millimetres(members, at: path).map { .millimetres($0) }
        case let other?:
            mismatch(path, expected: expected, found: other)
            return nil
        }
    }
}

private extension Substring {
    /// Without leading and trailing spaces ("20 mm").
    var trimmingSpaces: Substring {
        var text = self
        while text.first == " " { text.removeFirst() }
        while text.last == " " { text.removeLast() }
        return text
    }
}
