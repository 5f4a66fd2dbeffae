import GestureCore
import Recordings

/// Replays one recording per screen (`gestured replay --screen ID=RECORDING`, repeated) as one
/// daemon of several screens would have run them: each screen its own ``Replayer`` (its own
/// pipeline, device, deadlines and recognizers), their steps merged by input time into one
/// stream with one `seq`, each event naming its screen (docs/architecture.md, "The host and its
/// pipelines").
///
/// Deterministic: the next step is the one of the screen whose next step (a raw event, a
/// deadline, the end of its recording) comes first in input time, and of two at the same
/// instant, the screen given first. Each screen's own order is exactly its single-screen
/// replay's. A step's cost does not grow with the number of screens beyond the choice among
/// them (at most 8, docs/limits.md).
public struct MergedReplay {
    /// The screens' ids, in the order given (written into their events).
    public let ids: [String]
    /// Each screen's replayer, beside its id. Reached only through a pointer: a replayer holds
    /// its pipeline inline (kilobytes), and an element read out of an array, or out of a tuple
    /// of one, was copied whole at every step (docs/performance.md, "Measured reasons behind
    /// the code's shape").
    private var replayers: [Replayer]
    private var lines: JSONLinesSink

    /// - Parameter writesRoutes: the configuration routes touches (each delivered touch's `route`).
    public init(screens: [(id: String, replayer: Replayer)], writesRoutes: Bool) {
        precondition(!screens.isEmpty, "a merged replay has at least one screen")
        ids = screens.map(\.id)
        replayers = screens.map(\.replayer)
        lines = JSONLinesSink(writesRoutes: writesRoutes)
    }

    /// Replays every screen to the end, handing JSON Lines to `output` in chunks of about
    /// 64 KiB. `stop` (SIGTERM) ends every screen's replay as recordings that end there would.
    /// With a `pacer` (`--realtime`) each step waits for its input time, what came before it
    /// handed to `output` first.
    public mutating func run(pacer: Pacer? = nil, stop: StopFlag? = nil, output: ([UInt8]) -> Void) {
        let ids = ids
        var lines = JSONLinesSink(writesRoutes: false)
        swap(&lines, &self.lines)
        defer { swap(&lines, &self.lines) }
        replayers.withUnsafeMutableBufferPointer { buffer in
            let replayers = buffer.baseAddress!
            let count = buffer.count
            /// The records of screen `index`'s pipeline to the one stream, named by the screen.
            func deliver(_ index: Int) {
                let replayer = replayers + index
                guard !replayer.pointee.pipeline.records.isEmpty else { return }
                lines.screen = ids[index]
                lines.consume(replayer.pointee.pipeline.records)
                replayer.pointee.pipeline.removeRecords()
            }
            // What opens each replay (its device added, the reader's first warnings), screen by screen.
            for index in 0..<count { deliver(index) }
            /// When screen `index` steps next (nil once it has finished): a screen whose next
            /// step does not wait (the end of its recording) steps at its current time.
            func nextTime(_ index: Int, stopping: Bool) -> Timestamp? {
                let replayer = replayers + index
                if replayer.pointee.isFinished { return nil }
                if stopping { return replayer.pointee.pipeline.currentTime }
                return replayer.pointee.nextStepTime ?? replayer.pointee.pipeline.currentTime
            }
            // Each screen's next time, kept: a step changes only the stepping screen's, so a
            // step costs one look at its replayer and a comparison per screen.
            var times = (0..<count).map { nextTime($0, stopping: false) }
            var stopped = false
            while true {
                let stopping = stop?.isSet == true
                if stopping && !stopped {
                    stopped = true
                    for index in 0..<count { times[index] = nextTime(index, stopping: true) }
                }
                // The screen whose step comes first in input time (ties: the first given).
                var best = -1
                var bestTime = Timestamp(microseconds: .max)
                for index in 0..<count {
                    guard let time = times[index] else { continue }
                    if best < 0 || time < bestTime {
                        best = index
                        bestTime = time
                    }
                }
                guard best >= 0 else { break }
                if let pacer, !stopping, let due = (replayers + best).pointee.nextStepTime {
                    if !lines.batch.bytes.isEmpty {
                        output(lines.batch.bytes)
                        lines.batch.removeAll()
                    }
                    pacer.wait(until: due)
                }
                if stopping { (replayers + best).pointee.requestStop() }
                _ = (replayers + best).pointee.step(stop: stop)
                times[best] = nextTime(best, stopping: stopping)
                deliver(best)
                if lines.batch.bytes.count >= 1 << 16 {
                    output(lines.batch.bytes)
                    lines.batch.removeAll()
                }
            }
        }
        if !lines.batch.bytes.isEmpty { output(lines.batch.bytes) }
        lines.batch.removeAll()
    }

    /// The first malformed line that ended a screen's recording early, with the screen's id.
    public var readError: (id: String, error: RecordingError)? {
        for (id, replayer) in zip(ids, replayers) { if let error = replayer.readError { return (id, error) } }
        return nil
    }

    /// Every screen's notices for the operator (``Replayer/takeNotices()``), each prefixed by its screen.
    public mutating func takeNotices() -> [String] {
        var notices: [String] = []
        for index in replayers.indices {
            let id = ids[index]
            notices += replayers[index].takeNotices().map { "screen \(id): \($0)" }
        }
        return notices
    }
}
