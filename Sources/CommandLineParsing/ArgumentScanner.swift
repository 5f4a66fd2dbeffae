/// Reads one command's words into its arguments' values, in one pass from left to right.
///
/// The grammar, as swift-argument-parser read it (the interface `gestured` keeps):
/// - `--` ends the options: every word after it is positional.
/// - `--name value` and `--name=value` give an option its value; `-o value` and `-o=value` a
///   short one. A flag takes no value (`--stdout=yes` is an error).
/// - An option's value is the next word, unless it starts with `-` (then it is missing) and the
///   option is not `.unconditional`; `-` alone is a value.
/// - `-h`, `--help`, `--experimental-dump-help` and `--version` are answered whatever else the
///   line holds (in that order of precedence), except an error found on the way: a missing value or a value
///   given to a flag.
/// - An unknown option is reported only when no built-in was asked for; a word too many or a
///   missing argument only when every value has its type (`ParsableCommand.make`).
///
/// No recursion; the work is linear in the number and length of the words.
struct ArgumentScanner {
    /// What the words ask for.
    enum Outcome: Equatable {
        /// The words of each argument (one per occurrence), and the first problem with the
        /// positional words (one too many, one missing), reported after the values' types are
        /// checked, as an invalid value usually explains it (`--wait-clients FILE`).
        case values([[String]], pending: UsageError?)
        case help
        case version
        case dumpHelp
        case error(UsageError)
    }

    let definition: CommandDefinition

    func scan(_ words: [String]) -> Outcome {
        let arguments = definition.arguments
        var values = [[String]](repeating: [], count: arguments.count)
        var positionals: [String] = []
        var help = false, version = false, dumpHelp = false
        var deferred: UsageError?
        let takesUnrecognized = arguments.contains { $0.kind == .positional && $0.parsing == .allUnrecognized }
        var index = 0
        var terminated = false
        while index < words.count {
            let word = words[index]
            index += 1
            if terminated || word == "-" || !word.hasPrefix("-") {
                positionals.append(word)
                continue
            }
            if word == "--" {
                terminated = true
                continue
            }
            // An option: its name, and a value attached with `=`.
            let isLong = word.hasPrefix("--")
            let body = word.dropFirst(isLong ? 2 : 1)
            let equals = body.firstIndex(of: "=")
            let nameText = String(body[..<(equals ?? body.endIndex)])
            let attached = equals.map { String(body[body.index(after: $0)...]) }
            let name: OptionName? = isLong ? (nameText.isEmpty ? nil : .long(nameText))
                : (nameText.count == 1 ? .short(nameText.first!) : nil)
            guard let name else {
                if takesUnrecognized { positionals.append(word); continue }
                deferred = deferred ?? unknownOption(word, isLong: isLong, nameText: nameText)
                continue
            }
            switch name {
            case .short("h"), .long("help"):
                help = true
                continue
            case .long("version"):
                version = true
                continue
            case .long("experimental-dump-help"):
                dumpHelp = true
                continue
            default:
                break
            }
            guard let position = arguments.firstIndex(where: { $0.kind != .positional && $0.names.contains(name) }) else {
                if takesUnrecognized { positionals.append(word); continue }
                deferred = deferred ?? unknownOption(word, isLong: isLong, nameText: nameText)
                continue
            }
            let argument = arguments[position]
            if argument.kind == .flag {
                if let attached {
                    return .error(UsageError("The option '\(name.synopsis)' does not take any value, but '\(attached)' was specified."))
                }
                values[position].append("")
                continue
            }
            let value: String
            if let attached {
                // `--config=` names the option and gives it nothing.
                guard !attached.isEmpty else { return .error(missingValue(argument, name: name)) }
                value = attached
            } else if index < words.count,
                      argument.parsing == .unconditional || words[index] == "-" || !words[index].hasPrefix("-") {
                value = words[index]
                index += 1
            } else {
                return .error(missingValue(argument, name: name))
            }
            values[position].append(value)
        }
        if help { return .help }
        if dumpHelp { return .dumpHelp }
        if version { return .version }
        if let deferred { return .error(deferred) }
        return assignPositionals(positionals, into: &values)
    }

    /// Positional words fill the positional arguments in order; a repeating one takes the rest.
    private func assignPositionals(_ words: [String], into values: inout [[String]]) -> Outcome {
        var remaining = words[...]
        for (position, argument) in definition.arguments.enumerated() where argument.kind == .positional {
            if argument.isRepeating {
                values[position] = Array(remaining)
                remaining = []
            } else if let word = remaining.popFirst() {
                values[position] = [word]
            }
        }
        if !remaining.isEmpty {
            if remaining.count == 1 { return .values(values, pending: UsageError("Unexpected argument '\(remaining.first!)'")) }
            let list = remaining.joined(separator: "', '")
            return .values(values, pending: UsageError("\(remaining.count) unexpected arguments: '\(list)'"))
        }
        for (position, argument) in definition.arguments.enumerated()
        where !argument.isOptional && values[position].isEmpty {
            return .values(values, pending: UsageError("Missing expected argument '\(argument.unadornedSynopsis)'",
                                                       help: Self.helpLine(argument, name: argument.preferredName)))
        }
        return .values(values, pending: nil)
    }

    private func missingValue(_ argument: ArgumentDefinition, name: OptionName) -> UsageError {
        UsageError("Missing value for '\(ArgumentScanner.label(argument, name: name))'", help: Self.helpLine(argument, name: name))
    }

    /// `--count <count>`, or `--queue-limit` alone for a hidden option (as help never shows it).
    static func label(_ argument: ArgumentDefinition, name: OptionName?) -> String {
        switch argument.kind {
        case .positional: "<\(argument.valueName)>"
        case .flag: name?.synopsis ?? ""
        case .option: (name?.synopsis ?? "") + (argument.isHidden ? "" : " <\(argument.valueName)>")
        }
    }

    /// `--count <count>  Exit after this many events.`; none for a hidden argument.
    static func helpLine(_ argument: ArgumentDefinition, name: OptionName?) -> String? {
        guard !argument.help.isEmpty, !argument.isHidden else { return nil }
        let label = argument.kind == .positional ? "<\(argument.valueName)>"
            : (name?.synopsis ?? "") + " <\(argument.valueName)>"
        return label + "  " + argument.help
    }

    /// "Unknown option '--sock'. Did you mean '--socket'?": the closest long name within three
    /// edits, compared without dashes (so `-socket` finds `--socket` too); a short option's
    /// value written against it (`-oout`) is shown apart (`-o out`).
    private func unknownOption(_ word: String, isLong: Bool, nameText: String) -> UsageError {
        let typed = isLong ? "--" + nameText : word
        if !isLong, let letter = word.dropFirst().first,
           definition.arguments.contains(where: { $0.kind == .option && $0.names.contains(.short(letter)) }) {
            return UsageError("Unknown option '\(typed)'. Did you mean '-\(letter) \(word.dropFirst(2))'?")
        }
        let candidates = definition.arguments.flatMap(\.names).compactMap { name -> String? in
            if case .long(let long) = name { return long }
            return nil
        }
        let key = nameText.lowercased()
        var best: (name: String, distance: Int)?
        // Long hostile words are compared with nothing: no name of ours is anywhere near.
        if !key.isEmpty && key.utf8.count <= 64 {
            for candidate in candidates {
                let distance = EditDistance.between(key, candidate)
                if distance < 4, distance < best?.distance ?? .max { best = (candidate, distance) }
            }
        }
        if let best { return UsageError("Unknown option '\(typed)'. Did you mean '--\(best.name)'?") }
        return UsageError("Unknown option '\(typed)'")
    }
}
