import GestureSystem
import SystemPackage

/// A client's bounded queue of outgoing lines: events and the replies to its own requests
/// alike count against ``limit`` (a client that pipelines requests and never reads fills it
/// as surely as one that does not read its events). Lines are byte ranges of shared buffers,
/// not copies: a batch encoded once is queued for every subscriber it matches. Written with
/// one send(2) of up to 64 KiB at a time (GestureSystem's ``FileDescriptor/sendNonBlocking(_:)``).
struct OutputQueue {
    private struct Chunk {
        var storage: [UInt8]
        var range: Range<Int>
    }

    /// Bytes the queue may hold; ``append(_:_:)`` refuses one more.
    let limit: Int
    private var chunks: [Chunk] = []
    private var head = 0
    /// How much of `chunks[head]` is already written.
    private var offset = 0
    /// Bytes not yet written.
    private(set) var byteCount = 0
    private var scratch: [UInt8] = []
    private static let gatherLimit = 1 << 16

    init(limit: Int) {
        self.limit = limit
    }

    var isEmpty: Bool { byteCount == 0 }

    /// Queues the line at `range` of `storage` unless the queue would then hold more than
    /// ``limit`` bytes; false when it would (the client is a slow consumer).
    mutating func append(_ storage: [UInt8], _ range: Range<Int>) -> Bool {
        guard byteCount + range.count <= limit else { return false }
        add(storage, range)
        return true
    }

    /// Queues a connection's last line (`bye`, `slow_consumer`, `line_too_long`) whatever the
    /// limit: after it nothing more is queued.
    mutating func appendLast(_ line: [UInt8]) {
        add(line, line.indices)
    }

    private mutating func add(_ storage: [UInt8], _ range: Range<Int>) {
        guard !range.isEmpty else { return }
        chunks.append(Chunk(storage: storage, range: range))
        byteCount += range.count
    }

    /// Drops every line not yet started (a slow consumer's backlog) and keeps the rest of a
    /// partly written one: the client must not read half a line glued to another.
    mutating func dropUnstarted() {
        let keep = head + (offset > 0 ? 1 : 0)
        guard keep < chunks.count else { return }
        byteCount -= chunks[keep...].reduce(0) { $0 + $1.range.count }
        chunks.removeSubrange(keep...)
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
            // Gather up to 64 KiB into one buffer: one system call for many small lines.
            scratch.removeAll(keepingCapacity: true)
            var index = head
            while index < chunks.count && scratch.count < Self.gatherLimit {
                let chunk = chunks[index]
                let range = index == head ? (chunk.range.lowerBound + offset)..<chunk.range.upperBound : chunk.range
                scratch.append(contentsOf: chunk.storage[range])
                index += 1
            }
            let sent: Int?
            do {
                sent = try socket.sendNonBlocking(scratch)
            } catch {
                return .failed(error)
            }
            guard let sent else { return .wouldBlock }
            consume(sent)
        }
        return .drained
    }

    private mutating func consume(_ count: Int) {
        var remaining = count
        byteCount -= count
        while remaining > 0 {
            let left = chunks[head].range.count - offset
            if remaining >= left {
                remaining -= left
                head += 1
                offset = 0
            } else {
                offset += remaining
                remaining = 0
            }
        }
        // Compact now and then, so the array does not grow with the history of the stream.
        if head == chunks.count {
            chunks.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 256 {
            chunks.removeFirst(head)
            head = 0
        }
    }
}
