/// A count over the last 60 seconds in one-second buckets: touches and gestures per minute for
/// the health message. Time is an argument (monotonic microseconds), never read here.
public struct MinuteWindow: Sendable {
    private var buckets = [UInt32](repeating: 0, count: 60)
    /// The second (monotonic) the newest bucket is for.
    private var newest: Int64 = 0

    public init() {}

    private mutating func advance(to second: Int64) {
        guard second > newest else { return }
        let steps = min(second - newest, 60)
        for step in 1...steps { buckets[Int((newest + step) % 60)] = 0 }
        newest = second
    }

    public mutating func add(_ count: UInt32 = 1, at microseconds: Int64) {
        let second = microseconds / 1_000_000
        advance(to: second)
        guard newest - second < 60 else { return }
        buckets[Int(second % 60)] &+= count
    }

    public mutating func total(at microseconds: Int64) -> Int {
        advance(to: microseconds / 1_000_000)
        return buckets.reduce(0) { $0 + Int($1) }
    }
}
