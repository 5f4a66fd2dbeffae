import GestureCore
import Recordings
import Testing

/// Issue 25: a recording whose times went back was read as written, so durations went
/// negative and velocities changed sign. Every reader now gives each event at least the time of
/// the event before it, and says so where it first happens (file and line) and once more at
/// the end with the count, never once per event.
@Suite("Times that go back")
struct BackwardTimeTests {
    /// The same three frames in each format: at 1.0 s, at 0.75 s (back 0.25 s), at 1.1 s; the
    /// line of the first event that goes back.
    static let formats: [(name: String, line: Int, text: String)] = [
        ("back.evemu", 6, """
            # EVEMU 1.3
            N: Panel
            A: 00 0 1919 0 0 0
            A: 01 0 1079 0 0 0
            E: 1.000000 0003 0000 0100
            E: 0.750000 0003 0000 0200
            E: 0.750000 0000 0000 0000
            E: 1.100000 0003 0000 0300
            E: 1.100000 0000 0000 0000

            """),
        ("back.yml", 13, """
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event3
              evdev:
                name: "Panel"
                absinfo:
                  0: [0, 1919, 0, 0, 0]
                  1: [0, 1079, 0, 0, 0]
              events:
              - evdev:
                - [  1,      0,   3,   0,   100]
                - [  0, 750000,   3,   0,   200]
                - [  0, 750000,   0,   0,     0]
              - evdev:
                - [  1, 100000,   3,   0,   300]
                - [  1, 100000,   0,   0,     0]

            """),
        ("back.evtest", 14, """
            Input driver version is 1.0.1
            Input device ID: bus 0x3 vendor 0x1 product 0x2 version 0x3
            Input device name: "Panel"
            Supported events:
              Event type 3 (EV_ABS)
                Event code 0 (ABS_X)
                  Min        0
                  Max     1919
                Event code 1 (ABS_Y)
                  Min        0
                  Max     1079
            Testing ... (interrupt to exit)
            Event: time 1.000000, type 3 (EV_ABS), code 0 (ABS_X), value 100
            Event: time 0.750000, type 3 (EV_ABS), code 0 (ABS_X), value 200
            Event: time 0.750000, -------------- SYN_REPORT ------------
            Event: time 1.100000, type 3 (EV_ABS), code 0 (ABS_X), value 300
            Event: time 1.100000, -------------- SYN_REPORT ------------

            """),
        ("back.txt", 2, """
            [       1.000000] 0003 0000 00000064
            [       0.750000] 0003 0000 000000c8
            [       0.750000] 0000 0000 00000000
            [       1.100000] 0003 0000 0000012c
            [       1.100000] 0000 0000 00000000

            """),
    ]

