/// A shell-style pattern for view and recognizer ids in subscriptions (docs/protocol.md): `*`
/// matches any run of characters (also none), `?` exactly one, everything else itself.
/// `carousel*` matches `carousel` and `carouselPage2`.
///
/// Matching costs one step per character of the id whatever the pattern, with no
/// backtracking: the pattern's characters other than `*` (at most ``maximumTokens``) are the
/// bits of a word, and each character of the id
/// moves every partial match forward at once (the shift-and algorithm, with `*` as a bit that
/// may stay where it is). The classic backtracking match cost pattern × id steps for patterns
/// of many stars, on every event, for every subscriber.
public struct Glob: Hashable, Sendable, CustomStringConvertible {
    public let pattern: String
    /// Bit `i`: the pattern's `i`-th character that is not `*` (its "tokens").
    private let tokenCount: Int
    /// Tokens that are `?`: they match any character.
    private let anyMask: UInt64
    /// The literal tokens' characters, sorted, each with the bits of the tokens that are it.
    private let literals: [(scalar: UInt32, mask: UInt64)]
    /// Bit `i`: a `*` follows token `i`, so a match that reached it may take any character
    /// and stay.
    private let starAfter: UInt64
    /// A `*` before the first token.
    private let leadingStar: Bool
    /// No `*` or `?`: a plain comparison.
    private let isLiteral: Bool

    /// The most characters other than `*` a pattern may have: the bits of the word the match
    /// runs in.
    public static let maximumTokens = 64

    /// A pattern of at most ``maximumTokens`` characters other than `*`; the request reader
    /// refuses longer ones (``ServerLimits/maximumPatternLength``), and a longer pattern with
    /// `*` or `?` made in code matches nothing.
    public init(_ pattern: String) {
        self.pattern = pattern
        var count = 0, any: UInt64 = 0, stars: UInt64 = 0, leading = false
        var byScalar: [UInt32: UInt64] = [:]
        for scalar in pattern.unicodeScalars {
            if scalar == "*" {
                if count == 0 { leading = true } else { stars |= 1 << (count - 1) }
                continue
            }
            guard count < Self.maximumTokens else { count += 1; break }
            if scalar == "?" { any |= 1 << count } else { byScalar[scalar.value, default: 0] |= 1 << count }
            count += 1
        }
        tokenCount = count
        anyMask = any
        starAfter = stars
        leadingStar = leading
        literals = byScalar.map { ($0.key, $0.value) }.sorted { $0.scalar < $1.scalar }
        isLiteral = !pattern.contains("*") && !pattern.contains("?")
    }

    public var description: String { pattern }

    public func matches(_ text: String) -> Bool {
        if isLiteral { return text == pattern }
        guard tokenCount <= Self.maximumTokens else { return false }
        // `state` bit i: the first i + 1 tokens match a prefix of the text read so far;
        // `atStart`: the empty prefix of the pattern does (only while nothing was read, or
        // when the pattern begins with `*`).
        var state: UInt64 = 0
        var atStart = true
        for scalar in text.unicodeScalars {
            let moved = (state << 1) | (atStart ? 1 : 0)
            state = (moved & mask(for: scalar.value)) | (state & starAfter)
            atStart = atStart && leadingStar
            if state == 0 && !atStart { return false }
        }
        if tokenCount == 0 { return atStart }
        return state & (1 << (tokenCount - 1)) != 0
    }

    /// The tokens that match `scalar`: the `?`s and the literal ones equal to it.
    private func mask(for scalar: UInt32) -> UInt64 {
        var low = 0, high = literals.count
        while low < high {
            let middle = (low + high) / 2
            if literals[middle].scalar < scalar { low = middle + 1 } else { high = middle }
        }
        return anyMask | (low < literals.count && literals[low].scalar == scalar ? literals[low].mask : 0)
    }

    public static func == (lhs: Glob, rhs: Glob) -> Bool { lhs.pattern == rhs.pattern }

    public func hash(into hasher: inout Hasher) { hasher.combine(pattern) }
}
