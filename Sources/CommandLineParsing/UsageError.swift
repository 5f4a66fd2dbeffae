/// A command line that does not parse (an unknown option, a missing value): the message, and
/// the help of the argument concerned when there is one. Printed with the usage; status 64.
public struct UsageError: Error, Equatable, Sendable {
    public var message: String
    /// `--count <count>  Exit after this many events.`: the argument's own help line.
    public var help: String?

    public init(_ message: String, help: String? = nil) {
        (self.message, self.help) = (message, help)
    }
}
