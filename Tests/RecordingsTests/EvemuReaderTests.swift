import GestureCore
import Recordings
import Testing

/// Parses evemu text held in memory, named `name` in errors.
func parseEvemu(_ text: String, name: String = "test.evemu") throws(RecordingError) -> Recording {
    try RecordingReader.parse(RecordingSource(name: name, text: text))
}

/// The error reading `text` throws, or nil.
func parseError(_ text: String, name: String = "test.evemu") -> RecordingError? {
    do {
        _ = try RecordingReader.parse(RecordingSource(name: name, text: text))
        return nil
    } catch {
        return error
    }
}

let smallDescription = """
    # EVEMU 1.3
    N: Panel
    I: 0018 0000 0000 0000
    P: 02 00 00 00 00 00 00 00
    B: 00 0b 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 00 00 00 00 00 00 00
    B: 01 00 04 00 00 00 00 00 00
    B: 03 03 00 00 00 00 80 60 02
    A: 00 0 799 0 0 0
    A: 01 0 479 0 0 0
    A: 2f 0 9 0 0 0
    A: 35 0 799 0 0 0
    A: 36 0 479 0 0 0
    A: 39 0 65535 0 0 0

    """

@Suite("evemu reader pitfalls")
struct EvemuReaderTests {
    @Test func paddedDecimalValues() throws {
        // `%04d`: `0035` is 35 (not hex 0x35, not octal), `-001` is -1.
        let recording = try parseEvemu("E: 0.000001 0003 0035 0035\nE: 0.000001 0003 0039 -001\nE: 0.000001 0003 0036 0800\n")
        #expect(recording.events == [event(1, 3, 0x35, 35), event(1, 3, 0x39, -1), event(1, 3, 0x36, 800)])
    }

    @Test func absoluteEpochTimesAreExact() throws {
        let recording = try parseEvemu("E: 1370597233.054146 0000 0000 0000\n")
        #expect(recording.events == [event(1_370_597_233_054_146, 0, 0, 0)])
    }

    @Test func tabAndCommentAfterEvents() throws {
        let recording = try parseEvemu("""
            E: 0.000001 0003 0039 0003\t# EV_ABS / ABS_MT_TRACKING_ID   3
            E: 1.934008 0000 0000 0000\t# ------------ SYN_REPORT (0) ---------- +111ms

            """)
        #expect(recording.events == [event(1, 3, 0x39, 3), event(1_934_008, 0, 0, 0)])
    }

    @Test func negativeMinimaAndBothAbsLineLengths() throws {
        let recording = try parseEvemu("""
            # EVEMU 1.1
            N: Touchpad
            I: 0003 05ac 0249 0001
            A: 35 -4620 5140 0 0
            A: 36 -150 6600 3 1 42

            """)
        let description = try #require(recording.description)
        #expect(description.absInfo[0x35] == AbsInfo(minimum: -4620, maximum: 5140))
        #expect(description.absInfo[0x36] == AbsInfo(minimum: -150, maximum: 6600, fuzz: 3, flat: 1, resolution: 42))
        #expect(recording.format == .evemu(EvemuVersion(1, 1)))
    }

    @Test func missingVersionLineIsLegacy() throws {
        let recording = try parseEvemu("N: Old\nI: 0003 0408 3001 0110\nA: 00 0 1920 0 0\n")
        #expect(recording.format == .evemu(.legacy))
        #expect(recording.description?.name == "Old")
    }

    @Test func eventsOnlyFileHasNoDescription() throws {
        let recording = try parseEvemu("E: 75.280046 0003 0039 0005\nE: 75.280046 0000 0000 0000\n")
        #expect(recording.description == nil)
        #expect(recording.events.count == 2)
    }

    @Test func splitDescriptionAndEvents() throws {
        let recording = try RecordingReader.parse(RecordingSource(name: "panel.desc", text: smallDescription),
                                                  eventsSource: RecordingSource(name: "panel.events", text: "E: 1.000000 0003 0039 0001\nE: 1.000000 0000 0000 0000\n"))
        #expect(recording.description?.name == "Panel")
        #expect(recording.events == [event(1_000_000, 3, 0x39, 1), event(1_000_000, 0, 0, 0)])
        #expect(recording.format == .evemu(EvemuVersion(1, 3)))
        #expect(recording.sourcePaths == ["panel.desc", "panel.events"])
    }