    @Test(arguments: formats)
    func everyReaderClampsToThePreviousEventsTimeAndSaysWhere(_ file: (name: String, line: Int, text: String)) throws {
        let recording = try RecordingReader.parse(RecordingSource(name: file.name, text: file.text))
        #expect(recording.events.map(\.time.microseconds) == [1_000_000, 1_000_000, 1_000_000, 1_100_000, 1_100_000])
        #expect(recording.events.map(\.value) == [100, 200, 0, 300, 0], "the events themselves are kept")
        #expect(recording.warnings == [
            "\(file.name):\(file.line): the time goes back here, from 1.000000 to 0.750000 (0.250000 s earlier: the kernel "
                + "stamped events out of order, or the file was edited or joined); an event earlier than the one before it "
                + "is replayed at that event's time, so that no gesture sees time go backwards",
            "\(file.name): 2 events in one place went back in time (lines \(file.line) to \(file.line + 1), at most "
                + "0.250000 s); each was replayed at the time of the event before it",
        ])
    }

    /// A file whose every frame goes back (a recording joined from pieces, or a broken clock)
    /// gets two warnings however long it is.
    @Test func manyStepsBackGiveTwoWarnings() throws {
        var text = "N: Panel\nA: 00 0 1919 0 0 0\nA: 01 0 1079 0 0 0\n"
        for frame in 0..<1000 {
            // Forward 10 ms, back 10 ms, forward 17 ms, over and over.
            let time = 1_000_000 + frame / 2 * 7_000 + (frame % 2 == 0 ? 10_000 : 0)
            text += "E: \(time / 1_000_000).\(String(time % 1_000_000).leftPadded(6)) 0003 0000 \(frame)\n"
            text += "E: \(time / 1_000_000).\(String(time % 1_000_000).leftPadded(6)) 0000 0000 0000\n"
        }
        let recording = try RecordingReader.parse(RecordingSource(name: "saw.evemu", text: text))
        let times = recording.events.map(\.time)
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
        #expect(recording.warnings.count == 2)
        #expect(recording.warnings.first?.hasPrefix("saw.evemu:6: the time goes back here, from 1.010000 to 1.000000 ") == true)
        #expect(recording.warnings.last?.hasPrefix("saw.evemu: 1000 events in 500 places went back in time (lines 6 to "
            + "2003, at most 0.010000 s)") == true)
    }

    /// One event that goes back is said once, with no count after it.
    @Test func aSingleEventThatGoesBackIsSaidOnce() throws {
        let text = "N: Panel\nA: 00 0 1919 0 0 0\nE: 2.000000 0003 0000 1\nE: 1.999999 0000 0000 0\nE: 2.5 0000 0000 0\n"
        let recording = try RecordingReader.parse(RecordingSource(name: "one.evemu", text: text))
        #expect(recording.events.map(\.time.microseconds) == [2_000_000, 2_000_000, 2_000_005])
        #expect(recording.warnings.count == 1)
        #expect(recording.warnings.first?.hasPrefix("one.evemu:4: the time goes back here") == true)
    }

    /// A stream read event by event gives each warning with the event that caused it, so a
    /// replay can put it in its place.
    @Test func aStreamGivesTheWarningWithTheEventThatWentBack() throws {
        var stream = try RecordingReader.stream(RecordingSource(name: "back.evemu", text: Self.formats[0].text))
        #expect(try stream.next()?.time.microseconds == 1_000_000)
        #expect(stream.eventWarnings.isEmpty)
        #expect(try stream.next()?.time.microseconds == 1_000_000)
        #expect(stream.takeEventWarnings().count == 1)
        #expect(stream.eventWarnings.isEmpty)
        while try stream.next() != nil {}
        #expect(stream.takeEventWarnings().count == 1, "the count, at the end")
        #expect(try stream.next() == nil)
        #expect(stream.eventWarnings.isEmpty, "said once")
    }

    /// A recording already in memory (built by a tool or a test) is clamped when it is
    /// replayed, and the warning counts events, since there are no lines.
    @Test func aRecordingInMemoryIsClampedToo() throws {
        let events = [2_000_000, 1_000_000, 3_000_000].map {
            RawEvent(time: Timestamp(microseconds: $0), type: EventType.syn, code: SynCode.report, value: 0)
        }
        var stream = RecordingStream(Recording(description: nil, events: events, format: .evemu(.legacy),
                                               sourcePaths: ["made.evemu"]))
        var times: [Int64] = []
        while let event = try stream.next() { times.append(event.time.microseconds) }
        #expect(times == [2_000_000, 2_000_000, 3_000_000])
        #expect(stream.takeEventWarnings() == [
            "made.evemu: event 2: the time goes back here, from 2.000000 to 1.000000 (1.000000 s earlier: the kernel stamped "
                + "events out of order, or the file was edited or joined); an event earlier than the one before it is "
                + "replayed at that event's time, so that no gesture sees time go backwards",
        ])
    }

    /// Times at the edges of what the readers accept: a clamp and a message, never a trap.
    @Test func theFurthestStepBackIsAWarning() throws {
        let text = "N: Panel\nE: 999999999999.999999 0003 0000 1\nE: 0.000000 0000 0000 0\n"
        let recording = try RecordingReader.parse(RecordingSource(name: "far.evemu", text: text))
        #expect(recording.events.map(\.time.microseconds) == [999_999_999_999_999_999, 999_999_999_999_999_999])
        #expect(recording.warnings.first?.contains("(999999999999.999999 s earlier") == true)
    }
}

extension String {
    fileprivate func leftPadded(_ width: Int) -> String {
        String(repeating: "0", count: max(0, width - count)) + self
    }
}
