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
