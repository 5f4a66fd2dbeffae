#if canImport(Glibc)
import Glibc
#endif
@testable import GestureServer
import GestureSystem
import SystemPackage
import Testing

@Suite("Line framing and bounded queues")
struct OutputQueueTests {
    static func lines(_ framer: inout LineFramer) -> [String] {
        var lines: [String] = []
        while let output = framer.nextLine() {
            switch output {
            case .line(let line): lines.append(String(decoding: line, as: UTF8.self))
            case .tooLong: lines.append("<too long>")
            }
        }
        return lines
    }

    @Test func bytesBecomeLinesWhateverTheyArriveIn() {
        var framer = LineFramer(maxLineLength: 16)
        framer.append(Array(#"{"a":1}"#.utf8))
        #expect(Self.lines(&framer).isEmpty)
        framer.append(Array("\r\n\n  \t\n{\"b\":2}  \n{\"c\"".utf8))
        // CRLF and trailing blanks trimmed, blank lines skipped, the partial line kept.
        #expect(Self.lines(&framer) == [#"{"a":1}"#, #"{"b":2}"#])
        framer.append(Array(":3}\n".utf8))
        #expect(Self.lines(&framer) == [#"{"c":3}"#])
    }

    @Test func aLineLongerThanTheLimitIsRefusedWithOrWithoutItsNewline() {
        var complete = LineFramer(maxLineLength: 8)
        complete.append(Array("123456789\n".utf8))
        #expect(Self.lines(&complete) == ["<too long>"])
        var endless = LineFramer(maxLineLength: 8)
        endless.append(Array("12345678".utf8))
        #expect(Self.lines(&endless).isEmpty)
        endless.append([0x39])
        #expect(Self.lines(&endless) == ["<too long>"])
    }

    @Test func aQueueRefusesALineBeyondItsLimitButTakesTheLastLineRegardless() {
        var queue = OutputQueue(limit: 10)
        let storage = Array("abcd\nefgh\nijk\n".utf8)
        let first = queue.append(storage, 0..<5), second = queue.append(storage, 5..<10)
        let third = queue.append(storage, 10..<14)
        #expect(first && second && !third)
        #expect(queue.byteCount == 10)
        queue.appendLast(Array("bye\n".utf8))
        #expect(queue.byteCount == 14)
    }

    @Test func aQueueFinishesTheLineItStartedBeforeDroppingTheRest() throws {
        let (writer, reader) = try UnixSocket.pair()
        defer { writer.closeReleasing() }
        try writer.setSocketOption(SO_SNDBUF, to: 4096, call: "setsockopt(SO_SNDBUF)")
        var queue = OutputQueue(limit: 1 << 20)
        // One shared buffer of 100 lines, queued as ranges.
        let line: [UInt8] = Array(String(repeating: "x", count: 999).utf8) + [0x0A]
        var storage: [UInt8] = []
        for _ in 0..<100 { storage += line }
        for index in 0..<100 {
            let queued = queue.append(storage, (index * 1000)..<(index * 1000 + 1000))
            #expect(queued)
        }
        guard case .wouldBlock = queue.write(to: writer) else { Issue.record("the socket took 100 kB at once"); return }
        #expect(queue.byteCount > 0 && queue.byteCount < 100_000)
        let written = 100_000 - queue.byteCount
        queue.dropUnstarted()
        // What stays is the rest of the line being written, so the reader ends on a newline.
        #expect(queue.byteCount == (1000 - written % 1000) % 1000)
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65536)
        try reader.makeNonBlockingAndCloseOnExec()
        // Bounded: each round writes or reads something, and there are at most 100 kB.
        for _ in 0..<1000 where !queue.isEmpty || received.count < written {
            _ = queue.write(to: writer)
            if let count = try reader.readAvailable(into: &chunk) { received += chunk[0..<count] }
        }
        #expect(received.count % 1000 == 0 && received.last == 0x0A)
        reader.closeReleasing()
        let queued = queue.append(storage, 0..<1000)
        #expect(queued)
        guard case .failed(let error) = queue.write(to: writer) else { Issue.record("wrote to a closed peer"); return }
        #expect(error.errno == .brokenPipe)
    }
}
