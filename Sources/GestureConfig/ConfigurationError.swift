import GestureCore

/// A configuration or layout that cannot be used, with every problem found, one per line
/// when printed. A configuration that refers to a layout file can have problems in both files.
public struct ConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The file that was loaded (the configuration, or the name given to a layout's text).
    public var file: String
    public var problems: [ConfigurationProblem]

    /// At most ``LayoutLimits/maximumProblems`` problems are kept, and a last one says how
    /// many more there were: enough to fix a file in a few rounds, and a bounded reply.
    public init(file: String, problems: [ConfigurationProblem]) {
        self.file = file
        let limit = LayoutLimits.maximumProblems
        if problems.count > limit + 1 {
            let more = problems.count - limit
            self.problems = Array(problems.prefix(limit)) + [ConfigurationProblem(file: file, location: .file,
                message: "\(more) more problems are not listed (at most \(limit) are); fix these and check again")]
        } else {
            self.problems = problems
        }
    }

    /// The problems as the core reports layout problems (for `layout.set` replies).
    public var layoutProblems: [LayoutProblem] { problems.map(\.layoutProblem) }

    public var description: String { problems.map(\.description).joined(separator: "\n") }
}
