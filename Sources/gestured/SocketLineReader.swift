import GestureServer
import GestureSystem
import SystemPackage

/// The lines a daemon sends `gestured tail`, split as the bytes come from a blocking socket:
/// in time linear in the bytes, and in memory bounded by the longest line (issue 25: a line
/// that never ended was kept whole, and searched from its start again at every read).
///
/// The search for a line's end goes on from where the last one stopped; the bytes already
/// returned are dropped only once they are the larger part of the buffer, so each byte is
/// searched once and moved at most once on average. A line longer than
/// ``maximumLineLength`` is an error.
struct SocketLineReader {
    /// The longest line, without its `\n`, that `tail` accepts: the daemon's queue limit
    /// (``EventServer/Options/queueLimit``, 1 MiB). A longer line cannot come from gestured:
    /// it drops a client as a slow consumer before it queues more than that for it, so such a
    /// line is from something else, and reading on for its end would never stop.
    static let maximumLineLength = EventServer.Options(version: "").queueLimit

    let maximumLineLength: Int
    /// Bytes read; those before `start` are returned lines.
    private var buffer: [UInt8] = []
    private var start = 0
    /// Where the search for the next line break goes on: `buffer[start..<searchFrom]` holds none.
    private var searchFrom = 0
    /// Bytes looked at for a line break since the start: for the test that the search is linear.
    private(set) var bytesSearched = 0

    init(maximumLineLength: Int = Self.maximumLineLength) {
        self.maximumLineLength = maximumLineLength
    }

    /// Why there is no line.
    enum Failure: Error {
        /// A line is longer than ``maximumLineLength``.
        case lineTooLong(limit: Int)
        /// Reading failed.
        case read(SystemError)
    }

    /// The next whole line without its `\n` (valid until the next call), or nil when the bytes
    /// read end in the middle of one: ``append(_:)`` more.
    mutating func nextLine() throws(Failure) -> ArraySlice<UInt8>? {
        let end = buffer.count
        bytesSearched += end - searchFrom
        guard let newline = buffer[searchFrom..<end].firstIndex(of: 0x0A) else {
            searchFrom = end
            guard end - start <= maximumLineLength else { throw .lineTooLong(limit: maximumLineLength) }
            return nil
        }
        guard newline - start <= maximumLineLength else { throw .lineTooLong(limit: maximumLineLength) }
        let line = buffer[start..<newline]
        start = newline + 1
        searchFrom = start
        return line
    }

    /// Bytes that came after those read before.
    mutating func append(_ bytes: ArraySlice<UInt8>) {
        if start > 0, start >= buffer.count - start {
            // What is kept is no more than what is dropped: moving it costs no more than
            // the bytes already returned did.
            buffer.removeSubrange(0..<start)
            searchFrom -= start
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next line read from `connection` (see ``nextLine()``); nil at the end of the stream.
    mutating func nextLine(from connection: FileDescriptor, chunk: inout [UInt8]) throws(Failure) -> ArraySlice<UInt8>? {
        while true {
            if let line = try nextLine() { return line }
            let count: Int?
            do {
                count = try connection.readAvailable(into: &chunk)
            } catch {
                throw .read(error)
            }
            guard let count, count > 0 else { return nil }
            append(chunk[0..<count])
        }
    }
}
