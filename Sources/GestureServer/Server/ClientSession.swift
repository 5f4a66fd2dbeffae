import GestureSystem
import SystemPackage

/// One connected client: its socket, who it is, where it is in its life, its line framer and
/// its bounded queue. Owned by the ``EventServer`` and touched only on the event loop's thread.
///
/// Its life is ``State``: `connected` (greeted, no events yet) ⇄ `subscribed` (`subscribe`,
/// `unsubscribe`) → `closing` (the server said its last line: `bye`, `slow_consumer`,
/// `line_too_long`, `overloaded`; or the client ended its input unsubscribed and its replies
/// are going out) → removed, once the last line is written or the linger time is up. A client
/// that hangs up or fails is removed from any state.
///
/// Beside the state, its input: read while ``readsInput``; a client with request lines not
/// yet answered waits in the server's service queue (``awaitingService``) and is not read
/// meanwhile (``readPaused``), so what it pipelines stays in its socket, not in the daemon.
/// After its end of file (``inputEnded``, a half-close) it is never read again: a subscribed
/// client goes on receiving events until `bye` or a failed write. A closing client is read
/// and its bytes dropped, so that it can take its last line.
final class ClientSession {
    /// Where a client is in its life; each case carries exactly what is valid in it.
    enum State {
        /// Greeted; receives no events until it subscribes (docs/protocol.md).
        case connected
        /// Receives the events its subscription matches, through the filter's memory of ids.
        case subscribed(FilterCache)
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
    /// What the loop watches the socket for now (hang-ups and errors always).
    var interest: EventLoop.Readiness = .readable
    /// The queue holds bytes the socket did not take: watch for `.writable`.
    var wantsWritable = false
    /// In the server's queue of clients with request lines to answer.
    var awaitingService = false
    /// Not read while its earlier lines wait for their turn.
    var readPaused = false
    /// A long line of it is being read on the worker thread; its later lines wait.
    var parsing = false
    /// The server is stopping while the client's request is off the loop: its `bye`, sent once
    /// that request is answered (or when the linger time runs out first).
    var byeAfterAnswer: (bye: [UInt8], deadline: Int64)?
    /// The client shut down its sending side (or closed): nothing more to read.
    var inputEnded = false
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
        if case .subscribed(let filter) = state { filter.subscription } else { nil }
    }

    var isClosing: Bool {
        if case .closing = state { true } else { false }
    }

    /// Whether the loop should read the socket: not at its end, and not waiting for its lines
    /// to be answered. A closing client is read too, and what it sends is dropped: a client
    /// blocked writing its requests must be able to finish and read its last line (`bye`,
    /// `slow_consumer`) within the linger time; were it not read, both sides would wait on
    /// full socket buffers until the linger time closed it without that line.
    var readsInput: Bool { !inputEnded && (isClosing || !readPaused) }

    /// "pid 12 uid 1000 gid 1000", for logs and messages.
    var peerDescription: String { peer.map(\.description) ?? "unknown peer" }
}
