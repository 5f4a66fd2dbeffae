import EvdevInput

/// The configuration fragment `gestured map` writes: `screens: [ { id, device }, … ]`, each
/// device selector carrying the keys ``PanelMatch`` chose (docs/configuration.md, "Binding
/// panels to screens: `gestured map`"). Every value is a JSON5 string literal, escaped, so any
/// phys or serial the kernel or udev reports reads back as itself.
enum MapFragment {
    static func text(_ bindings: [MapBinding]) -> String {
        var text = "// gestured map: the panel of each screen; merge into the configuration's screens "
            + "(docs/configuration.md, \"Binding panels to screens\")\n"
        text += "screens: [\n"
        for binding in bindings {
            text += "  {\n    id: \(quoted(binding.screen.id)),\n"
            switch binding.outcome {
            case .bound(let path, let name, let match):
                text += "    // \(quoted(path)) \(quoted(name)): \(match.reason)\n"
                text += "    device: \(selector(match.keys)),\n"
            case .ambiguous(let path, let name, let reason):
                text += "    // not bound: \(quoted(path)) \(quoted(name)) was touched, but \(reason)\n"
            case .unbound(let reason):
                text += "    // not bound: \(reason)\n"
            }
            text += "  },\n"
        }
        return text + "],\n"
    }

    /// The `device` object of `keys`.
    static func selector(_ keys: PanelMatch.Keys) -> String {
        let members: [(String, String)] = switch keys {
        case .idPath(let idPath): [("idPath", idPath)]
        case .serial(let serial, _, let vendor, let product, _):
            [("serial", serial), ("vendor", vendor), ("product", product)]
        case .phys(let phys, let vendor, let product, _): [("vendor", vendor), ("product", product), ("phys", phys)]
        case .model(let vendor, let product, _): [("vendor", vendor), ("product", product)]
        }
        return "{ " + members.map { "\($0.0): \(quoted($0.1))" }.joined(separator: ", ") + " }"
    }

    /// `value` as a JSON5 (and JSON) string literal: quotes, backslashes, control characters
    /// and the two line separators JavaScript reads as line ends escaped.
    static func quoted(_ value: String) -> String {
        var text = "\""
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\t": text += "\\t"
            case "\r": text += "\\r"
            case _ where scalar.value < 0x20 || scalar.value == 0x7f || scalar.value == 0x2028 || scalar.value == 0x2029:
                let digits = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - digits.count) + digits
            default: text.unicodeScalars.append(scalar)
            }
        }
        return text + "\""
    }
}
