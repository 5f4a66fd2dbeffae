import GestureSystem

/// One connected client: its socket, who it is, what it asked for, and its queues. Owned by
/// the ``EventServer`` and touched only on the event loop's thread.
final class ClientSession {
    /// A number for logs, unique for the life of the server.
    let serial: Int
    let fd: Int32
    /// `nil` when the kernel would not say (which does not happen for Unix sockets, but then
    /// the client may not control).
    let peer: PeerCredentials?
    var token: EventLoop.Token?
    /// Bytes read and not yet cut into lines.
    var input: [UInt8] = []
    /// How much of `input` is known to hold no newline.
    var scanned = 0
    var output = OutputQueue()
    /// `nil` until the client subscribes: it receives no events before that (SPEC 9).
    var subscription: Subscription?
    /// Set once the server is closing the connection: nothing more is read or queued; it is
    /// closed when the queue is written, or at this monotonic time at the latest.
    var closingDeadline: Int64?
    /// Whether the loop watches the socket for `.writable` (only while bytes are queued).
    var watchesWritable = false
    /// The last time the client took bytes, or its queue became non-empty (monotonic µs):
    /// how a replay tells a client that is reading slowly from one that stopped.
    var lastProgress: Int64 = 0

    init(serial: Int, fd: Int32, peer: PeerCredentials?) {
        self.serial = serial
        self.fd = fd
        self.peer = peer
    }

    var isClosing: Bool { closingDeadline != nil }
    var isSubscribed: Bool { subscription != nil && !isClosing }
}
