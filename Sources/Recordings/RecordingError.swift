/// Why a recording could not be read: the file, the 1-based line when there is one, and what
/// was expected there, so the user knows what to change.
public struct RecordingError: Error, Hashable, Sendable, CustomStringConvertible {
    public var file: String
    /// 1-based line number, or nil when the problem is the whole file (missing, unreadable,
    /// unrecognised format).
    public var line: Int?
    public var message: String

    public init(file: String, line: Int?, message: String) {
        (self.file, self.line, self.message) = (file, line, message)
    }

    /// `file:line: message`, or `file: message` for whole-file problems.
    public var description: String {
        if let line { "\(file):\(line): \(message)" } else { "\(file): \(message)" }
    }
}
