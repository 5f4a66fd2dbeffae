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

/// A command's name and the text its help starts with.
public struct CommandConfiguration: Sendable {
    public var name: String
    public var abstract: String
    public var discussion: String

    public init(name: String, abstract: String, discussion: String = "") {
        self.name = name
        self.abstract = abstract
        self.discussion = discussion
    }
}

/// A command line that parses but breaks a command's rule (`--count is 0; use …`): printed with
/// the usage, and the process exits with status 64 (EX_USAGE).
public struct ValidationError: Error, CustomStringConvertible, Sendable {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