    @Test func splitNeedsADescription() {
        let error = parseErrorSplit(description: "E: 1.000000 0000 0000 0000\n", events: "E: 1.000000 0000 0000 0000\n")
        #expect(error?.description == "panel.desc: expected a device description (evemu \"N:\"/\"I:\" lines or a libinput record \"evdev:\" section), found none")
    }

    @Test func descriptionBitmasks() throws {
        let description = try #require(try parseEvemu(smallDescription).description)
        // `B: 00 0b …` is ignored (it is the old event-type mask), the rest gives the codes;
        // the sixth `B: 01` line's byte 1 bit 2 is code 8 * 8 * 5 + 10 = BTN_TOUCH (0x14a).
        #expect(description.codes == [EventType.key: [KeyCode.btnTouch],
                                      EventType.abs: [0x00, 0x01, 0x2f, 0x35, 0x36, 0x39]])
        #expect(description.properties == [InputProperty.direct])
        #expect(description.bus == 0x18)
    }

    @Test func undeclaredCodesAreKept() throws {
        // ABS_MT_PRESSURE (0x3a) is not in the description; events keep it.
        let recording = try parseEvemu(smallDescription + "E: 0.000001 0003 003a 0019\nE: 0.000001 0000 0000 0000\n")
        #expect(recording.events.first == event(1, 3, 0x3a, 19))
        #expect(recording.description?.has(type: EventType.abs, code: 0x3a) == false)
    }

    @Test func truncatedLastFrameIsKept() throws {
        // Events after the last SYN_REPORT stay; replay cancels the touches they leave down.
        let recording = try parseEvemu("""
            E: 0.000001 0003 0039 0003
            E: 0.000001 0000 0000 0000
            E: 0.010000 0003 0035 0100
            E: 0.010000 0003 0036 0200

            """)
        #expect(recording.events.count == 4)
        #expect(recording.frameCount == 1)
        #expect(recording.events.last == event(10_000, 3, 0x36, 200))
    }

    @Test func crlfLineEnds() throws {
        let recording = try parseEvemu("# EVEMU 1.2\r\nN: Panel\r\nI: 0003 0eef 7224 0000\r\nE: 0.000001 0000 0000 0000\r\n")
        #expect(recording.description?.name == "Panel")
        #expect(recording.format == .evemu(EvemuVersion(1, 2)))
        #expect(recording.events.count == 1)
    }
}

