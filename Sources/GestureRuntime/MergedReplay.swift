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
    /// The screens, in the order given: their ids (written into their events) and replayers.
    public private(set) var screens: [(id: String, replayer: Replayer)]
    private var lines: JSONLinesSink

    /// - Parameter writesRoutes: the configuration routes touches (each delivered touch's `route`).
    public init(screens: [(id: String, replayer: Replayer)], writesRoutes: Bool) {
        precondition(!screens.isEmpty, "a merged replay has at least one screen")
        self.screens = screens
        lines = JSONLinesSink(writesRoutes: writesRoutes)
    }

    /// Replays every screen to the end, handing JSON Lines to `output` in chunks of about
    /// 64 KiB. `stop` (SIGTERM) ends every screen's replay as recordings that end there would.
    public mutating func run(stop: StopFlag? = nil, output: ([UInt8]) -> Void) {
        // What opens each replay (its device added, the reader's first warnings), screen by screen.
        for index in screens.indices { deliver(index) }
        while let index = nextScreen(stopping: stop?.isSet == true) {
            if stop?.isSet == true { screens[index].replayer.requestStop() }
            _ = screens[index].replayer.step(stop: stop)
            deliver(index)
            if lines.batch.bytes.count >= 1 << 16 {
                output(lines.batch.bytes)
                lines.batch.removeAll()
            }
        }
        if !lines.batch.bytes.isEmpty { output(lines.batch.bytes) }
        lines.batch.removeAll()
    }

    /// The screen whose step comes first in input time (ties: the first given); nil once all
    /// have finished. A screen whose next step does not wait (the end of its recording) steps
    /// at its current time.
    private func nextScreen(stopping: Bool) -> Int? {
        var best: Int?
        var bestTime = Timestamp(microseconds: .max)
        for index in screens.indices where !screens[index].replayer.isFinished {
            let replayer = screens[index].replayer
            let time = stopping ? replayer.pipeline.currentTime : (replayer.nextStepTime ?? replayer.pipeline.currentTime)
            if best == nil || time < bestTime {
                best = index
                bestTime = time
            }
        }
        return best
    }

    /// The records of screen `index`'s pipeline to the one stream, named by the screen.
    private mutating func deliver(_ index: Int) {
        guard !screens[index].replayer.pipeline.records.isEmpty else { return }
        lines.screen = screens[index].id
        lines.consume(screens[index].replayer.pipeline.records)
        screens[index].replayer.pipeline.removeRecords()
    }

    /// The first malformed line that ended a screen's recording early, with the screen's id.
    public var readError: (id: String, error: RecordingError)? {
        for screen in screens { if let error = screen.replayer.readError { return (screen.id, error) } }
        return nil
    }

    /// Every screen's notices for the operator (``Replayer/takeNotices()``), each prefixed by its screen.
    public mutating func takeNotices() -> [String] {
        var notices: [String] = []
        for index in screens.indices {
            notices += screens[index].replayer.takeNotices().map { "screen \(screens[index].id): \($0)" }
        }
        return notices
    }
}
