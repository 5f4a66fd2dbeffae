/// A command as help, usage and parsing see it: its name, what it does, and its arguments in
/// the order help lists them; a group of commands has subcommands instead.
public struct CommandDefinition: Sendable {
    public var name: String
    /// One sentence: the help's OVERVIEW and the parent's list of subcommands.
    public var abstract: String
    /// Paragraphs after the abstract in the command's own help.
    public var discussion: String
    public var arguments: [ArgumentDefinition]
    public var subcommands: [CommandDefinition]

    public init(name: String, abstract: String, discussion: String = "", arguments: [ArgumentDefinition] = [],
                subcommands: [CommandDefinition] = []) {
        (self.name, self.abstract, self.discussion, self.arguments, self.subcommands) =
            (name, abstract, discussion, arguments, subcommands)
    }
}
