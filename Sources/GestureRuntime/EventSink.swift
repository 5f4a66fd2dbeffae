import GestureCore

/// Where the live loop publishes its event stream: the socket server's subscribers, and
/// stdout as JSON Lines with `--stdout`, both encoded once by ``ServerSink``. `publish` may
/// buffer; `flush` is called once per batch of input (after each read, deadline or device
/// change), so a sink can write in one go.
public protocol EventSink: AnyObject {
    func publish(_ event: OutputEvent)
    func flush()
}
