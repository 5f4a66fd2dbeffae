#if canImport(Glibc)
import Glibc
#endif

/// A client's bounded queue of outgoing lines. Lines are shared, not copied: an event encoded
/// once is appended to every subscriber's queue (arrays are copy-on-write). Written with one
/// send(2) of up to 64 KiB, `MSG_NOSIGNAL` so a vanished peer is `EPIPE`, never `SIGPIPE`.
struct OutputQueue {
    private var lines: [[UInt8]] = []
    private var head = 0
    /// How much of `lines[head]` is already written.
    private var offset = 0
    /// Bytes not yet written.
    private(set) var byteCount = 0

    var isEmpty: Bool { byteCount == 0 }

    /// True while a line is partly written: it must be finished before anything else is
    /// written, or the client would read half a line glued to another.
    var isMidLine: Bool { offset > 0 }

    mutating func append(_ line: [UInt8]) {
        guard !line.isEmpty else { return }
        lines.append(line)
        byteCount += line.count
    }

    /// Drops every line not yet started (a slow consumer's backlog) and keeps the rest of a
    /// partly written one.
    mutating func dropUnstarted() {
        guard head < lines.count else { return }
        let keep = offset > 0 ? 1 : 0
        let dropped = lines[(head + keep)...].reduce(0) { $0 + $1.count }
        lines.removeSubrange((head + keep)...)
        byteCount -= dropped
    }

    enum WriteResult: Equatable {
        /// Everything was written.
        case drained
        /// The socket buffer is full; wait for `.writable`.
        case wouldBlock
        /// The peer is gone or the socket failed (errno).
        case failed(Int32)
    }

    /// Writes as much as the socket takes.
    mutating func write(to fd: Int32) -> WriteResult {
        while byteCount > 0 {
            // Gather up to 64 KiB into one buffer: one system call for many small lines, and no
            // pointer into an array outliving its closure.
            scratch.removeAll(keepingCapacity: true)
            var index = head
            while index < lines.count && scratch.count < Self.gatherLimit {
                scratch.append(contentsOf: index == head ? lines[index][offset...] : lines[index][...])
                index += 1
            }
            let sent = scratch.withUnsafeBytes { raw in
                send(fd, raw.baseAddress, raw.count, Int32(MSG_NOSIGNAL) | Int32(MSG_DONTWAIT))
            }
            if sent < 0 {
                switch errno {
                case EINTR: continue
                case EAGAIN, EWOULDBLOCK: return .wouldBlock
                default: return .failed(errno)
                }
            }
            consume(sent)
        }
        return .drained
    }

    private static let gatherLimit = 1 << 16
    private var scratch: [UInt8] = []

    private mutating func consume(_ count: Int) {
        var remaining = count
        byteCount -= count
        while remaining > 0 {
            let left = lines[head].count - offset
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
        if head == lines.count {
            lines.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 256 {
            lines.removeFirst(head)
            head = 0
        }
    }
}
