/// A sink that keeps every record it is given, as values, in order: for tests and tools that
/// read the pipeline's output back (a whole ordered log of events, the route decisions, the
/// virtual panel's events). Each engine event is made from its record (``EngineEvents``'s
/// subscript), so it stays valid after the batch is emptied; a collector is far slower than
/// the JSON Lines sink and belongs in no driver's hot path.
///
/// A class, so that a driver given it among its sinks and the test that reads it share it.
public final class RecordCollector: RecordSink {
    /// The engine's and the edges' events, in the order the pipeline made them.
    public private(set) var events: [OutputEvent] = []
    /// The engine's route decisions, in order.
    public private(set) var routeChanges: [RouteChange] = []
    /// The virtual panel's events, in order (complete frames).
    public private(set) var panel: [RawEvent] = []
    /// Batches consumed.
    public private(set) var batches = 0

    public init() {}

    public func consume(_ records: PipelineRecords) {
        batches += 1
        for segment in records.segments {
            switch segment {
            case .engineEvents(let range):
                for index in range { events.append(.engine(records.engineEvents[index])) }
            case .edgeEvent(let index):
                events.append(records.edgeEvents[index])
            case .routeChanges(let range):
                routeChanges += records.routeChanges[range]
            case .panelFrames(let range):
                panel += records.panel[range]
            }
        }
    }

    /// Forgets what was collected.
    public func removeAll() {
        events.removeAll()
        routeChanges.removeAll()
        panel.removeAll()
    }
}
