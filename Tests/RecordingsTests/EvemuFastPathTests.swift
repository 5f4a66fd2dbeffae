import GestureCore
@testable import Recordings
import Testing
import TestSupport

/// The replay's evemu fast path (`LineReader.nextCanonicalEvemuEvent`, reading lines straight
/// from the buffer with `EvemuParser.canonicalEvent(at:memo:)`) must take exactly the lines
/// `EvemuParser.canonicalEvent(_:)` documents, with the same event, and leave every other line,
/// unconsumed, to the parser: a replay with it must be the replay without it, event for event,
/// line number for line number, error for error, whatever the chunk boundaries.
@Suite("Evemu fast path")
struct EvemuFastPathTests {
    /// What a stream gave, call by call, each with the number of the last line read after it.
    enum Step: Equatable, CustomStringConvertible {
        case event(RawEvent, line: Int)
        case error(RecordingError, line: Int)
        case end(line: Int)

        var description: String {
            switch self {
            case let .event(event, line): "line \(line): \(event.time.microseconds) \(event.type) \(event.code) \(event.value)"
            case let .error(error, line): "line \(line): \(error)"
            case let .end(line): "line \(line): end"
            }
        }
    }

    /// The description, comments past the format detector's first 16 KiB (read in one go
    /// whatever the chunk size, so the events after them come in chunks of the size given),
    /// and the first event: the fast path starts after it.
    static let header = smallDescription + String(repeating: "# padding past 16 KiB --\n", count: 660)
        + "E: 0.000001 0000 0000 0\n"
    static let headerLines = 18 + 660 + 1

    /// `steps` with their line numbers counted from the header's last line.
    static func afterHeader(_ steps: [Step]) -> [Step] {
        steps.map { step in
            switch step {
            case let .event(event, line): return .event(event, line: headerLines + line)
            case let .error(error, line):
                var error = error
                error.line = error.line.map { headerLines + $0 }
                return .error(error, line: headerLines + line)
            case let .end(line): return .end(line: headerLines + line)
            }
        }
    }

    /// Reads `bytes` to the end (errors and all: a stream reads on after a malformed line)
    /// with or without the fast path.
    static func transcript(_ bytes: [UInt8], fastPath: Bool, chunkSize: Int = 64 * 1024,
                           maximumLineLength: Int = 1 << 20) -> [Step] {
        let limits = LineReader.Limits(chunkSize: chunkSize, maximumLineLength: maximumLineLength)
        var stream: RecordingStream
        do {
            stream = try RecordingStream(lines: LineReader(name: "t.evemu", bytes: bytes, limits: limits),
                                         canonicalEvemuFastPath: fastPath)
        } catch {
            return [.error(error, line: 0)]
        }
        var steps: [Step] = []
        while steps.count <= bytes.count {
            do {
                guard let event = try stream.next() else {
                    steps.append(.end(line: stream.linesRead))
                    break
                }
                steps.append(.event(event, line: stream.linesRead))
            } catch {
                steps.append(.error(error, line: stream.linesRead))
            }
        }
        return steps
    }

