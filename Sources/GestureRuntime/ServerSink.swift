import GestureCore
import GestureServer

/// The live daemon's sink: each batch of events goes to the socket server at once (which
/// filters it per subscriber and never blocks), and with `--stdout` also to a
/// ``JSONLinesSink`` with its own numbering. After a batch with a `device` event,
/// ``deviceChanged`` is called, so the service manager's status follows plugs.
final class ServerSink: EventSink {
    private unowned let server: EventServer
    private let stdout: JSONLinesSink?
    /// Called after a batch that added, removed or resynchronised the device.
    var deviceChanged: () -> Void = {}
    private var batch: [OutputEvent] = []
    private var sawDeviceEvent = false

    init(server: EventServer, stdout: JSONLinesSink?) {
        self.server = server
        self.stdout = stdout
        batch.reserveCapacity(64)
    }

    func publish(_ event: OutputEvent) {
        batch.append(event)
        stdout?.publish(event)
        if case .device = event { sawDeviceEvent = true }
    }

    func flush() {
        if !batch.isEmpty {
            server.publish(batch)
            batch.removeAll(keepingCapacity: true)
        }
        stdout?.flush()
        if sawDeviceEvent {
            sawDeviceEvent = false
            deviceChanged()
        }
    }
}
