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