@Suite("evemu reader errors name file, line and what was expected")
struct EvemuReaderErrorTests {
    @Test(arguments: [
        ("E: 1.5 0003\n", 1,
         #"expected "E: <sec>.<usec> <type> <code> <value>", found "E: 1.5 0003""#),
        ("E: 0.000001 0003 0035 0035\nE: 0.000001 0003 zz 0035\n", 2,
         #"expected "E: <sec>.<usec> <type> <code> <value>", found "E: 0.000001 0003 zz 0035""#),
        ("E: 0.000001 0003 0035 12ab\n", 1,
         #"expected "E: <sec>.<usec> <type> <code> <value>", found "E: 0.000001 0003 0035 12ab""#),
        ("E: 0.0000001 0003 0035 1\n", 1,
         #"expected "E: <sec>.<usec> <type> <code> <value>", found "E: 0.0000001 0003 0035 1""#),
        ("N: Panel\nI: 0003 0eef\n", 2,
         #"expected "I: <bus> <vendor> <product> <version>" (hex), found "I: 0003 0eef""#),
        ("N: Panel\nP: 02 00 00\n", 2,
         #"expected "P: <8 hex bytes>", found "P: 02 00 00""#),
        ("N: Panel\nB: 03 03 00 00 00 00 80 60\n", 2,
         #"expected "B: <type> <8 hex bytes>", found "B: 03 03 00 00 00 00 80 60""#),
        ("N: Panel\nA: 35 0 799 0\n", 2,
         #"expected "A: <code> <min> <max> <fuzz> <flat> [<resolution>]", found "A: 35 0 799 0""#),
        ("N: Panel\nA: 35 0 799 0 0 0 0\n", 2,
         #"expected "A: <code> <min> <max> <fuzz> <flat> [<resolution>]", found "A: 35 0 799 0 0 0 0""#),
        ("I: 0003 0eef 7224 0000\n", 1,
         #"expected "N: <device name>" before the rest of the device description, found "I: 0003 0eef 7224 0000""#),
        ("N: Panel\nhello\n", 2,
         ##"expected a line starting with "N:", "I:", "P:", "B:", "A:", "E:" or "#", found "hello""##),
    ])
    func malformedLine(_ text: String, _ line: Int, _ message: String) throws {
        let error = try #require(parseError(text))
        #expect(error.file == "test.evemu")
        #expect(error.line == line)
        #expect(error.message == message)
        #expect(error.description == "test.evemu:\(line): \(message)")
    }

    @Test func missingFileNamesFileAndErrno() {
        #expect(throws: RecordingError(file: "/nonexistent/x.evemu", line: nil,
                                       message: "open failed: No such file or directory (errno 2)")) {
            try RecordingReader.read(path: "/nonexistent/x.evemu")
        }
    }

    @Test func emptyFile() {
        #expect(parseError("\n\n", name: "empty.evemu")?.description == "empty.evemu: expected a recording, found an empty file")
    }

    @Test func unrecognisedFormat() {
        let error = parseError("hello world\n", name: "notes.txt")
        #expect(error?.description == "notes.txt: expected an evemu, libinput record, evtest or getevent -t recording; the format was not recognised")
    }
}

func parseErrorSplit(description: String, events: String) -> RecordingError? {
    do {
        _ = try RecordingReader.parse(RecordingSource(name: "panel.desc", text: description),
                                      eventsSource: RecordingSource(name: "panel.events", text: events))
        return nil
    } catch {
        return error
    }
}

/// Event lines as evemu writes them take a fast path (`EvemuParser.canonicalEvent`); every
/// other spelling of the same event takes the general scanner. Both must give the same event,
/// and the fast path must hand every line it does not fully accept to the general one (which
/// accepts or rejects it exactly as before).
@Suite("Evemu event lines, canonical and not")
struct EvemuCanonicalLineTests {
    /// Pairs: a canonical line and other spellings of the same event.
    static let spellings: [(canonical: String, others: [String])] = [
        ("E: 1.000100 0003 0035 100", ["E:\t1.000100 0003 0035 100", "E: 1.000100  0003 0035 100",
                                        "E: 1.000100 0003 0035 +100", "E: 1.000100 0003 0035 100 # a comment",
                                        "E: 1.000100 3 35 100 ", "E: 1.000100 00003 000035 0000100"]),
        ("E: 0.5 0 0 0", ["E: 0.000005 0000 0000 -0"]),
        ("E: 123456789012.999999 ffff FFFF -2147483648", ["E: 123456789012.999999 0ffff 0FFFF -2147483648"]),
        ("E: 7.000001 0001 014a 2147483647", ["E: 7.000001 0001 014A 2147483647\t"]),
    ]

    @Test func everySpellingGivesTheSameEvent() throws {
        for (canonical, others) in Self.spellings {
            let expected = try parseEvemu(smallDescription + canonical + "\n").events
            #expect(expected.count == 1, "\(canonical)")
            for other in others {
                let events = try parseEvemu(smallDescription + other + "\n").events
                #expect(events == expected, "\(other) against \(canonical)")
            }
        }
    }

    @Test(arguments: [
        "E: 1.000100 0003 0035 2147483648",      // beyond Int32
        "E: 1.000100 0003 0035 -2147483649",
        "E: 1234567890123.000100 0003 0035 1",   // 13 digits of seconds
        "E: 1.0001000 0003 0035 1",              // 7 digits of microseconds
        "E: 1.000100 10000 0035 1",              // type beyond 0xffff
        "E: 1.000100 0003 0035",                 // no value
        "E: 1.000100 0003 0035 1x",
        "E: 1.000100 0003 0035 - 1",
        "E: 1000100 0003 0035 1",                // no period
        "E: .000100 0003 0035 1",
        "E: 1. 0003 0035 1",
    ])
    func malformedLinesAreStillErrors(line: String) {
        #expect(parseError(smallDescription + line + "\n") != nil, "\(line)")
    }
}
