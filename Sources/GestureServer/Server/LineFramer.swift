/// Cuts the bytes a client sends into request lines (docs/protocol.md: one JSON object per
/// line, at most ``maxLineLength`` bytes before its newline). A value with no I/O: bytes go in
/// with ``append(_:)``, complete lines (or the verdict that one is too long) come out of
/// ``nextLine()``, and at the end of the client's input ``takeUnterminated()`` gives the bytes
/// after the last newline as a last line. A trailing `\r` or blank is trimmed (clients that
/// end lines with CRLF), and blank lines are skipped.
struct LineFramer {
    /// What ``nextLine()`` found.
    enum Output: Equatable {
        /// A complete line, without its newline.
        case line(ArraySlice<UInt8>)
        /// A line, or the bytes so far without a newline, exceed the limit: the connection
        /// cannot be read any further.
        case tooLong
    }

    let maxLineLength: Int
    private var buffer: [UInt8] = []
    /// Where the bytes not yet cut into lines start.
    private var start = 0
    /// How many bytes after `start` are known to hold no newline.
    private var scanned = 0
    /// A buffer that held a long line is given back once it is mostly empty, so a client that
    /// sent one large layout does not keep a megabyte for the rest of its connection, and an
    /// idle client keeps at most this (requests are rarely longer).
    private static let keptCapacity = 4 << 10

    init(maxLineLength: Int) {
        self.maxLineLength = maxLineLength
    }

    /// Bytes received and not yet cut into lines: what the server's budget of buffered
    /// request bytes counts.
    var bufferedCount: Int { buffer.count - start }

    mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete, non-blank line; `nil` when more bytes are needed.
    mutating func nextLine() -> Output? {
        while let newline = buffer[(start + scanned)...].firstIndex(of: 0x0A) {
            let line = buffer[start..<newline]
            start = newline + 1
            scanned = 0
            if line.count > maxLineLength { return .tooLong }
            if let trimmed = Self.trimmed(line) { return .line(trimmed) }
        }
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

    /// After the client's last byte (it shut down its sending side): what follows the last
    /// newline, as a last line when it is not blank. Call it once ``nextLine()`` returned
    /// `nil`; the framer is empty afterwards.
    mutating func takeUnterminated() -> ArraySlice<UInt8>? {
        let rest = buffer[start...]
        defer { reset() }
        guard rest.count <= maxLineLength else { return nil }
        return Self.trimmed(rest)
    }

    /// Forgets every byte (a connection being closed reads nothing more).
    mutating func reset() {
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
