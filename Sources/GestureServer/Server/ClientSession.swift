import GestureSystem
import SystemPackage

/// One connected client: its socket, who it is, where it is in its life, its line framer and
/// its bounded queue. Owned by the ``EventServer`` and touched only on the event loop's thread.
///
/// Its life is ``State``: `connected` (greeted, no events yet) ⇄ `subscribed` (`subscribe`,
/// `unsubscribe`) → `closing` (the server said its last line: `bye`, `slow_consumer`,
/// `line_too_long`) → removed, once the last line is written or the linger time is up. A
/// client that hangs up or fails is removed from any state.
final class ClientSession {
    /// Where a client is in its life; each case carries exactly what is valid in it.
    enum State {
        /// Greeted; receives no events until it subscribes (SPEC 9).
        case connected
        /// Receives the events its subscription matches.
        case subscribed(Subscription)
        /// Nothing more is read, answered or queued; the connection is closed when its queue is
        /// written, or at `deadline` (the server's clock, µs) at the latest.
        case closing(deadline: Int64)
    }

    /// A number for logs, unique for the life of the server.
    let serial: Int
    let socket: FileDescriptor
    /// `nil` when the kernel would not say (which does not happen for Unix sockets, but then
    /// the client may not control).
    let peer: PeerCredentials?
    let token: EventLoop.Token
    var state = State.connected
    var framer: LineFramer
    var output: OutputQueue
    /// Whether the loop watches the socket for `.writable` (only while bytes are queued).
    var watchesWritable = false
    /// The last time the client took bytes, or its queue became non-empty (server clock, µs):
    /// how a replay tells a client that is reading slowly from one that stopped.
    var lastProgress: Int64

    init(serial: Int, socket: FileDescriptor, peer: PeerCredentials?, token: EventLoop.Token, maxLineLength: Int,
         queueLimit: Int, now: Int64) {
        self.serial = serial
        self.socket = socket
        self.peer = peer
        self.token = token
        framer = LineFramer(maxLineLength: maxLineLength)
        output = OutputQueue(limit: queueLimit)
        lastProgress = now
    }

    /// The subscription of a subscribed client that is not being closed.
    var subscription: Subscription? {
        if case .subscribed(let subscription) = state { subscription } else { nil }
    }

    var isClosing: Bool {
        if case .closing = state { true } else { false }
    }

    /// "pid 12 uid 1000 gid 1000", for logs and messages.
    var peerDescription: String { peer.map(\.description) ?? "unknown peer" }
}
