#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif
import GestureCore

/// Reads a recording one line at a time in bounded memory: the file comes in chunks of
/// ``Limits/chunkSize`` bytes, and only the line being read is kept, so a replay of a
/// gigabyte recording needs no more than a chunk and its longest line (issue 12).
///
/// A line returned by ``nextLine()`` is a slice of the reader's buffer: it is valid until the
/// next call. Text already in memory (tests, fuzzing) goes through the same chunking as a file.
struct LineReader {
    /// How much is read at a time and how long a line may be.
    struct Limits: Sendable {
        /// Bytes read from the file at a time.
        var chunkSize = 64 * 1024
        /// The longest line (without its line break) a recording may have: far above any real
        /// one (evemu lines are under 100 bytes; a `libinput record` `hid:` line with a whole
        /// 4 KiB report descriptor is about 25 KiB), and the same as the longest socket request.
        var maximumLineLength = 1 << 20

        init() {}

        init(chunkSize: Int, maximumLineLength: Int) {
            self.chunkSize = max(chunkSize, 1)
            self.maximumLineLength = max(maximumLineLength, 1)
        }
    }

    private enum Input {
        case file(RecordingFileHandle)
        case memory([UInt8])
    }

    /// The path or label errors name.
    let name: String
    let limits: Limits
    private let input: Input
    private var memoryOffset = 0
    /// Bytes read and not yet returned are `buffer[start..<end]`; at least ``lookahead`` bytes
    /// follow `end` (zeros, or bytes of earlier chunks).
    private var buffer: [UInt8]
    private var start = 0
    /// What the evemu fast path (``nextCanonicalEvemuEvent()``) read before.
    private var canonicalMemo = EvemuParser.CanonicalEventMemo()
    private var end = 0
    private var inputEnded = false
    /// Whether a byte that ``EncodingCheck`` looks for (NUL, `\r`, the first of a UTF-8 byte
    /// order mark) was found among the bytes read: from then on every line ``nextLine()``
    /// returns is checked (a CRLF file has every line checked). Until then the bytes up to
    /// `scanned` are known to hold none, found a block at a time (``scanForSuspectBytes(from:to:)``),
    /// so that in a file without any (nearly every recording: LF line endings, ASCII) a line
    /// costs next to nothing; lines the evemu fast path takes are never scanned.
    private var suspectBytesRead = false
    private var scanned = 0
    /// The number of the last line returned (1-based; 0 before the first).
    private(set) var lineNumber = 0

    /// Reads the regular file at `path`.
    init(path: String, limits: Limits = Limits()) throws(RecordingError) {
        self.init(name: path, input: .file(try RecordingFileHandle(path: path)), limits: limits)
    }

    /// Reads text already in memory, as if it were a file called `name`.
    init(name: String, bytes: [UInt8], limits: Limits = Limits()) {
        self.init(name: name, input: .memory(bytes), limits: limits)
    }

    private init(name: String, input: Input, limits: Limits) {
        self.name = name
        self.input = input
        self.limits = limits
        buffer = [UInt8](repeating: 0, count: limits.chunkSize + Self.lookahead)
    }

    /// The readable bytes kept after the last byte read, so that the evemu fast path can load
    /// whole words near the end of the bytes read without checking where they end first (the
    /// longest line it accepts is ``EvemuParser/longestCanonicalLine`` bytes, and it reads at
    /// most a word past any of them).
    static let lookahead = 64

    /// The event of the next line if it is an evemu event line as evemu writes it
    /// (``EvemuParser/canonicalEvent(at:memo:)``) and is already read whole, line break and all;
    /// otherwise nil, and nothing is consumed: ``nextLine()`` then reads the line (refilling
    /// the buffer for a line cut by a chunk boundary, or naming it in an error) exactly as it
    /// did before there was a fast path. Only the position and the line number change.
    ///
    /// For limits whose ``Limits/maximumLineLength`` is at least
    /// ``EvemuParser/longestCanonicalLine`` only (the caller checks, once): a line is not
    /// measured against it here.
    @inline(__always)
    mutating func nextCanonicalEvemuEvent() -> RawEvent? {
        let start = self.start
        let found = buffer.withUnsafeBufferPointer { bytes in
            // The buffer is never empty (``lookahead``).
            EvemuParser.canonicalEvent(at: bytes.baseAddress.unsafelyUnwrapped + start, memo: &canonicalMemo)
        }
        guard let (event, newline) = found, newline < end &- start else { return nil }
        self.start = start &+ newline &+ 1
        lineNumber &+= 1
        return event
    }

    /// The first `count` bytes of the input (fewer when it is shorter), without consuming
    /// them: what the format detector looks at. `isWholeInput` is true when that is all there is.
    mutating func peek(_ count: Int) throws(RecordingError) -> (bytes: ArraySlice<UInt8>, isWholeInput: Bool) {
        while end - start < count, !inputEnded {
            try refill()
        }
        let available = min(end - start, count)
        return (buffer[start..<start + available], inputEnded && available == end - start)
    }

    /// Skips a UTF-8 byte order mark at the start of the input, if there is one (YAML allows it,
    /// Windows editors write it; ``EncodingCheck``). Before the first line only.
    mutating func skipByteOrderMark() throws(RecordingError) {
        let mark = EncodingCheck.utf8ByteOrderMark
        guard lineNumber == 0, try peek(mark.count).bytes.elementsEqual(mark) else { return }
        start += mark.count
        scanned = start
    }