    static func event(_ microseconds: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> RawEvent {
        RawEvent(time: Timestamp(microseconds: microseconds), type: type, code: code, value: value)
    }

    /// Events as the fast path must read them, each followed by the lines read after it.
    static let cases: [(text: String, expected: [Step])] = [
        ("E: 1.000000 0003 0035 1364\nE: 1.000000 0003 0036 -5\n",
         [.event(event(1_000_000, 3, 0x35, 1364), line: 1), .event(event(1_000_000, 3, 0x36, -5), line: 2)]),
        ("E: 1.000000 0003 0035 1364\r\nE: 2.000001 0003 0036 5\r\n",
         [.event(event(1_000_000, 3, 0x35, 1364), line: 1), .event(event(2_000_001, 3, 0x36, 5), line: 2)]),
        // A last line without a line break.
        ("E: 1.000000 0003 0035 1\nE: 2.5 0 0 0",
         [.event(event(1_000_000, 3, 0x35, 1), line: 1), .event(event(2_000_005, 0, 0, 0), line: 2)]),
        ("E: 1.000000 0003 0035 1\r\nE: 2.000000 0000 0000 0\r",
         [.event(event(1_000_000, 3, 0x35, 1), line: 1), .event(event(2_000_000, 0, 0, 0), line: 2)]),
        // Comments and blank lines between events.
        ("E: 1.000000 0003 0035 1\n# a comment\n\n  \t\n#\nE: 1.000000 0000 0000 0\n",
         [.event(event(1_000_000, 3, 0x35, 1), line: 1), .event(event(1_000_000, 0, 0, 0), line: 6)]),
        // Leading zeros everywhere (`%04d` values are decimal), negative values, the Int32 limits.
        ("E: 0001.000010 0003 0035 0001364\nE: 1.000010 0003 0035 -001\nE: 1.000010 0003 0035 -0\n"
            + "E: 1.000010 0003 0035 -2147483648\nE: 1.000010 0003 0035 2147483647\n",
         [.event(event(1_000_010, 3, 0x35, 1364), line: 1), .event(event(1_000_010, 3, 0x35, -1), line: 2),
          .event(event(1_000_010, 3, 0x35, 0), line: 3), .event(event(1_000_010, 3, 0x35, .min), line: 4),
          .event(event(1_000_010, 3, 0x35, .max), line: 5)]),
        // Four hex digits in either case, fewer digits, the longest times.
        ("E: 7.000001 0001 014A 1\nE: 7.000001 ABCD ffff 2\nE: 7.000001 1 14a 3\nE: 123456789012.999999 fFfF 0 4\n",
         [.event(event(7_000_001, 1, 0x14a, 1), line: 1), .event(event(7_000_001, 0xabcd, 0xffff, 2), line: 2),
          .event(event(7_000_001, 1, 0x14a, 3), line: 3), .event(event(123_456_789_012_999_999, 0xffff, 0, 4), line: 4)]),
        // Times that differ only past the first 16 bytes (epoch seconds), or are shorter, or
        // longer with the same start (in increasing order: a time that goes back is clamped).
        ("E: 1403011238.123456 0003 0035 1\nE: 1403011238.123457 0003 0035 2\nE: 1403011238.123457 0003 0035 3\n"
            + "E: 1403011239.1 0003 0035 4\nE: 1403011239.10 0003 0035 5\nE: 1403011239.100000 0003 0035 6\n",
         [.event(event(1_403_011_238_123_456, 3, 0x35, 1), line: 1), .event(event(1_403_011_238_123_457, 3, 0x35, 2), line: 2),
          .event(event(1_403_011_238_123_457, 3, 0x35, 3), line: 3), .event(event(1_403_011_239_000_001, 3, 0x35, 4), line: 4),
          .event(event(1_403_011_239_000_010, 3, 0x35, 5), line: 5), .event(event(1_403_011_239_100_000, 3, 0x35, 6), line: 6)]),
        // A time that goes back, on either path: the previous event's time (issue 25).
        ("E: 2.000000 0003 0035 1\nE: 1.5 0003 0035 2\nE: 1.000000 0000 0000 0\nE: 2.000001 0003 0035 3\n",
         [.event(event(2_000_000, 3, 0x35, 1), line: 1), .event(event(2_000_000, 3, 0x35, 2), line: 2),
          .event(event(2_000_000, 0, 0, 0), line: 3), .event(event(2_000_001, 3, 0x35, 3), line: 4)]),
        // Other spellings of events go through the parser, with the same events.
        ("E: 1.000100  0003 0035 100\nE:\t1.000100 0003 0035 100\nE: 1.000100 0003 0035 100\t# +0ms\n"
            + "E: 1.000100 0003 0035 +100\nE: 1.000100 00003 0035 100\n",
         [.event(event(1_000_100, 3, 0x35, 100), line: 1), .event(event(1_000_100, 3, 0x35, 100), line: 2),
          .event(event(1_000_100, 3, 0x35, 100), line: 3), .event(event(1_000_100, 3, 0x35, 100), line: 4),
          .event(event(1_000_100, 3, 0x35, 100), line: 5)]),
        // A malformed event line is named, with its line number, and the events go on after it.
        ("E: 1.000000 0003 0035 1\nE: 1.000000 0003 0035 1x\nE: 1.000000 0003 0035 2\n",
         [.event(event(1_000_000, 3, 0x35, 1), line: 1),
          .error(RecordingError(file: "t.evemu", line: 2, message: "expected \(EvemuParser.eventSyntax), "
                                    + "found \"E: 1.000000 0003 0035 1x\""), line: 2),
          .event(event(1_000_000, 3, 0x35, 2), line: 3)]),
        ("E: 1.000000 0003 0035 2147483648\n",
         [.error(RecordingError(file: "t.evemu", line: 1, message: "expected \(EvemuParser.eventSyntax), "
                                    + "found \"E: 1.000000 0003 0035 2147483648\""), line: 1)]),
        // A `\r` that ends no line is a line-ending mistake, named (issue 25); the line after it is read.
        ("E: 1.000000 0003 0035 1\r\r\nE: 1.000000 0003 0035 2\n",
         [.error(RecordingError(file: "t.evemu", line: 1, message: EncodingCheck.problem(inLine: ArraySlice(
            "E: 1.000000 0003 0035 1\r".utf8))!), line: 1),
          .event(event(1_000_000, 3, 0x35, 2), line: 2)]),
    ]

    /// Chunks that cut the test lines (about 27 bytes) anywhere, and leave old bytes after
    /// the bytes read that would complete a line.
    static let chunkSizes = [1, 2, 7, 13, 26, 27, 28, 29, 45, 64, 4096, 64 * 1024]

    @Test(arguments: 0..<cases.count)
    func trickyLinesGiveTheEventsAndLinesTheParserGives(_ index: Int) {
        let (text, expected) = Self.cases[index]
        let bytes = Array((Self.header + text).utf8)
        let lines = text.utf8.count { $0 == .newline } + (text.utf8.last == .newline ? 0 : 1)
        let ending = Step.end(line: Self.headerLines + lines)
        let general = Self.transcript(bytes, fastPath: false)
        #expect(general.first == .event(Self.event(1, 0, 0, 0), line: Self.headerLines))
        #expect(Array(general.dropFirst()) == Self.afterHeader(expected) + [ending])
        for chunkSize in Self.chunkSizes {
            let fast = Self.transcript(bytes, fastPath: true, chunkSize: chunkSize)
            #expect(fast == general, "chunks of \(chunkSize)")
        }
    }

    /// A line cut by the boundary of the usual 64 KiB chunks is read after the refill.
    @Test func aLineAcrossTheChunkBoundaryIsReadWhole() throws {
        var text = Self.header
        var values: [Int32] = []
        // Pad so that no line ends exactly at the boundary.
        while text.utf8.count < 70_000 {
            let value = Int32(values.count * 7 % 5000)
            text += "E: 3.000000 0003 0035 \(value)\n"
            values.append(value)
        }
        let boundary = 64 * 1024
        let bytes = Array(text.utf8)
        let cut = try #require(bytes[..<boundary].lastIndex(of: UInt8(ascii: "\n")))
        #expect(cut < boundary - 1, "a line must straddle the boundary")
        let fast = Self.transcript(bytes, fastPath: true)
        #expect(fast == Self.transcript(bytes, fastPath: false))
        #expect(fast.count == values.count + 2)
        for (index, value) in values.enumerated() {
            #expect(fast[index + 1] == .event(Self.event(3_000_000, 3, 0x35, value), line: Self.headerLines + 1 + index))
        }
    }

    /// After a refill, the bytes past those read are left from earlier chunks: a line cut
    /// just before its end can be followed there by an old line break (lines of alternating
    /// lengths put one exactly there), and must still wait for the rest of the line.
    @Test(arguments: [27, 29, 33, 39, 91])
    func aLineCutWhereAnOldLineBreakLiesIsNotTakenAsEnded(_ chunkSize: Int) {
        var text = Self.header
        var expected: [Step] = [.event(Self.event(1, 0, 0, 0), line: Self.headerLines)]
        for index in 0..<2000 {
            let value: Int32 = index % 2 == 0 ? 1364 : 13
            text += "E: 1.000000 0003 0035 \(value)\n"
            expected.append(.event(Self.event(1_000_000, 3, 0x35, value), line: Self.headerLines + 1 + index))
        }
        expected.append(.end(line: Self.headerLines + 2000))
        #expect(Self.transcript(Array(text.utf8), fastPath: true, chunkSize: chunkSize) == expected)
    }

    @Test func theFastPathTakesWholeCanonicalLinesOnlyAndConsumesNothingElse() throws {
        let text = "E: 1.000000 0003 0035 1364\r\nE: 1.5 3 35 -1\n# c\nE: 1.5  3 35 1\nE: 2.000000 0003 0035 7"
        var reader = LineReader(name: "t", bytes: Array(text.utf8))
        _ = try reader.peek(text.utf8.count)
        #expect(reader.nextCanonicalEvemuEvent() == Self.event(1_000_000, 3, 0x35, 1364))
        #expect(reader.lineNumber == 1)
        #expect(reader.nextCanonicalEvemuEvent() == Self.event(1_000_005, 3, 0x35, -1))
        #expect(reader.lineNumber == 2)
        for expected in ["# c", "E: 1.5  3 35 1", "E: 2.000000 0003 0035 7"] {
            // Not canonical, or not followed by a line break: left to nextLine().
            #expect(reader.nextCanonicalEvemuEvent() == nil)
            let line = try #require(try reader.nextLine())
            #expect(String(decoding: line.bytes, as: UTF8.self) == expected)
            #expect(line.number == reader.lineNumber)
        }
        #expect(reader.lineNumber == 5)
        #expect(reader.nextCanonicalEvemuEvent() == nil)
        #expect(try reader.nextLine() == nil)
    }

    @Test func theFastPathIsTakenAfterTheFirstEventOfAnEvemuFileOnly() throws {
        let evemu = Array((Self.header + "E: 1.000000 0003 0035 1\n").utf8)
        var stream = try RecordingStream(lines: LineReader(name: "t.evemu", bytes: evemu))
        #expect(!stream.triesCanonicalEvemuEvents)
        _ = try stream.next()
        #expect(stream.triesCanonicalEvemuEvents)
        #expect(try stream.next() == Self.event(1_000_000, 3, 0x35, 1))
        #expect(try stream.next() == nil)
        #expect(!stream.triesCanonicalEvemuEvents)

        // Not when the line limit is shorter than an event line could be: the parser measures.
        let limits = LineReader.Limits(chunkSize: 64, maximumLineLength: EvemuParser.longestCanonicalLine - 1)
        var limited = try RecordingStream(lines: LineReader(name: "t.evemu", bytes: evemu, limits: limits))
        _ = try limited.next()
        #expect(!limited.triesCanonicalEvemuEvents)

        let getevent = Array("[    1.000000] 0003 0035 00000001\n[    1.000000] 0000 0000 00000000\n".utf8)
        var other = try RecordingStream(lines: LineReader(name: "t.txt", bytes: getevent))
        #expect(other.format == .getevent)
        _ = try other.next()
        #expect(!other.triesCanonicalEvemuEvents)
    }

    /// Random lines, mostly near the canonical form: the fast path's answer for each, alone and
    /// followed by a line break, is `canonicalEvent(_:)`'s for the line the parser would see.
    @Test func randomLinesAreAcceptedExactlyAsCanonicalEventAcceptsThem() throws {
        var random = SeededRandom(seed: 0x0E7E_5EED)
        var accepted = 0
        for _ in 0..<20_000 {
            let line = Self.randomLine(&random, time: nil)
            for ending in ["\n", "\r\n", ""] {
                let bytes = line + Array(ending.utf8) + Array("E: 9.000000 0000 0000 0\n".utf8)
                // What the parser sees: the line without its line break, and one `\r` before `\n`.
                var seen = ArraySlice(line)
                if ending != "\r\n", seen.last == .carriageReturn { seen = seen.dropLast() }
                let expected = ending.isEmpty || seen.first != UInt8(ascii: "E") ? nil : EvemuParser.canonicalEvent(seen)
                var reader = LineReader(name: "t", bytes: ending.isEmpty ? line : bytes)
                _ = try reader.peek(bytes.count)
                let found = reader.nextCanonicalEvemuEvent()
                #expect(found == expected, "\(String(decoding: line, as: UTF8.self).debugDescription) + \(ending.debugDescription)")
                #expect(reader.lineNumber == (found == nil ? 0 : 1))
                if found == nil, !line.isEmpty || !ending.isEmpty {
                    // A line with a NUL or a lone `\r` is refused, named (issue 25).
                    if let problem = EncodingCheck.problem(inLine: seen) {
                        #expect(throws: RecordingError(file: "t", line: 1, message: problem)) { try reader.nextLine() }
                    } else {
                        #expect(try reader.nextLine()?.bytes.elementsEqual(seen) == true)
                    }
                }
                if found != nil { accepted += 1 }
            }
        }
        // Enough of them canonical that the test says something about both answers.
        #expect(accepted > 10_000)
        #expect(accepted < 40_000)
    }

    /// Random files of frames (lines sharing a time, a few type/code pairs, so the fast path's
    /// memory is used and refreshed), with comments, blank lines, CRLF, other spellings and
    /// malformed lines, in random chunks: the fast path's transcript is the parser's.
    @Test func randomFilesReadTheSameWithAndWithoutTheFastPath() {
        var random = SeededRandom(seed: 0xFA57_0BAD)
        var events = 0
        for _ in 0..<150 {
            var bytes = Array(Self.header.utf8)
            for _ in 0..<Int.random(in: 1...12, using: &random) {
                let time = Array("E: \(Int.random(in: 0...99_999, using: &random)).\(Self.digits(6, &random)) ".utf8)
                for _ in 0..<Int.random(in: 1...12, using: &random) {
                    bytes += Self.randomLine(&random, time: Int.random(in: 0..<4, using: &random) == 0 ? nil : time)
                    bytes += Array((Int.random(in: 0..<4, using: &random) == 0 ? "\r\n" : "\n").utf8)
                }
            }
            if Bool.random(using: &random) { bytes.removeLast() }
            let chunkSize = Self.chunkSizes.randomElement(using: &random)!
            let maximumLineLength = [1 << 20, 1 << 20, 1 << 20, 46, 45, 30].randomElement(using: &random)!
            let general = Self.transcript(bytes, fastPath: false, chunkSize: chunkSize, maximumLineLength: maximumLineLength)
            let fast = Self.transcript(bytes, fastPath: true, chunkSize: chunkSize, maximumLineLength: maximumLineLength)
            #expect(fast == general, Comment(rawValue: "chunks of \(chunkSize), lines of at most \(maximumLineLength): "
                                                 + String(decoding: bytes, as: UTF8.self).debugDescription))
            events += general.count { if case .event = $0 { true } else { false } }
        }
        #expect(events > 2_000)
    }

    static func digits(_ count: Int, _ random: inout SeededRandom) -> String {
        String((0..<count).map { _ in "0123456789".randomElement(using: &random)! })
    }

    /// An evemu event line, mostly as evemu writes it (from `time`, a shared `E: <sec>.<usec> `,
    /// when given), else with fields too short or too long, other separators, signs, comments,
    /// a byte changed or dropped, or no event at all.
    static func randomLine(_ random: inout SeededRandom, time: [UInt8]?) -> [UInt8] {
        func pick<T>(_ options: [T]) -> T { options.randomElement(using: &random)! }
        func hex(_ count: Int) -> String {
            String((0..<count).map { _ in "0123456789abcdefABCDEF".randomElement(using: &random)! })
        }
        switch Int.random(in: 0..<40, using: &random) {
        case 0: return Array("# comment".utf8)
        case 1: return []
        case 2: return Array(" \t".utf8)
        case 3: return Array("A: 00 0 799 0 0 0".utf8)
        default: break
        }
        // Half the lines are exactly as evemu writes them (fields of any width it accepts);
        // the others stray from that here and there.
        let exact = Bool.random(using: &random)
        func strays() -> Bool { !exact && Int.random(in: 0..<6, using: &random) == 0 }
        func separator() -> String { strays() ? pick(["\t", "  ", ""]) : " " }
        var text = ""
        if let time, Int.random(in: 0..<4, using: &random) != 0 {
            text = String(decoding: time, as: UTF8.self)
        } else {
            text = (strays() ? pick(["E:\t", "E:", "E:  ", "e: ", "E; "]) : "E: ")
                + digits(strays() ? pick([13, 0, 14]) : pick([1, 1, 2, 3, 5, 10, 12]), &random)
                + (strays() ? pick([",", "", ".."]) : ".")
                + digits(strays() ? pick([7, 0]) : pick([6, 6, 6, 6, 1, 5]), &random) + separator()
        }
        text += hex(strays() ? pick([5, 0]) : pick([4, 4, 4, 4, 1, 2, 3])) + separator()
        text += hex(strays() ? pick([5, 0]) : pick([4, 4, 4, 4, 1, 2, 3])) + separator()
        text += strays() ? pick(["+", "--", "- "]) : pick(["", "", "", "-"])
        text += strays() ? pick(["2147483648", "4294967295", "00000000001", "", digits(11, &random)])
            : pick([digits(pick([1, 1, 2, 3, 4, 4, 7, 8, 9]), &random), "2147483647", "0000000001", "0"])
        text += strays() ? pick([" ", "\t# +0ms", "x", "\r", " # c", "\t", "\0"]) : ""
        var bytes = Array(text.utf8)
        if !exact, Int.random(in: 0..<3, using: &random) == 0, !bytes.isEmpty {
            let replacement: [UInt8] = [UInt8(ascii: "E"), .colon, .space, .period, UInt8(ascii: "0"), UInt8(ascii: "9"),
                                        UInt8(ascii: "a"), UInt8(ascii: "F"), UInt8(ascii: "g"), .minus, .tab,
                                        .carriageReturn, 0, 0x80, 0xff, UInt8(ascii: "/"), UInt8(ascii: ":"),
                                        UInt8(ascii: "@"), UInt8(ascii: "`"), UInt8(ascii: "G")]
            bytes[Int.random(in: 0..<bytes.count, using: &random)] = pick(replacement)
        }
        if !exact, Int.random(in: 0..<6, using: &random) == 0, !bytes.isEmpty {
            bytes.remove(at: Int.random(in: 0..<bytes.count, using: &random))
        }
        return bytes
    }
}

