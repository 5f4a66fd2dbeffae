/// One thing wrong with a layout or configuration: where (a key path such as
/// `layout.subviews[2].recognizers[0].requireToFail[1]`, or `file:line:column` for syntax)
/// and a sentence that says what to change.
public struct LayoutProblem: Hashable, Sendable, CustomStringConvertible {
    public var path: String
    public var message: String

    public init(path: String, message: String) {
        (self.path, self.message) = (path, message)
    }

    public var description: String { "\(path): \(message)" }
}

/// A layout that failed validation, with every problem found.
public struct LayoutError: Error, Hashable, Sendable, CustomStringConvertible {
    public var problems: [LayoutProblem]

    public init(problems: [LayoutProblem]) {
        self.problems = problems
    }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
