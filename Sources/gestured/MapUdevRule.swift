import EvdevInput

/// The udev rule `gestured map --udev-rule` writes: for each bound panel, matched by the same
/// keys as the fragment, `ENV{GESTURED_SCREEN}` and, when the screen has them, `ENV{WL_OUTPUT}`
/// and `ENV{LIBINPUT_CALIBRATION_MATRIX}`: the properties compositors and libinput read to put
/// a touchscreen on its output (docs/configuration.md, "Binding panels to screens").
///
/// udev's rule syntax (udev(7)) has no escapes in the `"…"` of older udev (Debian 12's 252
/// reads `\` literally unless the value is written `e"…"`), reads `*`, `?`, `[…]` and `|` in a
/// match value as a pattern, and substitutes `%` and `$` in an assigned value. So a match
/// value holding a quote, a backslash, a control character or a pattern character is refused
/// (the panel is then bound in the configuration only), and `%`, `$` in an assigned value are
/// doubled, as udev(7) says to write them.
enum MapUdevRule {
    /// The property every rule sets: the screen's id.
    static let screenProperty = "GESTURED_SCREEN"
    /// The longest value a rule carries (udev's own line limit is larger; ID_PATH and phys are
    /// well under 100 bytes).
    static let maximumValueBytes = 256
    /// Where the rule goes: after systemd's `60-persistent-input.rules`, which sets ID_PATH
    /// and ID_SERIAL that the rule matches.
    static let suggestedPath = "/etc/udev/rules.d/61-gestured-screens.rules"

    /// A screen the rule leaves out, and why.
    struct Problem: Error, Hashable, Sendable {
        var screen: String
        var message: String
    }

    /// The rule file's text, and the bound screens it leaves out.
    static func text(_ bindings: [MapBinding]) -> (text: String, problems: [Problem]) {
        var text = "# gestured map: the screen of each touch panel (docs/configuration.md, \"Binding panels to screens\").\n"
            + "# Install as \(suggestedPath), then: udevadm control --reload && udevadm trigger --subsystem-match=input\n"
        var problems: [Problem] = []
        for binding in bindings {
            guard case .bound(_, _, let match) = binding.outcome else { continue }
            switch line(binding.screen, match) {
            case .success(let rule):
                text += "# screen \"\(binding.screen.id)\": \(match.reason)\n" + rule + "\n"
            case .failure(let problem):
                problems.append(problem)
                text += "# screen \"\(binding.screen.id)\": left out, \(problem.message)\n"
            }
        }
        return (text, problems)
    }

    /// One rule: the panel's match keys, then the assignments.
    static func line(_ screen: MapScreen, _ match: PanelMatch) -> Result<String, Problem> {
        var matches: [(key: String, value: String, name: String)] = []
        func model(_ vendor: String, _ product: String, fromUdev: Bool) {
            if fromUdev {
                matches.append(("ENV{\(PanelIdentity.vendorProperty)}", vendor, "vendor"))
                matches.append(("ENV{\(PanelIdentity.productProperty)}", product, "product"))
            } else {
                // The input device's id, which sysfs prints as four lowercase hex digits.
                matches.append(("ATTRS{id/vendor}", vendor, "vendor"))
                matches.append(("ATTRS{id/product}", product, "product"))
            }
        }
        switch match.keys {
        case .idPath(let idPath):
            matches.append(("ENV{\(PanelIdentity.idPathProperty)}", idPath, "ID_PATH"))
        case .serial(let serial, let property, let vendor, let product, let fromUdev):
            matches.append(("ENV{\(property)}", serial, property))
            model(vendor, product, fromUdev: fromUdev)
        case .phys(let phys, let vendor, let product, let fromUdev):
            model(vendor, product, fromUdev: fromUdev)
            // The event node's parent, the input device, has the phys attribute.
            matches.append(("ATTRS{phys}", phys, "phys"))
        case .model(let vendor, let product, let fromUdev):
            model(vendor, product, fromUdev: fromUdev)
        }
        var rule = #"ACTION!="remove", SUBSYSTEM=="input", KERNEL=="event*""#
        for match in matches {
            if let problem = matchProblem(match.value) {
                return .failure(Problem(screen: screen.id, message: "its \(match.name) \(problem)"))
            }
            rule += ", \(match.key)==\"\(match.value)\""
        }
        rule += ", ENV{\(screenProperty)}=\"\(assigned(screen.id))\""
        if let output = screen.output {
            guard assignProblem(output) == nil else {
                return .failure(Problem(screen: screen.id, message: "its output \(assignProblem(output)!)"))
            }
            rule += ", ENV{WL_OUTPUT}=\"\(assigned(output))\""
        }
        if let calibration = screen.calibration {
            rule += ", ENV{LIBINPUT_CALIBRATION_MATRIX}=\"\(calibration.map(number).joined(separator: " "))\""
        }
        return .success(rule)
    }

    /// Why `value` cannot be matched exactly in a rule, or nil.
    static func matchProblem(_ value: String) -> String? {
        if let problem = assignProblem(value) { return problem }
        if let pattern = value.unicodeScalars.first(where: { "*?[]|".unicodeScalars.contains($0) }) {
            return "holds '\(pattern)', which udev reads as a pattern, so the rule cannot match it exactly; "
                + "bind this panel with the configuration fragment alone"
        }
        return nil
    }

    /// Why `value` cannot be written between a rule's quotes, or nil.
    static func assignProblem(_ value: String) -> String? {
        if value.utf8.count > maximumValueBytes {
            return "is \(value.utf8.count) bytes long, more than the \(maximumValueBytes) a rule value may have"
        }
        if value.unicodeScalars.contains(where: { $0.value < 0x20 || $0.value == 0x7f || $0 == "\"" || $0 == "\\" }) {
            return "holds a quote, a backslash or a control character, which a udev rule's \"…\" cannot carry; "
                + "bind this panel with the configuration fragment alone"
        }
        return nil
    }

    /// `value` for an assignment: udev substitutes `%x` and `$name`, and reads `%%`, `$$` as
    /// the characters themselves.
    static func assigned(_ value: String) -> String {
        var text = ""
        for character in value {
            if character == "%" || character == "$" { text.append(character) }
            text.append(character)
        }
        return text
    }

    /// A coefficient as libinput reads it (strtod): an integer without a fraction, otherwise
    /// Swift's shortest round-tripping decimal.
    static func number(_ value: Double) -> String {
        if value == value.rounded(), abs(value) < 1e15 { return String(Int64(value)) }
        return String(value)
    }
}
