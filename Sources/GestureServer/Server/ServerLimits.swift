/// Every bound of the socket server in one place, each with why it is what it is
/// (docs/limits.md lists them with the worst case they add up to). ``EventServer/Options``
/// starts from these; the request reader (``Request/parse(_:)``) uses them as they are.
///
/// Two rules shape them: whatever the clients do, the daemon's memory has a bound (the
/// systemd unit's `MemoryMax=` is computed from it), and no client's work delays another
/// client's events by more than a frame (16 ms), so every cost of a request or of an event
/// is bounded per client, per request and per turn of the event loop.
public enum ServerLimits {
    /// A request line, newline excluded: a layout of thousands of views as compact JSON fits.
    public static let maximumLineLength = 1 << 20

    /// Bytes queued for one client, events and replies alike: several seconds of a ten-finger
    /// pan; one more and the client is dropped as a slow consumer.
    public static let queueLimit = 1 << 20

    /// Clients connected at once: the web bridge holds one session per page and allows 256
    /// pages, and a kiosk's own programs, `gestured tail` and monitors need a few more. Also
    /// lowered to what `RLIMIT_NOFILE` leaves (``reservedDescriptors``).
    public static let maximumClients = 512

    /// Descriptors kept for everything but clients (the loop's epoll, timerfd and signalfd,
    /// timers, the listener, the panel, inotify, the journal, the reserve descriptor of
    /// `EMFILE` handling, a device being probed): the client limit is `RLIMIT_NOFILE` minus
    /// this when that is lower than ``maximumClients``.
    public static let reservedDescriptors = 64

    /// Bytes of unfinished request lines buffered over all clients: eight whole 1 MiB layouts
    /// in flight at once, where a kiosk sends one now and then. Past it the client holding
    /// the most is closed (`overloaded`), so a crowd holding unfinished lines cannot take more
    /// (300 such clients took 310 MB before the bound).
    public static let requestBufferBudget = 8 << 20

    /// Bytes queued for all clients together: sixteen clients at their own limit, where a
    /// client that keeps up has a frame's events queued at most. Past it the client with the
    /// longest queue is dropped as a slow consumer, so a crowd that never reads cannot take
    /// more.
    public static let outputBudget = 16 << 20

    /// The kernel's send buffer of a client socket (`SO_SNDBUF`; the kernel doubles it): the
    /// memory a client that does not read holds in the kernel, charged to the daemon, on top
    /// of its queue. 64 KiB is hundreds of events, enough for a reader that keeps up.
    public static let socketSendBuffer: Int32 = 32 << 10

    /// Bytes read from clients per turn of the loop, over all of them: after that, the clients
    /// still readable are read in the next turns (the loop is level-triggered), so a crowd
    /// sending megabytes at once costs each turn a few reads of 64 KiB, not one each.
    public static let readBytesPerTurn = 256 << 10

    /// Request lines answered per turn of the event loop over all clients, and per visit of one
    /// client: after them the loop reads the panel and the other clients before it answers
    /// more, so a client pipelining thousands of small requests delays nobody's events.
    public static let requestsPerTurn = 32
    public static let requestsPerVisit = 8

    /// Request bytes parsed on the loop per turn over all clients: after a line that reaches
    /// it, the rest waits for the next turn. Parsing costs up to 0.35 µs a byte (a line of
    /// numbers; measured in docs/limits.md), so this is at most about 6 ms of a turn.
    public static let requestBytesPerTurn = 16 << 10

    /// Longer request lines are parsed on a thread of their own (``WorkerThread``), not on the
    /// loop: a 1 MiB line of 500,000 numbers took 0.4 s to parse, in which the panel was not
    /// read. Requests other than layouts are far shorter, and are answered in the same turn.
    public static let inlineLineLength = 4 << 10

    /// Patterns in one subscription filter (`views`, `recognizers`): a kiosk program names a
    /// few views or a prefix. With ``maximumPatternLength`` it bounds what a subscriber's
    /// filters cost per view the first time an event names it (after that the answer is
    /// remembered for the layout: ``FilterCache``).
    public static let maximumPatterns = 32

    /// Characters of one pattern: the bits of the word a match runs in (``Glob``: one step per
    /// character of the id, whatever the pattern), and longer than the ids layouts use.
    public static let maximumPatternLength = Glob.maximumTokens

    /// Bytes of a request `id` given as a string, echoed in its reply.
    public static let maximumRequestIDLength = 256

    /// Characters of a client's name (an unknown request type, field, kind or view) repeated
    /// in an error message; longer ones are cut with their length said. "Did you mean"
    /// follows the configuration's rule (`LayoutValidator.suggestion`: names of more than 64
    /// characters get none, and a budget of `LayoutLimits.suggestionBudget` steps).
    public static let echoedNameLength = 64

    /// Connections accepted (or refused) per turn of the loop: each costs a dozen system
    /// calls and a log line, and 600 clients connecting at once took 40 ms in one turn. The
    /// listener stays readable, so the rest are accepted in the next turns.
    public static let acceptsPerTurn = 16

    /// How long accepting pauses when the daemon has no descriptor left for a connection and
    /// the reserve descriptor cannot be had either (`ENFILE`: the whole system is out).
    public static let acceptPauseMicroseconds: Int64 = 250_000
}
