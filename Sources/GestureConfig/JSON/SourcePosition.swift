/// A place in a text file, as editors and terminals show it: 1-based line and column, where
/// columns count Unicode scalars (a tab or an "é" is one column) and `\n`, `\r\n` and `\r`
/// each end a line.
public struct SourcePosition: Hashable, Sendable, Comparable, CustomStringConvertible {
    public var line: Int
    public var column: Int

    public init(line: Int, column: Int) {
        (self.line, self.column) = (line, column)
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    /// `LINE:COLUMN`.
    public var description: String { "\(line):\(column)" }
}
