import GestureServer
import Testing

/// The one line framer of every socket stream (`LineFramer`): the daemon's requests, the
/// daemon's lines as `gestured tail` and the web bridge cut them.
@Suite("Line framer")
struct LineFramerTests {
    /// Every output of `framer` for `pieces` appended one after another, raw or as requests.
    static func outputs(_ pieces: [String], limit: Int = 16, requests: Bool = false) -> [String] {
        var framer = LineFramer(maxLineLength: limit)
        var found: [String] = []
        for piece in pieces {
            framer.append(Array(piece.utf8))
            while let output = requests ? framer.nextLine() : framer.nextRawLine() {
                switch output {
                case .line(let line): found.append(String(decoding: line, as: UTF8.self))
                case .tooLong: found.append("<too long>")
                }
            }
        }
        return found
    }

    /// The same stream cut at every place gives the same lines.
    @Test(arguments: 0...20)
    func aStreamCutAnywhereGivesTheSameLines(cut: Int) {
        let stream = "one\r\ntwo\n\nthree\nfour"
        let bytes = Array(stream.utf8)
        let pieces = [String(decoding: bytes[..<cut], as: UTF8.self), String(decoding: bytes[cut...], as: UTF8.self)]
        // Raw: exactly as sent, the CR and the blank line included; the unfinished line kept back.
        #expect(Self.outputs(pieces) == ["one\r", "two", "", "three"])
        // Requests: CRLF trimmed, blank lines skipped.
        #expect(Self.outputs(pieces, requests: true) == ["one", "two", "three"])
    }

    @Test func manyLinesInOneReadComeOutInOrder() {
        let lines = (0..<1_000).map { "{\"seq\":\($0)}" }
        #expect(Self.outputs([lines.joined(separator: "\n") + "\n"]) == lines)
    }

    /// The limit is on the line without its newline: as long passes, one byte more is refused,
    /// whether its newline came in the same read or has not come yet, and the framer goes on
    /// with the next line.
    @Test func aLineOverTheLimitIsRefusedWithOrWithoutItsNewline() {
        let limit = String(repeating: "x", count: 16)
        #expect(Self.outputs([limit + "\n"]) == [limit])
        #expect(Self.outputs([limit + "x\nnext\n"]) == ["<too long>", "next"])
        #expect(Self.outputs([limit, "x"]) == ["<too long>"])
        #expect(Self.outputs([String(limit.prefix(9)), String(limit.dropFirst(9)), "\n"]) == [limit])
    }

    /// An endless line is said once and not kept: memory stays a line and a read.
    @Test func anEndlessLineIsNotKept() {
        var framer = LineFramer(maxLineLength: 64)
        framer.append([UInt8](repeating: 0x78, count: 65))
        #expect(framer.nextRawLine() == .tooLong)
        #expect(framer.bufferedCount == 0)
        #expect(framer.nextRawLine() == nil)
    }

    /// A long line that comes a byte at a time is searched once: the bytes looked at are the
    /// bytes read, not their square.
    @Test func aLongLineComingAByteAtATimeIsSearchedOnce() {
        var framer = LineFramer(maxLineLength: 200_000)
        for _ in 0..<100_000 {
            framer.append(CollectionOfOne(UInt8(ascii: "x")))
            #expect(framer.nextRawLine() == nil)
        }
        framer.append(CollectionOfOne(UInt8(0x0A)))
        guard case .line(let line)? = framer.nextRawLine() else {
            Issue.record("no line")
            return
        }
        #expect(line.count == 100_000)
        #expect(framer.bytesScanned == 100_001)
    }

    /// Short lines a byte at a time: what was returned is dropped, so memory stays one line
    /// and the search stays linear over any number of lines.
    @Test func manyLinesComingAByteAtATimeAreSearchedOnce() {
        var framer = LineFramer(maxLineLength: 64)
        let text = Array(String(repeating: "{\"type\":\"gesture\"}\n", count: 5_000).utf8)
        var count = 0
        for byte in text {
            framer.append(CollectionOfOne(byte))
            while framer.nextRawLine() != nil { count += 1 }
            #expect(framer.bufferedCount <= 19)
        }
        #expect(count == 5_000)
        #expect(framer.bytesScanned == text.count)
    }

    /// At the end of a client's input, what follows its last newline is a last request line.
    @Test func theUnterminatedRestIsALastRequestLine() {
        var framer = LineFramer(maxLineLength: 16)
        framer.append(Array("{\"a\":1}\n{\"b\":2} \r".utf8))
        #expect(framer.nextLine() == .line(ArraySlice("{\"a\":1}".utf8)))
        #expect(framer.nextLine() == nil)
        #expect(framer.takeUnterminated() == ArraySlice("{\"b\":2}".utf8))
        #expect(framer.bufferedCount == 0)
    }
}
