/// Cuts the bytes a client sends into request lines (SPEC 9: one JSON object per line, at
/// most ``maxLineLength`` bytes before its newline). A value with no I/O: bytes go in with
/// ``append(_:)``, complete lines (or the verdict that one is too long) come out of
/// ``nextLine()``. A trailing `\r` or blank is trimmed (clients that end lines with CRLF),
/// and blank lines are skipped.
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

    init(maxLineLength: Int) {
        self.maxLineLength = maxLineLength
    }

    mutating func append(_ bytes: some Collection<UInt8>) {
        buffer.append(contentsOf: bytes)
    }

    /// The next complete, non-blank line; `nil` when more bytes are needed.
    mutating func nextLine() -> Output? {
        while let newline = buffer[(start + scanned)...].firstIndex(of: 0x0A) {
            var line = buffer[start..<newline]
            start = newline + 1
            scanned = 0
            if line.count > maxLineLength { return .tooLong }
            while let last = line.last, last == 0x0D || last == 0x20 || last == 0x09 { line.removeLast() }
            if line.contains(where: { $0 != 0x20 && $0 != 0x09 }) { return .line(line) }
        }
        // No newline in what is left: keep it, compacted, and remember it holds none.
        buffer.removeFirst(start)
        start = 0
        scanned = buffer.count
        guard buffer.count > maxLineLength else { return nil }
        // Said once: the rest of an endless line is not kept.
        buffer.removeAll()
        scanned = 0
        return .tooLong
    }
}
