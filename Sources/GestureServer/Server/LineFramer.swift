/// The one line framer of gestured's byte streams: the daemon cutting the requests its clients
/// send (``nextLine()``), and the daemon's own lines as its clients cut them (``nextRawLine()``:
/// `gestured tail`, the web bridge's session). A value with no I/O: bytes go in with
/// ``append(_:)``, complete lines (or the verdict that one is too long) come out.
///
/// Bounded and linear (docs/limits.md, "Text: configuration files and socket lines"): it holds
/// at most ``maxLineLength`` bytes of an unfinished line plus the last read, and the search for
/// a line's end goes on from where the last one stopped, so each byte is searched once
/// (``bytesScanned``) and moved at most once (the bytes after the last newline of a read are
/// moved to the front once; an unfinished line is then appended to, never moved again).
public struct LineFramer: Sendable {
    /// What the framer found.
    public enum Output: Equatable, Sendable {
        /// A complete line, without its newline.
        case line(ArraySlice<UInt8>)
        /// A line, or the bytes so far without a newline, exceed the limit. The bytes of that
        /// line are dropped; the caller decides whether the stream can be read any further
        /// (the daemon closes the connection, `tail` and the bridge end).
        case tooLong
    }

    /// The longest line accepted, newline excluded.
    public let maxLineLength: Int
    private var buffer: [UInt8] = []
    /// Where the bytes not yet cut into lines start.
    private var start = 0
    /// How many bytes after `start` are known to hold no newline.
    private var scanned = 0
    /// Bytes looked at for a newline since the framer was made: for the tests that the search
    /// is linear.
    public private(set) var bytesScanned = 0
    /// A buffer that held a long line is given back once it is mostly empty, so a client that
    /// sent one large layout does not keep a megabyte for the rest of its connection, and an
    /// idle client keeps at most this (requests are rarely longer).
    private static let keptCapacity = 4 << 10

    public init(maxLineLength: Int) {
        self.maxLineLength = maxLineLength
    }

    /// Bytes received and not yet cut into lines: what the server's budget of buffered
    /// request bytes counts.
    public var bufferedCount: Int { buffer.count - start }

    public mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete line exactly as sent, without its `\n` (blank lines and a `\r`
    /// before the newline included); `nil` when more bytes are needed. The slice is valid
    /// until the next call that changes the framer.
    public mutating func nextRawLine() -> Output? {
        let from = start + scanned
        if let newline = buffer[from...].firstIndex(of: 0x0A) {
            bytesScanned += newline + 1 - from
            let line = buffer[start..<newline]
            start = newline + 1
            scanned = 0
            return line.count > maxLineLength ? .tooLong : .line(line)
        }
        bytesScanned += buffer.count - from
        // No newline in what is left: keep it, compacted, and remember it holds none.
        buffer.removeFirst(start)
        start = 0
        scanned = buffer.count
        if buffer.capacity > Self.keptCapacity && buffer.count < buffer.capacity / 4 { buffer = Array(buffer) }
        guard buffer.count > maxLineLength else { return nil }
        // Said once: the rest of an endless line is not kept.
        reset()
        return .tooLong
    }

    /// The next request line (docs/protocol.md, "Connection": one JSON object per line): a
    /// trailing `\r` or blank trimmed (clients that end lines with CRLF), blank lines skipped;
    /// `nil` when more bytes are needed.
    public mutating func nextLine() -> Output? {
        while let output = nextRawLine() {
            guard case .line(let line) = output else { return output }
            if let trimmed = Self.trimmed(line) { return .line(trimmed) }
        }
        return nil
    }

    /// After the client's last byte (it shut down its sending side): what follows the last
    /// newline, as a last request line when it is not blank. Call it once ``nextLine()``
    /// returned `nil`; the framer is empty afterwards.
    public mutating func takeUnterminated() -> ArraySlice<UInt8>? {
        let rest = buffer[start...]
        defer { reset() }
        guard rest.count <= maxLineLength else { return nil }
        return Self.trimmed(rest)
    }

    /// Forgets every byte (a connection being closed reads nothing more).
    public mutating func reset() {
        buffer = []
        start = 0
        scanned = 0
    }

    /// `line` without trailing `\r`, blanks and tabs; `nil` when nothing else is in it.
    private static func trimmed(_ line: ArraySlice<UInt8>) -> ArraySlice<UInt8>? {
        var line = line
        while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line.removeLast() }
        return line.contains(where: { $0 != 0x20 && $0 != 0x09 }) ? line : nil
    }
}
