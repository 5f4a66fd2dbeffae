/// A program of subcommands and what its command line asks for: a command to run, a text to
/// print (help, the version, the help as JSON), or a usage error.
///
/// The interface is swift-argument-parser's, which `gestured` had before this module: `PROGRAM
/// SUBCOMMAND [OPTIONS] [ARGUMENTS]`, `-h`/`--help` on every command, `PROGRAM help
/// [SUBCOMMAND]`, `--version`, `--experimental-dump-help` (the JSON `generate-manual` reads),
/// and status 64 (EX_USAGE) for a usage error.
public struct CommandLineProgram {
    /// What to do with a command line.
    public enum Invocation {
        /// Parsed and validated: call `run()`.
        case run(any ParsableCommand)
        /// Help, the version or the JSON help: print on standard output and exit 0.
        case output(String)
        /// Print on standard error and exit with `CommandLineProgram.usageErrorStatus`.
        case usageError(String)
    }

    /// EX_USAGE from sysexits.h, as argument-parser exits.
    public static let usageErrorStatus: Int32 = 64

    let definition: ProgramDefinition
    let commands: [any ParsableCommand.Type]

    public init(name: String, abstract: String, discussion: String = "", version: String?,
                commands: [any ParsableCommand.Type]) {
        self.commands = commands
        definition = ProgramDefinition(name: name, abstract: abstract, discussion: discussion, version: version,
                                       subcommands: commands.map { $0.definition })
    }

    /// `words` are the arguments after the program's name; `width` is the terminal's columns.
    public func invocation(for words: [String], width: Int) -> Invocation {
        let formatter = HelpFormatter(program: definition, width: width)
        guard let first = words.first else { return .output(formatter.help(for: .program)) }
        if let index = definition.subcommands.firstIndex(where: { $0.name == first }) {
            return subcommandInvocation(index, Array(words.dropFirst()), formatter)
        }
        if first == "help" { return helpInvocation(Array(words.dropFirst()), formatter) }
        switch ArgumentScanner(definition: CommandPath.program.command(in: definition)).scan(words) {
        case .values(_, let pending?): return .usageError(formatter.errorText(pending, for: .program))
        case .help, .values: return .output(formatter.help(for: .program))
        case .version: return .output(versionText)
        case .dumpHelp: return .output(ToolInfoWriter(program: definition).json(for: .program))
        case .error(let error): return .usageError(formatter.errorText(error, for: .program))
        }
    }

    private var versionText: String { definition.version ?? "Unspecified version" }

    private func subcommandInvocation(_ index: Int, _ words: [String], _ formatter: HelpFormatter) -> Invocation {
        let path = CommandPath.subcommand(index)
        let command = definition.subcommands[index]
        switch ArgumentScanner(definition: command).scan(words) {
        case .help: return .output(formatter.help(for: path))
        case .version: return .output(versionText)
        case .dumpHelp: return .output(ToolInfoWriter(program: definition).json(for: path))
        case .error(let error): return .usageError(formatter.errorText(error, for: path))
        case .values(let values, let pending):
            do {
                return .run(try commands[index].make(from: values, pending: pending))
            } catch {
                return .usageError(formatter.errorText(error, for: path))
            }
        }
    }

    /// `help [SUBCOMMAND …]`: the first word that names a subcommand (or `help`) chooses whose
    /// help; otherwise the program's.
    private func helpInvocation(_ words: [String], _ formatter: HelpFormatter) -> Invocation {
        var version = false, dumpHelp = false
        var named: String?
        var terminated = false
        for word in words {
            if !terminated && word == "--" { terminated = true; continue }
            if !terminated && word.hasPrefix("-") && word != "-" {
                switch word {
                case "--version": version = true
                case "--experimental-dump-help": dumpHelp = true
                case "-h", "--help", "-help": break
                default:
                    return .usageError(formatter.errorText(UsageError("Unknown option '\(word)'"), for: .help))
                }
                continue
            }
            named = named ?? word
        }
        if dumpHelp { return .output(ToolInfoWriter(program: definition).json(for: .help)) }
        if version { return .output(versionText) }
        if named == "help" { return .output(formatter.help(for: .help)) }
        if let named, let index = definition.subcommands.firstIndex(where: { $0.name == named }) {
            return .output(formatter.help(for: .subcommand(index)))
        }
        return .output(formatter.help(for: .program))
    }
}
