import GestureCore

/// The turn of a daemon of several screens (docs/architecture.md, "The host and its
/// pipelines"): whichever panel becomes readable, or whichever screen's deadline comes due,
/// every screen's panel is read, and then the screens are stepped together in input time, as
/// ``MergedReplay`` steps recordings: the next step is the screen whose next event read or due
/// deadline comes first, and of two at the same instant the screen configured first. So the one
/// stream gives the screens' events in time order, and a live run equals the merged replay of
/// what its panels delivered.
///
/// What one turn cannot order: an event the kernel delivers after a turn has written a later
/// event of another screen (it was not yet readable when the turn read). The turn runs as soon
/// as any panel is readable, so such an event is later than the one before it in the stream by
/// at most the time between two turns (docs/decisions.md, "Several screens live: one turn").
///
/// One screen does not use it: its runner reads and feeds its panel on its own, at no cost
/// for the others' existence.
final class LiveScreens {
    private let runners: [LiveRunner]
    private let sink: any EventSink
    private let stream: StreamLines
    private let clock: () -> Timestamp
    /// A turn is under way: a device change inside it (a panel reattached) reads on its own.
    private var turning = false
    /// Each screen's next step in the turn (``LiveRunner/nextTurnStep(now:)``), kept between
    /// turns for its room.
    private var times: [Timestamp?] = []

    init(runners: [LiveRunner], sink: any EventSink, stream: StreamLines, clock: @escaping () -> Timestamp) {
        self.runners = runners
        self.sink = sink
        self.stream = stream
        self.clock = clock
    }

    /// One turn: every panel read, the screens stepped in input time up to now, each read's
    /// end taken, one batch published.
    func turn() {
        guard !turning else { return }
        turning = true
        defer { turning = false }
        // As a single runner's read: without a client to filter for, no summaries.
        stream.lines.keepsSummaries = sink.wantsSummaries
        defer { stream.lines.keepsSummaries = true }
        for runner in runners { runner.readForTurn() }
        // After the reads: every event read is stamped by now, so a deadline due before an
        // event of another screen fires before it.
        let now = clock()
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
