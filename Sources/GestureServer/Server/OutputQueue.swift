import GestureSystem
import SystemPackage

/// A client's bounded queue of outgoing lines: events and the replies to its own requests
/// alike count against ``limit`` (a client that pipelines requests and never reads fills it
/// as surely as one that does not read its events). Written with one send(2) of up to 64 KiB
/// at a time (GestureSystem's ``FileDescriptor/sendNonBlocking(_:)-([UInt8])``).
///
/// Lines are copied in, one buffer per client: what a queue holds is then exactly its
/// ``byteCount``, which the server's budgets count. (Queuing byte ranges of the shared batch
/// buffers instead kept each whole batch, and with it the capacity the pipeline's buffer had
/// grown to, alive for a subscriber whose filters took one event of it.) The copy is the one
/// a gathered write made before; a queue that drains keeps up to 16 KiB of capacity, so a
/// reader that keeps up allocates nothing per event.
struct OutputQueue {
    /// Bytes the queue may hold; ``append(_:_:)`` refuses one more.
    let limit: Int
    private var bytes: [UInt8] = []
    /// The first byte not yet written.
    private var head = 0
    /// False while a line is partly written (the byte before `head` is not a newline).
    private var atLineStart = true
    private static let gatherLimit = 1 << 16
    /// What a drained queue keeps: a frame's events for one subscriber are a few kilobytes,
    /// so a reader that keeps up never reallocates, and an idle client holds little.
    private static let keptCapacity = 16 << 10

    init(limit: Int) {
        self.limit = limit
    }

    /// Bytes not yet written.
    var byteCount: Int { bytes.count - head }

    var isEmpty: Bool { byteCount == 0 }

    /// Queues the line at `range` of `storage` unless the queue would then hold more than
    /// ``limit`` bytes; false when it would (the client is a slow consumer).
    mutating func append(_ storage: [UInt8], _ range: Range<Int>) -> Bool {
        guard byteCount + range.count <= limit else { return false }
        bytes.append(contentsOf: storage[range])
        return true
    }

    /// Queues a connection's last line (`bye`, `slow_consumer`, `line_too_long`) whatever the
    /// limit: after it nothing more is queued.
    mutating func appendLast(_ line: [UInt8]) {
        bytes.append(contentsOf: line)
    }

    /// Drops every line not yet started (a slow consumer's backlog) and keeps the rest of a
    /// partly written one: the client must not read half a line glued to another.
    mutating func dropUnstarted() {
        var keep = head
        if !atLineStart {
            // Lines are JSON with every control character escaped: the next newline ends it.
            keep = bytes[head...].firstIndex(of: 0x0A).map { $0 + 1 } ?? bytes.count
        }
        bytes.removeSubrange(keep...)
        release()
    }

    enum WriteResult {
        /// Everything was written.
        case drained
        /// The socket buffer is full; wait for `.writable`.
        case wouldBlock
        /// The peer is gone or the socket failed.
        case failed(SystemError)
    }

    /// Writes as much as the socket takes.
    mutating func write(to socket: FileDescriptor) -> WriteResult {
        while byteCount > 0 {
            let range = head..<min(bytes.count, head + Self.gatherLimit)
            let result = bytes.withUnsafeBytes { buffer in
                Result { () throws(SystemError) -> Int? in
                    try socket.sendNonBlocking(UnsafeRawBufferPointer(rebasing: buffer[range]))
                }
            }
            let sent: Int?
            do {
                sent = try result.get()
            } catch {
                return .failed(error)
            }
            guard let sent else { return .wouldBlock }
            head += sent
            atLineStart = bytes[head - 1] == 0x0A
            release()
        }
        return .drained
    }

    /// Gives back written bytes: all of them once drained (and a large buffer with them), the
    /// written front of a long queue now and then.
    private mutating func release() {
        if head == bytes.count {
            bytes.removeAll(keepingCapacity: bytes.capacity <= Self.keptCapacity)
            head = 0
        } else if head >= Self.gatherLimit && head >= bytes.count / 2 {
            bytes.removeFirst(head)
            head = 0
        }
    }
}
