import GestureCore
import GestureServer

/// The live daemon's sink: each batch of events goes to the socket server at once (which
/// filters it per subscriber and never blocks), and with `--stdout` its JSON Lines also go to
/// `stdout`. After a batch with a `device` event, ``deviceChanged`` is called, so the service
/// manager's status follows plugs.
final class ServerSink: EventSink {
    private unowned let server: EventServer
    private let stdout: (([UInt8]) -> Void)?
    /// Called after a batch that added, removed or resynchronised the device.
    var deviceChanged: () -> Void = {}

    init(server: EventServer, stdout: (([UInt8]) -> Void)?) {
        self.server = server
        self.stdout = stdout
    }

    func publish(_ output: PipelineOutput) {
        server.publish(output.events)
        stdout?(output.bytes)
        if output.events.contains(where: { if case .device = $0 { true } else { false } }) { deviceChanged() }
    }
}
