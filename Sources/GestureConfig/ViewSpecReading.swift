import GestureCore

/// Reading views (docs/layout.md, "Views") out of JSON values.
extension SchemaReader {
    /// A view's keys in the order problems are reported. `subviews` comes last so a view's own
    /// problems (including its unknown keys) are listed before those of its subviews.
    static let viewKeys = ["id", "frame", "hidden", "alpha", "userInteractionEnabled", "hitOutset", "hitTest",
                           "passThrough", "kind", "handlesTouches", "multipleTouchEnabled", "exclusiveTouch",
                           "trackingSlop", "routing", "recognizers", "subviews"]

    static let frameNames = ["x", "y", "width", "height"]
    static let frameExpected = "an array of 4 numbers [x, y, width, height]"
    static let outsetNames = ["top", "left", "bottom", "right"]

    /// The view at `path`. Values that cannot be read are reported and replaced by defaults;
    /// a missing or unreadable id is replaced by the key path, which no real id collides with.
    mutating func view(_ value: JSONValue, at path: String) -> ViewSpec {
        guard let members = object(value, at: path, expected: "a view object { id, frame, … }") else {
            return ViewSpec(id: path, frame: Rect(x: 0, y: 0, width: 0, height: 0))
        }
        let key = { (name: String) in Self.path(path, name) }

        let id = layoutID(in: members, at: path, of: "view")

        var frame = Rect(x: 0, y: 0, width: 0, height: 0)
        if let value = members["frame"] {
            if let numbers = numbers(value, at: key("frame"), names: Self.frameNames, expected: Self.frameExpected) {
                frame = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
            }
        } else {
            missing(key("frame"), "add frame: [x, y, width, height] in the superview's coordinates")
        }

        var spec = ViewSpec(id: id, frame: frame)
        spec.hidden = bool(members["hidden"], at: key("hidden")) ?? false
        spec.alpha = number(members["alpha"], at: key("alpha"), expected: "a number from 0 to 1") ?? 1
        spec.userInteractionEnabled = bool(members["userInteractionEnabled"], at: key("userInteractionEnabled")) ?? true
        spec.hitOutset = hitOutset(members["hitOutset"], at: key("hitOutset")) ?? .zero
        spec.hitTest = hitTestOverride(members["hitTest"], at: key("hitTest")) ?? .default
        spec.passThrough = bool(members["passThrough"], at: key("passThrough")) ?? false
        spec.kind = word(members["kind"], at: key("kind"), as: ViewKind.self, naming: "a view kind") ?? .view
        spec.handlesTouchesOverride = bool(members["handlesTouches"], at: key("handlesTouches"))
        spec.multipleTouchEnabled = bool(members["multipleTouchEnabled"], at: key("multipleTouchEnabled")) ?? false
        spec.exclusiveTouch = bool(members["exclusiveTouch"], at: key("exclusiveTouch")) ?? false
        spec.trackingSlop = number(members["trackingSlop"], at: key("trackingSlop"), expected: "a number of points")
        spec.routing = routingRule(members["routing"], at: key("routing"))
        spec.recognizers = array(members["recognizers"], at: key("recognizers"),
                                 expected: "an array of recognizers [{ id, type, … }]") { reader, value, path in
            reader.recognizer(value, at: path)
        } ?? []
        reportUnknownKeys(in: members, at: path, known: Self.viewKeys, what: "a view")
        spec.subviews = array(members["subviews"], at: key("subviews"),
                              expected: "an array of views [{ id, frame, … }]") { reader, value, path in
            reader.view(value, at: path)
        } ?? []
        return spec
    }

    /// `hitOutset`: one number for every side, or `[top, left, bottom, right]`.
    mutating func hitOutset(_ value: JSONValue?, at path: String) -> EdgeInsets? {
        let expected = "a number or an array of 4 numbers [top, left, bottom, right]"
        switch value {
        case nil:
            return nil
        case .number(let amount):
            return EdgeInsets(all: amount.value)
        case .array:
            guard let sides = numbers(value, at: path, names: Self.outsetNames, expected: expected) else { return nil }
            return EdgeInsets(top: sides[0], left: sides[1], bottom: sides[2], right: sides[3])
        case let other?:
            mismatch(path, expected: expected, found: other)
            return nil
        }
    }

    /// `hitTest`: `"default"`, `"none"`, `"self"` or `{ redirect: "<id>" }` (docs/hit-testing.md,
    /// "Overrides").
    mutating func hitTestOverride(_ value: JSONValue?, at path: String) -> HitTestOverride? {
        let expected = "\"default\", \"none\", \"self\" or { redirect: \"<view id>\" }"
        switch value {
        case nil:
            return nil
        case .string(let word):
            switch word {
            case "default": return HitTestOverride.default
            case "none": return HitTestOverride.none
            case "self": return HitTestOverride.`self`
            default:
                let words = ["default", "none", "self"]
                if word == "redirect" {
                    report(path, "\"redirect\" is not a hit-test override; write { redirect: \"<view id>\" } to redirect")
                } else if let near = LayoutValidator.suggestion(for: word, among: words + ["redirect"]) {
                    if near == "redirect" {
                        report(path, "\"\(word)\" is not a hit-test override; write { redirect: \"<view id>\" } to redirect")
                    } else {
                        report(path, "\"\(word)\" is not a hit-test override; did you mean \"\(near)\"?")
                    }
                } else {
                    report(path, "\"\(word)\" is not a hit-test override; use \(expected)")
                }
                return nil
            }
        case .object(let members):
            let key = Self.path(path, "redirect")
            var target: String? = nil
            if let value = members["redirect"] {
                target = string(value, at: key, expected: "a string (the id of a descendant view)")
            } else {
                missing(key, "add redirect: \"<id of a descendant>\"")
            }
            reportUnknownKeys(in: members, at: path, known: ["redirect"], what: "a hit-test redirect")
            return target.map { .redirect($0) }
        case let other?:
            mismatch(path, expected: expected, found: other)
            return nil
        }
    }
}
