/// The JSON Lines sink (the event stream of docs/events.md): encodes the pipeline's engine and edge
/// events, in order, into ``batch``, each line numbered with the stream's next `seq` (one
/// ``EventEncoder`` for the whole stream, so `seq` runs on across batches and across engine and
/// edge events). Route decisions and the panel's frames are not part of the stream.
///
/// Beside the lines it keeps what the socket server needs, when asked: each line's range
/// (``keepsLines``: a live daemon counts what it published) and what subscription filters look
/// at in each event (``keepsSummaries``). The driver takes ``batch`` (or swaps in an emptied
/// one) when it writes the lines out.
public struct JSONLinesSink: RecordSink {
    /// The lines encoded since the driver last took them.
    public var batch = JSONLinesBatch()
    /// Keep what a subscription filter looks at in each event (``EventSummary``) beside its
    /// line: what a socket server needs, and far cheaper per event than the event itself. A
    /// driver may change it between batches: a live daemon with no client connected has no
    /// filter to feed, and a summary costs more than the rest of an event's encoding
    /// (docs/performance.md, "Measured reasons behind the code's shape").
    public var keepsSummaries: Bool
    /// Keep where each event's line is in ``JSONLinesBatch/bytes`` even without its summary.
    public let keepsLines: Bool
    private var encoder = EventEncoder()

    /// - Parameters:
    ///   - writesRoutes: write each delivered touch's `route` (the configuration routes touches:
    ///     ``GesturePipeline/routing``; docs/routing.md).
    public init(writesRoutes: Bool, keepsSummaries: Bool = false, keepsLines: Bool = false) {
        self.keepsSummaries = keepsSummaries
        self.keepsLines = keepsLines
        encoder.writesRoutes = writesRoutes
    }

    /// The screen whose records are consumed next (``EventEncoder/screen``): a driver of
    /// several screens sets it before handing on each pipeline's records; nil with one screen.
    public var screen: String? {
        get { encoder.screen }
        set { if encoder.screen != newValue { encoder.screen = newValue } }
    }

    /// The `seq` the next event gets.
    public var nextSequence: Int { encoder.nextSequence }

    public mutating func consume(_ records: PipelineRecords) {
        if records.holdsEngineEventsOnly {
            if !records.engineEvents.isEmpty { encode(records.engineEvents, records.engineEvents.indices) }
            return
        }
        for segment in records.segments {
            switch segment {
            case .engineEvents(let range): encode(records.engineEvents, range)
            case .edgeEvent(let index): encode(records.edgeEvents[index])
            case .routeChanges, .panelFrames: continue
            }
        }
    }

    /// Engine events whose lines the encoder keeps before handing them over in one copy: a
    /// batch of many frames is encoded in runs of this many, so the encoder's buffer stays the
    /// size of a frame or two (a batch's lines in it at once grew it, and copied them, again).
    static let eventsPerCopy = 16

    /// The engine's events at `range`, read in place, as records (no event is made, no
    /// reference retained). The lines are kept by the encoder and handed over in one copy per
    /// ``eventsPerCopy`` events.
    private mutating func encode(_ events: EngineEvents, _ range: Range<Int>) {
        var start = range.lowerBound
        while start < range.upperBound {
            let end = min(start + Self.eventsPerCopy, range.upperBound)
            let base = batch.bytes.count
            if keepsLines || keepsSummaries {
                for index in start..<end {
                    let lineStart = base + encoder.bufferedCount
                    encoder.buffer(events, at: index)
                    if keepsSummaries { batch.summaries.append(events.summary(at: index)) }
                    batch.lines.append(lineStart..<base + encoder.bufferedCount)
                }
            } else {
                encoder.buffer(events, in: start..<end)
            }
            encoder.flush(into: &batch.bytes)
            start = end
        }
    }

    private mutating func encode(_ event: OutputEvent) {
        let start = batch.bytes.count
        encoder.encode(event, into: &batch.bytes)
        if case .device = event { batch.announcesDevice = true }
        if keepsSummaries { batch.summaries.append(EventSummary(event)) }
        if keepsLines || keepsSummaries { batch.lines.append(start..<batch.bytes.count) }
    }
}
