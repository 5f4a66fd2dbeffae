import GestureCore
import GestureSystem

/// The turn of a daemon of several screens (docs/architecture.md, "The host and its
/// pipelines"). Each screen's panel is read when the loop finds it readable, but not fed; once
/// the loop has run every handler of its wake-up, one turn steps the screens together in input
/// time, as ``MergedReplay`` steps recordings: the next step is the screen whose next event
/// read or due deadline comes first, and of two at the same instant the screen configured
/// first. So the one stream gives the screens' events in time order, and a live run equals the
/// merged replay of what its panels delivered.
///
/// What a turn cannot order: a frame that became readable after the wake-up's panels were
/// read, stamped before an event that turn wrote (docs/decisions.md, "Several screens live:
/// one turn"). A panel the loop did not find readable is not read: a frame on one screen costs
/// no system call on the others.
///
/// One screen does not use it: its runner reads and feeds its panel on its own.
final class LiveScreens {
    private let loop: EventLoop
    private let runners: [LiveRunner]
    private let sink: any EventSink
    private let stream: StreamLines
    private let clock: () -> Timestamp
    /// A turn waits for the end of the loop's wake-up, and when it was asked for.
    private var scheduled = false
    private var scheduledAt = Timestamp(microseconds: 0)
    /// The turn, made once: handing the loop a new closure at every wake-up would allocate.
    private var work: (() -> Void)?
    /// Each screen's next step in the turn (``LiveRunner/nextTurnStep(now:)``), kept between
    /// turns for its room.
    private var times: [Timestamp?] = []

    init(loop: EventLoop, runners: [LiveRunner], sink: any EventSink, stream: StreamLines,
         clock: @escaping () -> Timestamp) {
        self.loop = loop
        self.runners = runners
        self.sink = sink
        self.stream = stream
        self.clock = clock
        work = { [unowned self] in turn() }
    }

    /// A panel was read or a deadline came due: the turn runs once the loop has run the
    /// handlers of this wake-up (other panels read in it too).
    func schedule() {
        guard !scheduled, let work else { return }
        scheduled = true
        scheduledAt = clock()
        loop.runSoon(work)
    }

    /// One turn: the screens stepped in input time up to now, each read's end taken, one
    /// batch published.
    private func turn() {
        scheduled = false
        // As a single runner's read: without a client to filter for, no summaries.
        stream.lines.keepsSummaries = sink.wantsSummaries
        defer { stream.lines.keepsSummaries = true }
        // Now is when the turn was asked for, or the last event read if later: a deadline due
        // before an event read of another screen fires before it.
        var now = scheduledAt
        for runner in runners { if let time = runner.lastTimeRead, time > now { now = time } }
        times.removeAll(keepingCapacity: true)
        for runner in runners { times.append(runner.nextTurnStep(now: now)) }
        // A screen's next step changes only when it steps (``ScreenChoice``).
        var choice = ScreenChoice(times)
        while choice.best >= 0, let time = times[choice.best] {
            let best = choice.best
            runners[best].takeTurnStep(at: time)
            times[best] = runners[best].nextTurnStep(now: now)
            if !choice.stillFirst(times[best]) { choice = ScreenChoice(times) }
        }
        for runner in runners { runner.finishTurn() }
        for runner in runners { runner.publishTurn() }
    }
}

@available(*, unavailable, message: "LiveScreens lives on its event loop's thread")
extension LiveScreens: Sendable {}
