/// A command that declares its arguments and runs: `gestured run`, `gestured tail`. Parsing
/// makes the command with `init()`, stores each argument given, calls `validate()`, then the
/// caller calls `run()`.
public protocol ParsableCommand {
    /// Every property at its default; the arguments given replace them.
    init()
    /// The name, abstract and discussion; arguments come from `arguments`.
    static var configuration: CommandConfiguration { get }
    /// In the order help and usage list them.
    static var arguments: [Argument<Self>] { get }
    /// Rules across arguments or on ranges; a `ValidationError` is a usage error (status 64).
    func validate() throws(ValidationError)
    func run() throws
}

extension ParsableCommand {
    public func validate() throws(ValidationError) {}

    /// The definition help, usage and the parser use, defaults read from `init()`.
    static var definition: CommandDefinition {
        let defaults = Self()
        return CommandDefinition(name: configuration.name, abstract: configuration.abstract,
                                 discussion: configuration.discussion,
                                 arguments: arguments.map { $0.resolvedDefinition(defaults: defaults) })
    }
}

extension ParsableCommand {
    /// The command with the words of each argument stored, then the scanner's pending problem
    /// thrown, then the command validated.
    static func make(from values: [[String]], pending: UsageError? = nil) throws(UsageError) -> any ParsableCommand {
        var command = Self()
        let defaults = command
        for (argument, words) in zip(arguments, values) where !words.isEmpty {
            if let invalid = argument.assign(&command, words) {
                let definition = argument.resolvedDefinition(defaults: defaults)
                let label = ArgumentScanner.label(definition, name: definition.preferredName)
                throw UsageError("The value '\(invalid)' is invalid for '\(label)'; use \(argument.expectation)",
                                 help: ArgumentScanner.helpLine(definition, name: definition.preferredName))
            }
        }
        if let pending { throw pending }
        do {
            try command.validate()
        } catch {
            throw UsageError(error.message)
        }
        return command
    }
}
