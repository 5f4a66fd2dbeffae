/// What the pipeline produced since its driver last emptied it (``GesturePipeline/removeRecords()``),
/// as typed records in the order they were made: the engine's events, the edges' events
/// (device, layout, screen, warning), the engine's route decisions and the virtual panel's
/// frames. The pipeline knows neither JSON nor `seq` nor who reads the records: a driver hands
/// each batch to the sinks it composed (``RecordSink``: the JSON Lines encoder, the virtual
/// panel's writer, a test's collector), then empties it.
///
/// The records of one kind are kept together, in order, each in the form that costs least to
/// append and to read in place (the engine's events as ``EngineEvents``, the panel's frames as
/// raw events); ``segments`` gives the order across kinds. The engine's events of the common
/// batch — frames with nothing else — form one implicit segment, so a frame adds no segment.
/// Emptying keeps the storage: a batch allocates nothing once the arrays have grown.
public struct PipelineRecords {
    /// A run of records of one kind, in ``PipelineRecords/segments``.
    public enum Segment: Hashable, Sendable {
        /// The events of ``PipelineRecords/engineEvents`` at these positions.
        case engineEvents(Range<Int>)
        /// The event at this position of ``PipelineRecords/edgeEvents``.
        case edgeEvent(Int)
        /// The decisions of ``PipelineRecords/routeChanges`` at these positions.
        case routeChanges(Range<Int>)
        /// Complete frames of ``PipelineRecords/panel`` at these positions.
        case panelFrames(Range<Int>)
    }

    /// The engine's events (touch deliveries, gestures, controls, hit tests), in order.
    public internal(set) var engineEvents = EngineEvents()
    /// The edges' events, in order: `device`, `layout`, `screen`, `warning` (never ``OutputEvent/engine(_:)``).
    public internal(set) var edgeEvents: [OutputEvent] = []
    /// The engine's route decisions (docs/routing.md), in order; empty unless touches are routed.
    public internal(set) var routeChanges: [RouteChange] = []
    /// The virtual panel's events (docs/routing.md): what the desktop receives through the copy
    /// of the panel, in complete frames each ending in `SYN_REPORT`, with their times (a held
    /// touch's frames keep the times they were read at). Empty unless touches are routed.
    public internal(set) var panel: [RawEvent] = []
    /// What the engine let go of in this batch (a dropped layout's recognizers, a replaced
    /// tree): not a record but storage, for a driver with an event loop to release on another
    /// thread (``GesturePipeline/takeReleased()``); dropped with the batch otherwise.
    public internal(set) var released = ReleasedStorage()

    /// The segments before the engine's last events (see ``segments``).
    @usableFromInline private(set) var closedSegments: [Segment] = []
    /// How many of ``engineEvents`` ``closedSegments`` covers; the rest is the implicit last segment.
    private(set) var closedEngineEvents = 0

    public init() {}

    /// Nothing was produced (no record, nothing released). Inlinable: a replay asks after
    /// every raw event, and a call cost too much there (docs/performance.md, "Measured
    /// reasons behind the code's shape").
    @inlinable
    public var isEmpty: Bool {
        engineEvents.isEmpty && closedSegments.isEmpty && released.isEmpty
    }

    /// True when the batch holds engine events and no other record (the common batch): a sink
    /// may read ``engineEvents`` whole instead of walking ``segments``.
    @inline(__always)
    public var holdsEngineEventsOnly: Bool { closedSegments.isEmpty }

    /// The records' order across kinds: runs of one kind, in the order they were made.
    public var segments: Segments { Segments(closed: closedSegments, tail: closedEngineEvents..<engineEvents.count) }

    /// ``PipelineRecords/segments``: the closed segments, then the engine's events after them.
    public struct Segments: Sequence {
        let closed: [Segment]
        let tail: Range<Int>

        public struct Iterator: IteratorProtocol {
            var closed: IndexingIterator<[Segment]>
            var tail: Range<Int>?

            public mutating func next() -> Segment? {
                if let segment = closed.next() { return segment }
                defer { tail = nil }
                return tail.map { .engineEvents($0) }
            }
        }

        public func makeIterator() -> Iterator {
            Iterator(closed: closed.makeIterator(), tail: tail.isEmpty ? nil : tail)
        }
    }

    // MARK: - Appending (the pipeline)

    /// Ends the engine's run of events so far, before a record of another kind.
    private mutating func closeEngineEvents() {
        let count = engineEvents.count
        guard count > closedEngineEvents else { return }
        closedSegments.append(.engineEvents(closedEngineEvents..<count))
        closedEngineEvents = count
    }

    mutating func append(edge event: OutputEvent) {
        assert({ if case .engine = event { false } else { true } }(), "engine events go to engineEvents")
        closeEngineEvents()
        edgeEvents.append(event)
        closedSegments.append(.edgeEvent(edgeEvents.count - 1))
    }

    mutating func append(routeChanges changes: [RouteChange]) {
        guard !changes.isEmpty else { return }
        closeEngineEvents()
        let start = routeChanges.count
        routeChanges.append(contentsOf: changes)
        closedSegments.append(.routeChanges(start..<routeChanges.count))
    }

    /// The routing stage wrote ``panel`` from `start` on (complete frames).
    mutating func panelFramesWritten(from start: Int) {
        guard panel.count > start else { return }
        closeEngineEvents()
        closedSegments.append(.panelFrames(start..<panel.count))
    }

    mutating func addReleased(_ storage: ReleasedStorage) {
        released.add(contentsOf: storage)
    }

    mutating func takeReleased() -> ReleasedStorage {
        var taken = ReleasedStorage()
        swap(&taken, &released)
        return taken
    }

    /// Forgets every record; keeps the storage for the next batch. (Each array only if it
    /// holds something: emptying an empty one still cost a call.)
    mutating func removeAll() {
        if !engineEvents.isEmpty { engineEvents.removeAll() }
        if !closedSegments.isEmpty {
            closedSegments.removeAll(keepingCapacity: true)
            if !edgeEvents.isEmpty { edgeEvents.removeAll(keepingCapacity: true) }
            if !routeChanges.isEmpty { routeChanges.removeAll(keepingCapacity: true) }
            if !panel.isEmpty { panel.removeAll(keepingCapacity: true) }
        }
        closedEngineEvents = 0
        if !released.isEmpty { released = ReleasedStorage() }
    }
}
