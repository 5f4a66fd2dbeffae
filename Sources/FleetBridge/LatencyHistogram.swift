/// Frame-to-sidecar latency: the time from the kernel's time stamp of an input frame (an
/// event's `time`, `CLOCK_MONOTONIC` in a live daemon) to the sidecar reading the event, in
/// fixed buckets (docs/fleet.md, "Latency"). Only a live daemon's events are measured: a
/// replay's times are the recording's.
public struct LatencyHistogram: Sendable {
    /// Upper bounds, seconds: Prometheus' `le` labels.
    public static let bounds: [Double] = [0.001, 0.002, 0.005, 0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1]
    /// Per bucket (not cumulative); the last is +Inf.
    public private(set) var counts = [UInt64](repeating: 0, count: bounds.count + 1)
    public private(set) var sum: Double = 0
    public private(set) var count: UInt64 = 0

    public init() {}

    public mutating func observe(microseconds: Int64) {
        let seconds = Double(max(0, microseconds)) / 1_000_000
        let index = Self.bounds.firstIndex(where: { seconds <= $0 }) ?? Self.bounds.count
        counts[index] += 1
        sum += seconds
        count += 1
    }

    /// The bucket bound at or above the `fraction` quantile (0.5, 0.9, 0.99), seconds; `nil`
    /// with no observation, +infinity when it lies past the last bound.
    public func quantile(_ fraction: Double) -> Double? {
        guard count > 0 else { return nil }
        let rank = UInt64((Double(count) * fraction).rounded(.up))
        var seen: UInt64 = 0
        for (index, bucket) in counts.enumerated() {
            seen += bucket
            if seen >= max(rank, 1) { return index < Self.bounds.count ? Self.bounds[index] : .infinity }
        }
        return .infinity
    }
}
