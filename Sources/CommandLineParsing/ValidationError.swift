/// A command line that parses but breaks a command's rule (`--count is 0; use …`): printed with
/// the usage, and the process exits with status 64 (EX_USAGE).
public struct ValidationError: Error, CustomStringConvertible, Sendable {
    public var message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
