import GestureCore

/// Where the live loop publishes its event stream once its ``JSONLinesSink`` has encoded it:
/// the socket server's subscribers, and stdout with `--stdout` (``ServerSink``). It is handed
/// one batch per wake-up of the loop (after each read, deadline, device change or request), so
/// it can write in one go. (The pipeline's records themselves go to the runner's record sinks:
/// ``RecordSink``.)
public protocol EventSink: AnyObject {
    /// One batch of the stream: its JSON Lines, numbered with the stream's one `seq`, and what
    /// filters look at in each event while ``wantsSummaries``.
    func publish(_ output: JSONLinesBatch)
    /// Whether the batches need each event's ``EventSummary`` (what subscription filters look
    /// at): false while no client is connected, so a kiosk whose page has not connected yet,
    /// or a benchmark, builds none. Read at the start of each input batch.
    var wantsSummaries: Bool { get }
    /// Takes over what the pipeline let go of (``JSONLinesBatch/released``), leaving
    /// `storage` empty, and releases it where it suits the sink: a sink on an event loop
    /// hands it to another thread.
    func release(_ storage: inout ReleasedStorage)
}

extension EventSink {
    public var wantsSummaries: Bool { true }

    /// Released here and now.
    public func release(_ storage: inout ReleasedStorage) {
        storage = ReleasedStorage()
    }
}
