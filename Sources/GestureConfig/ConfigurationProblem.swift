import GestureCore

/// One problem in a configuration or layout file: the file, where in it (a key path, or a line
/// and column for syntax errors) and a sentence that says what to change.
public struct ConfigurationProblem: Hashable, Sendable, CustomStringConvertible {
    /// Where in the file a problem is.
    public enum Location: Hashable, Sendable {
        /// A key path such as `layout.subviews[2].recognizers[0].requireToFail[1]`.
        case keyPath(String)
        /// A syntax error, 1-based.
        case position(line: Int, column: Int)
        /// The file as a whole (it cannot be read, or is empty).
        case file
    }

    public var file: String
    public var location: Location
    /// Where in the file the key of a key-path problem is (or, for a missing key, the object
    /// that lacks it), when the problem comes from a file's text.
    public var position: SourcePosition?
    public var message: String

    public init(file: String, location: Location, position: SourcePosition? = nil, message: String) {
        (self.file, self.location, self.position, self.message) = (file, location, position, message)
    }

    /// A key-path problem of `file`.
    public init(file: String, _ problem: LayoutProblem) {
        self.init(file: file, location: problem.path.isEmpty ? .file : .keyPath(problem.path), message: problem.message)
    }

    /// `FILE:LINE:COLUMN: PATH: MESSAGE` (the form editors and terminals link to; `FILE: PATH:
    /// MESSAGE` for values that come from no text), `FILE:LINE:COLUMN: MESSAGE` for syntax
    /// errors, or `FILE: MESSAGE`.
    public var description: String {
        switch location {
        case .keyPath(let path):
            if let position { "\(file):\(position.line):\(position.column): \(path): \(message)" } else { "\(file): \(path): \(message)" }
        case .position(let line, let column): "\(file):\(line):\(column): \(message)"
        case .file: "\(file): \(message)"
        }
    }

    /// The problem as the core reports layout problems, for socket replies: the key path, or
    /// `FILE:LINE:COLUMN` for syntax errors.
    public var layoutProblem: LayoutProblem {
        switch location {
        case .keyPath(let path): LayoutProblem(path: path, message: message)
        case .position(let line, let column): LayoutProblem(path: "\(file):\(line):\(column)", message: message)
        case .file: LayoutProblem(path: file, message: message)
        }
    }
}
