import GestureCore

/// Where the live loop publishes its event stream: the socket server's subscribers, and
/// stdout with `--stdout` (``ServerSink``). It is handed one batch per wake-up of the loop
/// (after each read, deadline, device change or request), so it can write in one go.
public protocol EventSink: AnyObject {
    /// One batch of the stream: its JSON Lines, numbered with the stream's one `seq`, and the
    /// events themselves.
    func publish(_ output: PipelineOutput)
}
