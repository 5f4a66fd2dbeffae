import GestureCore
import GestureServer

/// The live daemon's publisher: each batch of the stream — encoded once by the runner's
/// ``JSONLinesSink``, with its one `seq` — goes to stdout with `--stdout` and to the socket server as
/// ``EncodedEvents``, which filters it per subscriber and never blocks. So stdout and every
/// subscriber see the same lines. After a batch with a `device` event, ``deviceChanged`` is
/// called, so the service manager's status follows plugs.
///
/// Clients the server drops while it publishes are announced with `warning`s that the
/// pipeline encodes (``announce``), published in turn: the server is never called from inside
/// its own handler.
final class ServerSink: EventSink {
    private unowned let server: EventServer
    private let stdout: (([UInt8]) -> Void)?
    /// Called after a batch that added, removed or resynchronised the device.
    var deviceChanged: () -> Void = {}
    /// The stream's `warning`s for clients the server dropped, encoded by the pipeline and
    /// not yet published.
    var announce: ([ServerNotice]) -> JSONLinesBatch = { _ in JSONLinesBatch() }

    init(server: EventServer, stdout: (([UInt8]) -> Void)?) {
        self.server = server
        self.stdout = stdout
    }

    var wantsSummaries: Bool { server.clientCount > 0 }

    func release(_ storage: inout ReleasedStorage) {
        server.release(&storage)
    }

    func publish(_ output: JSONLinesBatch) {
        stdout?(output.bytes)
        var notices = server.publish(count: output.lines.count) { EncodedEvents(output) }
        while !notices.isEmpty {
            var warnings = announce(notices)
            var batch = forServer(&warnings)
            server.release(&batch.released)
            notices = server.publish(batch)
        }
        if output.announcesDevice { deviceChanged() }
    }

    /// Writes a batch to stdout and returns it as the server publishes it (for the events the
    /// server's owner returns to it: a `layout` event, `warning`s), with what the pipeline let
    /// go of taken out of `output` (the only holder), for the server to release.
    func forServer(_ output: inout JSONLinesBatch) -> EncodedEvents {
        stdout?(output.bytes)
        var released = ReleasedStorage()
        swap(&released, &output.released)
        var events = EncodedEvents(output)
        events.released = released
        return events
    }
}
