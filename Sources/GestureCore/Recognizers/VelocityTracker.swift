/// Estimates how fast a tracked value (a translation, or a scale or rotation in `x`) moves,
/// per second, from its recent samples.
///
/// The estimate is a least-squares straight-line fit over the samples of the last 100 ms
/// (at most 20, at least 2), stopping at the first gap longer than 40 ms; when the newest
/// sample is more than 40 ms older than the time asked about, the value has stopped and the
/// velocity is zero. The horizon, history size and stop rule are Flutter's `VelocityTracker`
/// (`_horizonMilliseconds` 100, `_historySize` 20, `_assumePointerMoveStoppedMilliseconds`
/// 40). Flutter fits a quadratic and takes its slope at the newest sample; a straight line is
/// enough for 100 ms of finger motion, needs no matrix solve, and is exact for a steady move.
public struct VelocityTracker: Sendable {
    /// Only samples this close to the newest one are used (Flutter: 100 ms).
    public static let horizon = TimeSpan(microseconds: 100_000)
    /// A gap this long between samples, or since the newest one, means the finger stopped
    /// (Flutter: 40 ms).
    public static let assumeStopped = TimeSpan(microseconds: 40_000)
    /// The most samples kept (Flutter: 20).
    public static let historySize = 20

    private struct Sample: Sendable {
        var time: Timestamp
        var value: Point
    }

    /// A ring buffer, allocated once: `samples[newest]` is the latest sample.
    private var samples: [Sample] = []
    private var newest = -1

    public init() {
        samples.reserveCapacity(Self.historySize)
    }

    /// Records the value at a time; times should not go backwards.
    public mutating func add(_ value: Point, at time: Timestamp) {
        let sample = Sample(time: time, value: value)
        if samples.count < Self.historySize {
            samples.append(sample)
            newest = samples.count - 1
        } else {
            newest = (newest + 1) % Self.historySize
            samples[newest] = sample
        }
    }

    /// Records a one-dimensional value (scale, rotation); its velocity is `velocity(at:).x`.
    public mutating func add(_ value: Double, at time: Timestamp) {
        add(Point(x: value, y: 0), at: time)
    }

    /// Forgets every sample, keeping the buffer.
    public mutating func clear() {
        samples.removeAll(keepingCapacity: true)
        newest = -1
    }

    /// Units per second at `now` (normally the time of the newest sample, or of a lift).
    public func velocity(at now: Timestamp) -> Point {
        guard newest >= 0 else { return .zero }
        let last = samples[newest]
        if now - last.time > Self.assumeStopped { return .zero }
        // Walk back from the newest sample while the motion is continuous; times are taken
        // relative to the newest sample, in seconds, to keep the sums well conditioned.
        var n = 0.0, st = 0.0, sx = 0.0, sy = 0.0, stt = 0.0, stx = 0.0, sty = 0.0
        // The same sums in the same order as ever (the results are bit-identical); the
        // limits read once, the ring walked through a pointer without a division per sample
        // (a pan computes this at every frame's end).
        let horizon = Self.horizon.microseconds
        let stopped = Self.assumeStopped.microseconds
        let lastTime = last.time.microseconds
        samples.withUnsafeBufferPointer { ring in
            var previous = lastTime
            var index = newest
            for _ in 0..<ring.count {
                let s = ring[index]
                let time = s.time.microseconds
                if lastTime - time > horizon || previous - time > stopped { break }
                previous = time
                let t = TimeSpan(microseconds: time - lastTime).seconds
                n += 1
                st += t
                sx += s.value.x
                sy += s.value.y
                stt += t * t
                stx += t * s.value.x
                sty += t * s.value.y
                index = index == 0 ? ring.count - 1 : index - 1
            }
        }
        let denominator = n * stt - st * st
        guard n >= 2, denominator > 0 else { return .zero }
        return Point(x: (n * stx - st * sx) / denominator, y: (n * sty - st * sy) / denominator)
    }
}
