/// A shell-style pattern for view and recognizer ids in subscriptions (SPEC 9): `*` matches
/// any run of characters (also none), `?` exactly one, everything else itself. `carousel*`
/// matches `carousel` and `carouselPage2`.
public struct Glob: Hashable, Sendable, CustomStringConvertible {
    public let pattern: String
    private let scalars: [Unicode.Scalar]
    private let isLiteral: Bool

    public init(_ pattern: String) {
        self.pattern = pattern
        scalars = Array(pattern.unicodeScalars)
        isLiteral = !pattern.contains("*") && !pattern.contains("?")
    }

    public var description: String { pattern }

    public func matches(_ text: String) -> Bool {
        if isLiteral { return text == pattern }
        let subject = Array(text.unicodeScalars)
        // The classic two-pointer match with backtracking to the last star: linear for
        // patterns with one star, quadratic at worst, no recursion.
        var p = 0, s = 0
        var star: Int?
        var resume = 0
        while s < subject.count {
            if p < scalars.count && (scalars[p] == "?" || scalars[p] == subject[s]) {
                p += 1; s += 1
            } else if p < scalars.count && scalars[p] == "*" {
                star = p; resume = s; p += 1
            } else if let star {
                p = star + 1; resume += 1; s = resume
            } else {
                return false
            }
        }
        while p < scalars.count && scalars[p] == "*" { p += 1 }
        return p == scalars.count
    }
}
