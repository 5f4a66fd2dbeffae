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
    /// The virtual panel's events (docs/routing.md): what the desktop receives through the copy
    /// of the panel, in complete frames each ending in `SYN_REPORT`, with their times (a held
    /// touch's frames keep the times they were read at). Empty unless the configuration
    /// routes touches.
    public internal(set) var panel: [RawEvent] = []
    /// What the engine let go of in this batch (a dropped layout's recognizers, a replaced
    /// tree): a driver with an event loop releases it on another thread (``ReleasedStorage``).
    public var released = ReleasedStorage()
    /// The engine's route decisions, in order, when the pipeline keeps events
    /// (``GesturePipeline/Options/keepsEvents``) and routes touches.
    public internal(set) var routeChanges: [RouteChange] = []

    public init() {
        bytes.reserveCapacity(1 << 14)
    }

    /// An output with no storage of its own yet: a placeholder swapped in where a batch is
    /// taken out (an ``init()``, reserving 16 KB, was a `malloc` and a `free` per batch).
    public static var placeholder: PipelineOutput { PipelineOutput(withoutStorage: ()) }

    private init(withoutStorage: Void) {}

    public var isEmpty: Bool { bytes.isEmpty && panel.isEmpty && released.isEmpty }

    /// Forgets what was taken; keeps the storage for the next batch.
    /// (Each array only if it holds something: emptying an empty one still cost a call of
    /// about 90 instructions, and a batch without subscribers keeps neither events, summaries
    /// nor lines.)
    public mutating func removeAll() {
        if !bytes.isEmpty { bytes.removeAll(keepingCapacity: true) }
        if !events.isEmpty { events.removeAll(keepingCapacity: true) }
        if !summaries.isEmpty { summaries.removeAll(keepingCapacity: true) }
        if !lines.isEmpty { lines.removeAll(keepingCapacity: true) }
        if !panel.isEmpty { panel.removeAll(keepingCapacity: true) }
        if !released.isEmpty { released = ReleasedStorage() }
        if !routeChanges.isEmpty { routeChanges.removeAll(keepingCapacity: true) }
        announcesDevice = false
    }
}
