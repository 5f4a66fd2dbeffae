/// Why a gesture script could not be rendered: the file, the 1-based line when there is one,
/// and what to change, like a recording error.
public struct ScriptError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based line number, or nil when the problem is the whole file.
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        self.file = file
        self.line = line
        self.message = message
    }

    /// `file:line: message`, or `file: message`.
    public var description: String {
        if let line { "\(file):\(line): \(message)" } else { "\(file): \(message)" }
    }
}
