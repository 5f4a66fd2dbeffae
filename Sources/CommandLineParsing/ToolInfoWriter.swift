/// `--experimental-dump-help`: the command's help as swift-argument-parser's ToolInfo JSON
/// (serialization version 0), which its `generate-manual` tool turns into the man page
/// (scripts/package-deb.sh). Keys sorted and pretty-printed as Foundation's JSONEncoder wrote
/// them, so the output is the same bytes as before.
struct ToolInfoWriter {
    let program: ProgramDefinition

    /// A JSON value with its object keys in order.
    private indirect enum Value {
        case string(String)
        case bool(Bool)
        case int(Int)
        case array([Value])
        case object([(String, Value)])
    }

    func json(for path: CommandPath) -> String {
        let root: Value = .object([("command", command(path, superCommands: path == .program ? [] : [program.name],
                                                       isTop: true)),
                                   ("serializationVersion", .int(0))])
        var text = ""
        write(root, indent: 0, into: &text)
        return text
    }

    private func command(_ path: CommandPath, superCommands: [String], isTop: Bool = false) -> Value {
        let definition = path.command(in: program)
        var arguments: [Value] = path == .help
            ? [argument(ProgramDefinition.helpCommand.arguments[0]), helpFlag(hidden: true)]
            : definition.arguments.map(argument)
        if program.version != nil { arguments.append(versionFlag) }
        if path != .help { arguments.append(helpFlag(hidden: false)) }
        var subcommands: [Value] = []
        let names = superCommands + [definition.name]
        if path == .program {
            subcommands = program.subcommands.indices.map { command(.subcommand($0), superCommands: names) }
        }
        // argument-parser adds its help command under the command it describes (not under that
        // command's subcommands).
        if isTop { subcommands.append(command(.help, superCommands: names)) }
        var fields: [(String, Value)] = []
        if !definition.abstract.isEmpty { fields.append(("abstract", .string(definition.abstract))) }
        fields.append(("arguments", .array(arguments)))
        fields.append(("commandName", .string(definition.name)))
        if !definition.discussion.isEmpty { fields.append(("discussion", .string(definition.discussion))) }
        fields.append(("shouldDisplay", .bool(true)))
        if !subcommands.isEmpty { fields.append(("subcommands", .array(subcommands))) }
        if !superCommands.isEmpty { fields.append(("superCommands", .array(superCommands.map(Value.string)))) }
        return .object(fields)
    }

    private func argument(_ argument: ArgumentDefinition) -> Value {
        let kind = switch argument.kind {
        case .flag: "flag"
        case .option: "option"
        case .positional: "positional"
        }
        let parsing = switch argument.parsing {
        case .normal: "default"
        case .unconditional: "unconditional"
        case .allUnrecognized: "allUnrecognized"
        }
        return describe(kind: kind, names: argument.names, abstract: argument.help, defaultValue: argument.defaultValue,
                        isOptional: argument.isOptional, isRepeating: argument.isRepeating, parsing: parsing,
                        shouldDisplay: !argument.isHidden, valueName: argument.valueName)
    }

    private var versionFlag: Value {
        describe(kind: "flag", names: [.long("version")], abstract: "Show the version.", shouldDisplay: true,
                 valueName: "version")
    }

    /// `-h, --help`; the help command's own, hidden, also answers `-help`.
    private func helpFlag(hidden: Bool) -> Value {
        var names: [Value] = [name(.short("h")), name(.long("help"))]
        if hidden { names.append(.object([("kind", .string("longWithSingleDash")), ("name", .string("help"))])) }
        return describe(kind: "flag", names: [], extraNames: names, abstract: hidden ? "" : "Show help information.",
                        preferred: .long("help"), shouldDisplay: !hidden, valueName: "help")
    }

    private func describe(kind: String, names: [OptionName], extraNames: [Value] = [], abstract: String,
                          defaultValue: String? = nil, isOptional: Bool = true, isRepeating: Bool = false,
                          parsing: String = "default", preferred: OptionName? = nil, shouldDisplay: Bool,
                          valueName: String) -> Value {
        var fields: [(String, Value)] = []
        if !abstract.isEmpty { fields.append(("abstract", .string(abstract))) }
        if let defaultValue, !defaultValue.isEmpty { fields.append(("defaultValue", .string(defaultValue))) }
        fields.append(("isOptional", .bool(isOptional)))
        fields.append(("isRepeating", .bool(isRepeating)))
        fields.append(("kind", .string(kind)))
        let allNames = names.map(name) + extraNames
        if !allNames.isEmpty { fields.append(("names", .array(allNames))) }
        fields.append(("parsingStrategy", .string(parsing)))
        if let preferredName = preferred ?? names.first(where: { !$0.isShort }) ?? names.first {
            fields.append(("preferredName", name(preferredName)))
        }
        fields.append(("shouldDisplay", .bool(shouldDisplay)))
        if !valueName.isEmpty { fields.append(("valueName", .string(valueName))) }
        return .object(fields)
    }

    private func name(_ name: OptionName) -> Value {
        switch name {
        case .long(let long): .object([("kind", .string("long")), ("name", .string(long))])
        case .short(let letter): .object([("kind", .string("short")), ("name", .string(String(letter)))])
        }
    }

    /// JSONEncoder's `.prettyPrinted`: two spaces a level, `"key" : value`. Depth is bounded by
    /// the command tree (five levels), not by input.
    private func write(_ value: Value, indent: Int, into text: inout String) {
        let padding = String(repeating: " ", count: indent + 2)
        switch value {
        case .string(let string): writeString(string, into: &text)
        case .bool(let bool): text += bool ? "true" : "false"
        case .int(let int): text += String(int)
        case .array(let items):
            text += "[\n"
            for (offset, item) in items.enumerated() {
                text += padding
                write(item, indent: indent + 2, into: &text)
                text += offset == items.count - 1 ? "\n" : ",\n"
            }
            text += String(repeating: " ", count: indent) + "]"
        case .object(let fields):
            text += "{\n"
            for (offset, (key, item)) in fields.enumerated() {
                text += padding
                writeString(key, into: &text)
                text += " : "
                write(item, indent: indent + 2, into: &text)
                text += offset == fields.count - 1 ? "\n" : ",\n"
            }
            text += String(repeating: " ", count: indent) + "}"
        }
    }

    /// Escapes as JSONEncoder does, `/` included.
    private func writeString(_ string: String, into text: inout String) {
        text += "\""
        for scalar in string.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "/": text += "\\/"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            case "\u{08}": text += "\\b"
            case "\u{0C}": text += "\\f"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: text.unicodeScalars.append(scalar)
            }
        }
        text += "\""
    }
}
