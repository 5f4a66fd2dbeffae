/// A program of subcommands (`gestured run`, `gestured tail` …) as help and usage see it.
struct ProgramDefinition: Sendable {
    var name: String
    var abstract: String
    var discussion: String
    /// `--version` prints it; every command's help then lists `--version`.
    var version: String?
    var subcommands: [CommandDefinition]

    /// `PROGRAM help [SUBCOMMAND]`, which every program of subcommands has.
    static let helpCommand = CommandDefinition(
        name: "help", abstract: "Show subcommand help information.",
        arguments: [ArgumentDefinition(kind: .positional, names: [], valueName: "subcommands", help: "",
                                       isOptional: true, isRepeating: true)])
}

/// Which command's help, usage or errors: the program itself, one of its subcommands, or its
/// `help` command.
enum CommandPath: Equatable {
    case program
    case subcommand(Int)
    case help

    func command(in program: ProgramDefinition) -> CommandDefinition {
        switch self {
        case .program: CommandDefinition(name: program.name, abstract: program.abstract, discussion: program.discussion)
        case .subcommand(let index): program.subcommands[index]
        case .help: ProgramDefinition.helpCommand
        }
    }
}
