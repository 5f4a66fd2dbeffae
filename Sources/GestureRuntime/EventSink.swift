import GestureCore

/// Where the live loop publishes its event stream: the socket server's subscribers, and
/// stdout as JSON Lines with `--stdout` (``ServerSink``). `publish` may buffer; `flush` is
/// called once per batch of input (after each read, deadline or device change), so a sink
/// can write in one go.
public protocol EventSink: AnyObject {
    func publish(_ event: OutputEvent)
    func flush()
}

/// Encodes events as JSON Lines (SPEC 8), numbering them from 1, and hands the bytes to
/// `write` at each flush (`--stdout`).
public final class JSONLinesSink: EventSink {
    private var encoder = EventEncoder()
    private var buffer: [UInt8] = []
    private let write: ([UInt8]) -> Void

    public init(write: @escaping ([UInt8]) -> Void) {
        self.write = write
        buffer.reserveCapacity(1 << 14)
    }

    public func publish(_ event: OutputEvent) {
        encoder.encode(event, into: &buffer)
    }

    public func flush() {
        guard !buffer.isEmpty else { return }
        write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}
