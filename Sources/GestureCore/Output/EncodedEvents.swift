/// A batch of events encoded once as JSON Lines (docs/events.md), each line already carrying its
/// `seq`, with what subscription filters look at in each: the one form in which the event
/// stream leaves its producer, for stdout and the socket's subscribers alike. The socket
/// server filters per subscriber and queues byte ranges of ``bytes`` (copy-on-write: every
/// queue shares the one buffer).
public struct EncodedEvents: Sendable {
    /// One event: its summary and where its line (newline included) lies in ``EncodedEvents/bytes``.
    public struct Event: Sendable {
        public var summary: EventSummary
        public var range: Range<Int>
    }

    /// The lines of every event, in order.
    public private(set) var bytes: [UInt8] = []
    public private(set) var events: [Event] = []
    /// What the producer let go of with this batch (a replaced layout, a dropped layout's
    /// recognizers): the server releases it on its worker thread, off the loop.
    public var released = ReleasedStorage()

    public init() {}

    public var isEmpty: Bool { events.isEmpty }

    /// A ``JSONLinesSink``'s batch, kept with its summaries: each event with what filters look at.
    public init(_ output: JSONLinesBatch) {
        precondition(output.summaries.count == output.lines.count,
                     "gestured bug: a batch for the server must keep every event's summary (JSONLinesSink.keepsSummaries)")
        bytes = output.bytes
        released = output.released
        events.reserveCapacity(output.lines.count)
        for (summary, range) in zip(output.summaries, output.lines) { events.append(Event(summary: summary, range: range)) }
    }

    /// Encodes `event` with `encoder` (which numbers it) and appends it.
    public mutating func append(_ event: OutputEvent, encoder: inout EventEncoder) {
        let start = bytes.count
        encoder.encode(event, into: &bytes)
        events.append(Event(summary: EventSummary(event), range: start..<bytes.count))
    }

    /// Appends a batch encoded elsewhere (its `seq`s are its encoder's).
    public mutating func append(contentsOf other: EncodedEvents) {
        let offset = bytes.count
        bytes.append(contentsOf: other.bytes)
        released.add(contentsOf: other.released)
        for event in other.events {
            events.append(Event(summary: event.summary, range: (event.range.lowerBound + offset)..<(event.range.upperBound + offset)))
        }
    }

    /// Empties the batch for reuse. A buffer still shared with queues is left to them and a new
    /// one reserved, so queued lines are never overwritten.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
    }
}