    /// The next line without its line break (and without a `\r` before it), or nil at the end
    /// of the input. A last line without a line break is still a line. Throws for a line too
    /// long, and for one with bytes no recording's text has (``EncodingCheck``; that line is
    /// consumed, as a parser's malformed line is).
    mutating func nextLine() throws(RecordingError) -> TextLine? {
        var searched = start
        while true {
            if let newline = Self.firstNewline(in: buffer, from: searched, to: end) {
                guard newline - start <= limits.maximumLineLength else { throw tooLong(upTo: newline) }
                lineNumber += 1
                var lineEnd = newline
                if lineEnd > start, buffer[lineEnd - 1] == .carriageReturn { lineEnd -= 1 }
                let line = TextLine(number: lineNumber, bytes: buffer[start..<lineEnd])
                start = newline + 1
                if lineEnd > scanned { scanForSuspectBytes(from: line.bytes.startIndex, to: lineEnd) }
                if suspectBytesRead { try Self.check(line, file: name) }
                return line
            }
            guard end - start <= limits.maximumLineLength else { throw tooLong(upTo: end) }
            if inputEnded {
                guard start < end else { return nil }
                lineNumber += 1
                var lineEnd = end
                if buffer[lineEnd - 1] == .carriageReturn { lineEnd -= 1 }
                let line = TextLine(number: lineNumber, bytes: buffer[start..<lineEnd])
                start = end
                if lineEnd > scanned { scanForSuspectBytes(from: line.bytes.startIndex, to: lineEnd) }
                if suspectBytesRead { try Self.check(line, file: name) }
                return line
            }
            // The bytes kept move to the front of the buffer: carry on searching after them.
            searched = end - start
            try refill()
        }
    }

    @inline(never)
    private static func check(_ line: TextLine, file: String) throws(RecordingError) {
        if let problem = EncodingCheck.problem(inLine: line.bytes) {
            throw RecordingError(file: file, line: line.number, message: problem)
        }
    }

    /// The line being read, up to `lineEnd`, is longer than the limit: what is wrong with its
    /// bytes if something is (lines ending in `\r` alone make one long line of a whole file),
    /// else its length.
    private func tooLong(upTo lineEnd: Int) -> RecordingError {
        var lineEnd = lineEnd
        if buffer[lineEnd - 1] == .carriageReturn { lineEnd -= 1 }  // a `\r\n`, or one cut after its `\r`
        let problem = EncodingCheck.problem(inLine: buffer[start..<lineEnd])
        return RecordingError(file: name, line: lineNumber + 1, message: problem
            ?? "expected a line of at most \(limits.maximumLineLength) bytes, found a longer one; is this a recording?")
    }

    private static func firstNewline(in buffer: [UInt8], from: Int, to: Int) -> Int? {
        guard from < to else { return nil }
        // memchr: the C library's word-at-a-time search, several times faster than a byte loop.
        return buffer.withUnsafeBufferPointer { bytes -> Int? in
            guard let base = bytes.baseAddress, let found = memchr(base + from, Int32(UInt8.newline), to - from) else {
                return nil
            }
            return UnsafeRawPointer(base).distance(to: UnsafeRawPointer(found))
        }
    }

    /// Moves the unread bytes to the front and reads one more chunk after them, growing the
    /// buffer only while a line is longer than a chunk (up to the line limit, one chunk and the
    /// ``lookahead``).
    private mutating func refill() throws(RecordingError) {
        if start > 0 {
            let kept = end - start
            buffer.withUnsafeMutableBufferPointer { bytes in
                let base = bytes.baseAddress!
                base.update(from: base + start, count: kept)
            }
            scanned = max(scanned - start, 0)
            start = 0
            end = kept
        }
        let room = limits.chunkSize + Self.lookahead
        if buffer.count - end < room {
            buffer.append(contentsOf: repeatElement(0, count: room - (buffer.count - end)))
        }
        let count: Int
        switch input {
        case .file(let file):
            let wanted = limits.chunkSize
            let offset = end
            let result = buffer.withUnsafeMutableBytes { raw in
                Result { () throws(RecordingError) -> Int in
                    try file.read(into: UnsafeMutableRawBufferPointer(rebasing: raw[offset..<offset + wanted]))
                }
            }
            count = try result.get()
        case .memory(let bytes):
            count = min(limits.chunkSize, bytes.count - memoryOffset)
            buffer.replaceSubrange(end..<end + count, with: bytes[memoryOffset..<memoryOffset + count])
            memoryOffset += count
        }
        if count == 0 { inputEnded = true }
        end += count
    }

    /// Looks for the bytes ``EncodingCheck`` looks for in the line from `lineStart` to
    /// `lineEnd` (from `scanned`, if that is later) and on to the next 4 KiB of the bytes read
    /// (``suspectBytesRead``): three `memchr(3)` a block, not a line, and none for the lines
    /// the evemu fast path takes.
    private mutating func scanForSuspectBytes(from lineStart: Int, to lineEnd: Int) {
        let from = max(scanned, lineStart)
        let to = min(end, max(lineEnd, from + Self.scanBlock))
        scanned = to
        guard !suspectBytesRead, to > from else { return }
        suspectBytesRead = buffer.withUnsafeBufferPointer { bytes in
            let base = bytes.baseAddress.unsafelyUnwrapped + from
            let count = to - from
            return memchr(base, 0, count) != nil || memchr(base, Int32(UInt8.carriageReturn), count) != nil
                || memchr(base, 0xEF, count) != nil  // a UTF-8 byte order mark's first byte
        }
    }

    /// How far past a line ``scanForSuspectBytes(from:to:)`` looks: enough lines that a file read
    /// line by line costs a few instructions a line, few enough that one line cut by a chunk
    /// boundary in a file the fast path reads costs little.
    private static let scanBlock = 16 * 1024
}
