import GestureServer
import GestureSystem
import SystemPackage

/// The lines a daemon sends `gestured tail`, read from a blocking socket and cut by the
/// shared ``LineFramer`` (linear in the bytes, bounded by the longest line; issue 25: a line
/// that never ended was kept whole, and searched from its start again at every read). A line
/// longer than ``maximumLineLength`` is an error.
struct SocketLineReader {
    /// The longest line, without its `\n`, that `tail` accepts: the daemon's queue limit
    /// (``EventServer/Options/queueLimit``, 1 MiB). A longer line cannot come from gestured:
    /// it drops a client as a slow consumer before it queues more than that for it, so such a
    /// line is from something else, and reading on for its end would never stop.
    static let maximumLineLength = EventServer.Options(version: "").queueLimit

    private var framer: LineFramer
    var maximumLineLength: Int { framer.maxLineLength }
    /// Bytes looked at for a line break since the start: for the test that the search is linear.
    var bytesSearched: Int { framer.bytesScanned }

    init(maximumLineLength: Int = Self.maximumLineLength) {
        framer = LineFramer(maxLineLength: maximumLineLength)
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
        switch framer.nextRawLine() {
        case nil: return nil
        case .line(let line)?: return line
        case .tooLong?: throw .lineTooLong(limit: maximumLineLength)
        }
    }

    /// Bytes that came after those read before.
    mutating func append(_ bytes: ArraySlice<UInt8>) {
        framer.append(bytes)
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
