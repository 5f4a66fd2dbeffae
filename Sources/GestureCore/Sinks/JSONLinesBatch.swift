/// What a ``JSONLinesSink`` encoded since its driver last took it: the events as JSON Lines,
/// each line numbered with the stream's one `seq`, and — when the sink is asked for them (a
/// socket server filters per subscriber) — what filters look at in each event with its line's
/// range in `bytes`. The form in which the live loop hands its stream to stdout and the socket
/// server (``EncodedEvents``).
public struct JSONLinesBatch {
    /// JSON Lines, one event per line, ready to write.
    public internal(set) var bytes: [UInt8] = []
    /// What a subscription filter looks at in each event, in order, when the sink keeps them
    /// (``JSONLinesSink/keepsSummaries``).
    public internal(set) var summaries: [EventSummary] = []
    /// The range of `bytes` holding each kept event's line (with its newline).
    public internal(set) var lines: [Range<Int>] = []
    /// A `device` event (added, removed, resynchronised) is among these: the service status
    /// follows the device.
    public internal(set) var announcesDevice = false
    /// What the pipeline let go of with these events (``GesturePipeline/takeReleased()``), put
    /// here by the driver: the socket server releases it on its worker thread (``ReleasedStorage``).
    public var released = ReleasedStorage()

    public init() {
        bytes.reserveCapacity(1 << 14)
    }

    /// A batch with no storage of its own yet: a placeholder swapped in where a batch is
    /// taken out (an ``init()`` reserves room: an allocation and a free per batch).
    public static var placeholder: JSONLinesBatch { JSONLinesBatch(withoutStorage: ()) }

    private init(withoutStorage: Void) {}

    public var isEmpty: Bool { bytes.isEmpty && released.isEmpty }

    /// Forgets what was taken; keeps the storage for the next batch.
    /// (Each array only if it holds something: emptying an empty one still costs a call, and
    /// a batch without subscribers keeps neither summaries nor lines; docs/performance.md,
    /// "Measured reasons behind the code's shape".)
    public mutating func removeAll() {
        if !bytes.isEmpty { bytes.removeAll(keepingCapacity: true) }
        if !summaries.isEmpty { summaries.removeAll(keepingCapacity: true) }
        if !lines.isEmpty { lines.removeAll(keepingCapacity: true) }
        if !released.isEmpty { released = ReleasedStorage() }
        announcesDevice = false
    }
}
