/// What the pipeline produced since its driver last took it: the events as JSON Lines, each
/// line numbered with the stream's one `seq`, and — when the driver asks for them (a socket
/// server filters per subscriber) — the events themselves with their line's range in `bytes`.
public struct PipelineOutput {
    /// JSON Lines, one event per line, ready to write.
    public internal(set) var bytes: [UInt8] = []
    /// The events, in order, when the pipeline keeps them (``GesturePipeline/Options``).
    public internal(set) var events: [OutputEvent] = []
    /// What a subscription filter looks at in each event, in order, when the pipeline keeps
    /// them (``GesturePipeline/Options/keepsSummaries``).
    public internal(set) var summaries: [EventSummary] = []
    /// The range of `bytes` holding each kept event's line (with its newline).
    public internal(set) var lines: [Range<Int>] = []
    /// A `device` event (added, removed, resynchronised) is among these: the service status
    /// follows the device.
    public internal(set) var announcesDevice = false

    public init() {
        bytes.reserveCapacity(1 << 14)
    }

    public var isEmpty: Bool { bytes.isEmpty }

    /// Forgets what was taken; keeps the storage for the next batch.
    public mutating func removeAll() {
        bytes.removeAll(keepingCapacity: true)
        events.removeAll(keepingCapacity: true)
        summaries.removeAll(keepingCapacity: true)
        lines.removeAll(keepingCapacity: true)
        announcesDevice = false
    }
}
