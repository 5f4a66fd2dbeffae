/// A point on the input timeline, in microseconds. Live input uses `CLOCK_MONOTONIC`,
/// recordings use their own timestamps; the engine only ever compares and subtracts them.
public struct Timestamp: Hashable, Comparable, Sendable {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }
    public init(seconds: Double) { microseconds = Int64((seconds * 1_000_000).rounded()) }

    public static let zero = Timestamp(microseconds: 0)

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool { lhs.microseconds < rhs.microseconds }

    public static func + (lhs: Timestamp, rhs: TimeSpan) -> Timestamp {
        Timestamp(microseconds: lhs.microseconds + rhs.microseconds)
    }

    public static func - (lhs: Timestamp, rhs: Timestamp) -> TimeSpan {
        TimeSpan(microseconds: lhs.microseconds - rhs.microseconds)
    }
}

/// A span of input time in microseconds. Configuration states durations in seconds.
public struct TimeSpan: Hashable, Comparable, Sendable {
    public var microseconds: Int64

    public init(microseconds: Int64) { self.microseconds = microseconds }
    public init(seconds: Double) { microseconds = Int64((seconds * 1_000_000).rounded()) }

    public var seconds: Double { Double(microseconds) / 1_000_000 }

    public static func < (lhs: TimeSpan, rhs: TimeSpan) -> Bool { lhs.microseconds < rhs.microseconds }
}
