/// Text that is not valid JSON5 (or JSON): where the first problem is and a sentence that says
/// what is wrong and what to change.
public struct JSONSyntaxError: Error, Hashable, Sendable, CustomStringConvertible {
    public var position: SourcePosition
    public var message: String

    public init(position: SourcePosition, message: String) {
        (self.position, self.message) = (position, message)
    }

    public init(line: Int, column: Int, message: String) {
        self.init(position: SourcePosition(line: line, column: column), message: message)
    }

    /// `LINE:COLUMN: MESSAGE`.
    public var description: String { "\(position): \(message)" }
}
