import GestureCore

/// What a reader says about a recording whose time goes back (``EventTimeClamp``): once where
/// it first happens, with the file and line, and once more when the file is read, counting
/// them all, if more than that one event went back. Never a warning per event: a file whose
/// every frame goes back gets two lines, not thousands.
struct TimeWarnings {
    /// The path errors name.
    let file: String
    /// Where the first and the last event that went back are: a line, or for a recording
    /// already in memory an event number.
    private var first: Place?
    private var last: Place?
    private var summarised = false

    private enum Place {
        case line(Int)
        case event(Int)
    }

    init(file: String) {
        self.file = file
    }

    /// An event stamped `stamp`, at `line` (nil for a recording in memory, where it is event
    /// number `event`), went on at `time`, the previous event's: the warning to give now, at
    /// the first one, else nil.
    mutating func wentBack(stamp: Timestamp, to time: Timestamp, line: Int?, event: Int) -> String? {
        let place = line.map(Place.line) ?? .event(event)
        last = place
        guard first == nil else { return nil }
        first = place
        // Saturating: a recording in memory may hold any times.
        let (back, overflow) = time.microseconds.subtractingReportingOverflow(stamp.microseconds)
        let message = "the time goes back here, from \(Self.seconds(time)) to \(Self.seconds(stamp)) ("
            + "\(Self.seconds(TimeSpan(microseconds: overflow ? .max : back))) s earlier: the kernel stamped events out of order, or the file was edited "
            + "or joined); an event earlier than the one before it is replayed at that event's time, so that no gesture "
            + "sees time go backwards"
        switch place {
        case .line(let number): return RecordingError(file: file, line: number, message: message).description
        case .event(let number): return RecordingError(file: file, line: nil, message: "event \(number): " + message).description
        }
    }

    /// Once the file is read: how many events went back, if more than the one already said.
    mutating func summary(of clamp: EventTimeClamp) -> String? {
        guard !summarised, clamp.eventsBack > 1, let first, let last else { return nil }
        summarised = true
        let places = clamp.stepsBack == 1 ? "in one place" : "in \(clamp.stepsBack) places"
        let span = switch (first, last) {
        case (.line(let from), .line(let to)): "lines \(from) to \(to)"
        case (.event(let from), .event(let to)): "events \(from) to \(to)"
        default: "the file"
        }
        return RecordingError(file: file, line: nil, message: "\(clamp.eventsBack) events \(places) went back in time "
            + "(\(span), at most \(Self.seconds(clamp.furthestBack)) s); each was replayed at the time of the event "
            + "before it").description
    }

    /// `sec.usec`, as the recorders write times.
    static func seconds(_ time: Timestamp) -> String {
        seconds(microseconds: time.microseconds)
    }

    static func seconds(_ span: TimeSpan) -> String {
        seconds(microseconds: span.microseconds)
    }

    private static func seconds(microseconds: Int64) -> String {
        let magnitude = microseconds.magnitude
        let fraction = String(magnitude % 1_000_000)
        return (microseconds < 0 ? "-" : "") + "\(magnitude / 1_000_000)."
            + String(repeating: "0", count: 6 - fraction.count) + fraction
    }
}
