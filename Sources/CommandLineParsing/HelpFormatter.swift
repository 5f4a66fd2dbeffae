/// The help, usage and error texts of a program, laid out as swift-argument-parser laid them
/// out (the interface `gestured` keeps): an OVERVIEW, a USAGE line, then ARGUMENTS, OPTIONS and
/// SUBCOMMANDS with labels in a 26-column gutter, wrapped to the terminal's width.
struct HelpFormatter {
    /// Where abstracts start in the lists.
    static let labelColumnWidth = 26
    static let indent = 2

    let program: ProgramDefinition
    /// Columns to wrap to (the terminal's, or 80).
    let width: Int

    /// `[program]` for the program itself, `[program, subcommand]` for a subcommand.
    func help(for path: CommandPath) -> String {
        let command = path.command(in: program)
        var overview = command.abstract
        if !command.discussion.isEmpty {
            if !overview.isEmpty { overview += "\n" }
            overview += "\n" + command.discussion
        }
        let renderedOverview = overview.isEmpty ? "" : Self.wrap("OVERVIEW: " + overview, to: width) + "\n\n"
        let usage = usageLine(for: path)
        let renderedUsage = "USAGE: " + Self.hangingIndent(usage, by: 7) + "\n\n"

        let visible = command.arguments.filter { !$0.isHidden }
        var positionals = visible.filter { $0.kind == .positional }.map { ($0.helpLabel, $0.helpAbstract) }
        var options = visible.filter { $0.kind != .positional }.map { ($0.helpLabel, $0.helpAbstract) }
        if case .help = path {
            positionals = [("<subcommands>", "")]
            options = []
        }
        if program.version != nil { options.append(("--version", "Show the version.")) }
        if path != .help { options.append(("-h, --help", "Show help information.")) }
        var sections: [String] = []
        if !positionals.isEmpty { sections.append(section("ARGUMENTS", positionals)) }
        if !options.isEmpty { sections.append(section("OPTIONS", options)) }
        var subcommandMessage = ""
        if path == .program && !program.subcommands.isEmpty {
            sections.append(section("SUBCOMMANDS", program.subcommands.map { ($0.name, $0.abstract) }))
            subcommandMessage = "\n  See '\(program.name) help <subcommand>' for detailed help."
        }
        return renderedOverview + renderedUsage + sections.joined(separator: "\n") + subcommandMessage
    }

    /// `gestured run [--config <config>] … [--trace]`; a program with subcommands ends in
    /// `<subcommand>`.
    func usageLine(for path: CommandPath) -> String {
        let command = path.command(in: program)
        let name = path == .program ? program.name : program.name + " " + command.name
        if case .help = path { return name + " [<subcommands> ...]" }
        let visible = command.arguments.filter { !$0.isHidden }
        var synopsis: String
        if visible.isEmpty {
            synopsis = name
        } else if visible.count > 12 {
            // Too many to list: the ones that must be given, as argument-parser does.
            let required = visible.filter { $0.kind == .positional || !$0.isOptional }
            synopsis = required.isEmpty || required.count > 12 ? name + " <options>"
                : name + " [<options>] " + required.map(\.usageSynopsis).joined(separator: " ")
        } else {
            synopsis = name + " " + visible.map(\.usageSynopsis).joined(separator: " ")
        }
        if path == .program && !program.subcommands.isEmpty { synopsis += " <subcommand>" }
        return synopsis
    }

    /// What a usage error prints: the message, the argument's help, the usage and where to
    /// read more.
    func errorText(_ error: UsageError, for path: CommandPath) -> String {
        var text = "Error: \(error.message)\n"
        if let help = error.help { text += "Help:  \(help)\n" }
        text += "Usage: " + Self.hangingIndent(usageLine(for: path), by: 7)
        if path != .help {
            let name = path == .program ? program.name : program.name + " " + path.command(in: program).name
            text += "\n  See '\(name) --help' for more information."
        }
        return text
    }

    private func section(_ title: String, _ elements: [(label: String, abstract: String)]) -> String {
        var text = title + ":\n"
        for element in elements {
            let label = String(repeating: " ", count: Self.indent) + element.label
            text += label
            if !element.abstract.isEmpty {
                let wrapped = Self.wrap(element.abstract, to: width, indent: Self.labelColumnWidth)
                if label.count < Self.labelColumnWidth {
                    text += String(wrapped.dropFirst(label.count))
                } else {
                    text += "\n" + wrapped
                }
            }
            text += "\n"
        }
        return text
    }

    /// Wraps at spaces to `columns`, every line but empty ones indented by `indent`; a word
    /// longer than a line stands alone. Existing line breaks are kept. Linear in the text.
    static func wrap(_ text: String, to columns: Int, indent: Int = 0) -> String {
        let lineWidth = max(1, columns - indent)
        var lines: [Substring] = []
        var start = text.startIndex
        while true {
            let chunk = text[start...].prefix(lineWidth)
            if let lastBreak = chunk.lastIndex(of: "\n") {
                lines.append(contentsOf: text[start..<lastBreak].split(separator: "\n", omittingEmptySubsequences: false))
                start = text.index(after: lastBreak)
            } else if chunk.endIndex == text.endIndex {
                lines.append(text[start...])
                break
            } else if let lastSpace = chunk.lastIndex(of: " ") {
                lines.append(text[start..<lastSpace])
                start = text.index(after: lastSpace)
            } else if let nextSpace = text[start...].firstIndex(of: " ") {
                lines.append(text[start..<nextSpace])
                start = text.index(after: nextSpace)
            } else {
                lines.append(text[start...])
                break
            }
        }
        let padding = String(repeating: " ", count: indent)
        return lines.map { $0.isEmpty ? "" : padding + $0 }.joined(separator: "\n")
    }

    static func hangingIndent(_ text: String, by count: Int) -> String {
        let padding = String(repeating: " ", count: count)
        return text.split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().map { $0.offset == 0 || $0.element.isEmpty ? String($0.element) : padding + $0.element }
            .joined(separator: "\n")
    }
}
