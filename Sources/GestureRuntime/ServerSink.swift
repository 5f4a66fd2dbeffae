import GestureCore
import GestureServer

/// The one encoder of a daemon's event stream (until the pipeline encodes it): each event is
/// encoded and numbered once, written to stdout with `--stdout`, and handed to the socket
/// server as ``EncodedEvents``, so stdout and every subscriber see the same `seq`. Used by the
/// live daemon (as the runner's ``EventSink``) and by a socket replay.
///
/// Events the server asks for while it handles a request (a `layout` event, `warning`s about
/// clients it dropped) are encoded here too, in stream order, and returned to the server to
/// publish (``encodeForServer(_:)``): the server is never called from inside its own handler.
final class ServerSink: EventSink {
    private unowned let server: EventServer
    private let stdout: (([UInt8]) -> Void)?
    private var encoder = EventEncoder()
    private var batch = EncodedEvents()
    private var sawDeviceEvent = false
    /// Called after a batch that added, removed or resynchronised the device.
    var deviceChanged: () -> Void = {}
    /// Now on the input timeline, for the `warning`s about dropped clients.
    var currentTime: () -> Timestamp = { .zero }

    init(server: EventServer, stdout: (([UInt8]) -> Void)?) {
        self.server = server
        self.stdout = stdout
    }

    func publish(_ event: OutputEvent) {
        batch.append(event, encoder: &encoder)
        if case .device = event { sawDeviceEvent = true }
    }

    /// Writes the batch to stdout and publishes it; the clients the server drops on the way
    /// are announced with `warning`s, published in turn.
    func flush() {
        if !batch.isEmpty {
            var notices = server.publish(take())
            while !notices.isEmpty {
                notices = server.publish(encodeForServer(warnings(notices)))
            }
        }
        if sawDeviceEvent {
            sawDeviceEvent = false
            deviceChanged()
        }
    }

    /// Encodes `events` after whatever is pending, writes them to stdout and returns them for
    /// the server to publish.
    func encodeForServer(_ events: [OutputEvent]) -> EncodedEvents {
        for event in events { publish(event) }
        return take()
    }

    /// One `warning` per client the server dropped.
    func warnings(_ notices: [ServerNotice]) -> [OutputEvent] {
        let time = currentTime()
        return notices.map { .warning(time: time, message: $0.message) }
    }

    private func take() -> EncodedEvents {
        let taken = batch
        stdout?(taken.bytes)
        // The server's queues may still hold the old buffer: a new one is reserved for the next.
        batch.removeAll()
        return taken
    }
}
