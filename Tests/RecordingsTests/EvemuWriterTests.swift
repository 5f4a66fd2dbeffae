#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GestureCore
import Recordings
import Testing
import TestSupport

@Suite("evemu writer")
struct EvemuWriterTests {
    /// Read → write → read gives the same description and events, for the project's own
    /// recordings (the corpus's real ones are in `EvemuWriterCorpusTests`).
    @Test(arguments: ["lobby-session.evemu", "map-session.evemu", "four-finger-drag.evemu", "one-finger-taps.evemu"])
    func roundTrip(_ name: String) throws {
        try expectRoundTrip(PackagePaths.recording(name))
    }

    @Test func libinputRecordRoundTripDropsOnlySynCodes() throws {
        let original = try RecordingReader.read(path: TestPaths.fixture("elan-touchscreen.tap.libinput-record.yml"))
        var description = try #require(original.description)
        let reread = try RecordingReader.parse(RecordingSource(
            name: "written.evemu", text: EvemuWriter.text(description: description, events: original.events)))
        description.codes[EventType.syn] = nil
        #expect(reread.description == description)
        #expect(reread.events == original.events)
    }

    @Test func writesWhatEvemuWrites() {
        let description = DeviceDescription(
            name: "Panel", bus: 0x18, vendor: 0x0eef, product: 0x7224, version: 0,
            codes: [EventType.key: [KeyCode.btnTouch], EventType.abs: [0x00, 0x2f, 0x35, 0x39]],
            absInfo: [0x00: AbsInfo(minimum: -5, maximum: 799, fuzz: 1, flat: 2, resolution: 3),
                      0x2f: AbsInfo(minimum: 0, maximum: 9), 0x35: AbsInfo(minimum: 0, maximum: 799),
                      0x39: AbsInfo(minimum: 0, maximum: 65535)],
            properties: [InputProperty.direct])
        let events = [event(1, 3, 0x39, 3), event(1, 3, 0x35, 35), event(1_934_008, 3, 0x39, -1),
                      event(1_370_597_233_054_146, 0, 0, 0), event(5, 3, 0x35, 12345)]
        let text = EvemuWriter.text(description: description, events: events)
        let empty = " 00 00 00 00 00 00 00 00"
        let expected = "# EVEMU 1.3\n"
            + "N: Panel\n"
            + "I: 0018 0eef 7224 0000\n"
            + "P: 02 00 00 00 00 00 00 00\n"
            + "B: 00 0b 00 00 00 00 00 00 00\n"
            // EV_KEY: KEY_MAX 0x2ff, 96 bytes in 12 lines of 8; BTN_TOUCH (0x14a) is byte 41 bit 2.
            + String(repeating: "B: 01" + empty + "\n", count: 5)
            + "B: 01 00 04 00 00 00 00 00 00\n"
            + String(repeating: "B: 01" + empty + "\n", count: 6)
            + "B: 02" + empty + "\n"
            + "B: 03 01 00 00 00 00 80 20 02\n"
            + "B: 04" + empty + "\n"
            + "B: 05" + empty + "\n"
            + "B: 11" + empty + "\n"
            + "B: 12" + empty + "\n"
            + "B: 14" + empty + "\n"
            + "B: 15" + empty + "\n"
            + "B: 15" + empty + "\n"
            + "A: 00 -5 799 1 2 3\n"
            + "A: 2f 0 9 0 0 0\n"
            + "A: 35 0 799 0 0 0\n"
            + "A: 39 0 65535 0 0 0\n"
            // `E: %lu.%06u %04x %04x %04d`
            + "E: 0.000001 0003 0039 0003\n"
            + "E: 0.000001 0003 0035 0035\n"
            + "E: 1.934008 0003 0039 -001\n"
            + "E: 1370597233.054146 0000 0000 0000\n"
            + "E: 0.000005 0003 0035 12345\n"
        #expect(text == expected)
        #expect(EvemuWriter.descriptionText(description) + events.map(EvemuWriter.eventLine).joined() == expected)
    }

    @Test func writesAFile() throws {
        let path = "/tmp/gestured-recordings-test-\(getpid()).evemu"
        defer { unlink(path) }
        let description = DeviceDescription(name: "Panel", absInfo: [0x35: AbsInfo(minimum: 0, maximum: 799)])
        try EvemuWriter.write(description: description, events: [event(1, 0, 0, 0)], to: path)
        let reread = try RecordingReader.read(path: path)
        #expect(reread.description == description)
        #expect(reread.events == [event(1, 0, 0, 0)])
    }
}

/// The writer against real recordings of the corpus.
@Suite("evemu writer on real recordings", .needsCorpus)
struct EvemuWriterCorpusTests {
    /// The one thing that does not survive a round trip is `B: 00`: readers ignore it and the
    /// writer always writes evemu 2.x's fixed `B: 00 0b …`, so EV_SYN codes are not part of an
    /// evemu description either way.
    @Test(arguments: realRecordings.filter { $0.name != nil })
    func roundTrip(_ expected: RealRecording) throws {
        try expectRoundTrip(expected.path, eventsPath: expected.eventsPath)
    }

    @Test func matchesARealEvemu13Header() throws {
        // The atmel recording was written by evemu-record 2.x: its N/I/P/B/A lines must come
        // out byte for byte.
        let path = RecordingCorpus.path("atmel-maxtouch.1-finger-fast-taps.evemu")
        let recording = try RecordingReader.read(path: path)
        let written = EvemuWriter.descriptionText(try #require(recording.description))
        let original = try String(decoding: readBytes(path), as: UTF8.self)
        let dataLines = { (text: String) in
            text.split(separator: "\n").filter { $0.first.map { "NIPBA".contains($0) } ?? false }
        }
        #expect(dataLines(written) == dataLines(original))
    }
}

/// Read → write → read gives the same description and events.
func expectRoundTrip(_ path: String, eventsPath: String? = nil) throws {
    let original = try RecordingReader.read(path: path, eventsPath: eventsPath)
    let description = try #require(original.description)
    let text = EvemuWriter.text(description: description, events: original.events)
    let reread = try RecordingReader.parse(RecordingSource(name: "written.evemu", text: text))
    #expect(reread.format == .evemu(.current))
    #expect(reread.description == description)
    #expect(reread.events == original.events)
    #expect(reread.warnings == [])
}

/// A whole file's bytes, through the reader's error type so failures name the file.
func readBytes(_ path: String) throws -> [UInt8] {
    guard let file = fopen(path, "rb") else {
        throw RecordingError(file: path, line: nil, message: "cannot open")
    }
    defer { fclose(file) }
    var bytes: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = fread(&buffer, 1, buffer.count, file)
        if count == 0 { break }
        bytes += buffer[0..<count]
    }
    return bytes
}

/// The bulk writer of event lines (`gestured replay --panel`) writes what ``EvemuWriter/eventLine(_:)``
/// writes, for every kind of value and time.
struct EvemuEventLinesTests {
    @Test func writesTheSameBytesAsOneLineAtATime() {
        var events: [RawEvent] = []
        let values: [Int32] = [0, 1, -1, 9, 10, 99, 999, 1000, 9999, 10000, -99, -100, -1000, .max, .min, 65535]
        let times: [Int64] = [0, 1, 999_999, 1_000_000, 12_345_678, 9_999_999_999_999]
        for (index, value) in values.enumerated() {
            for time in times {
                events.append(RawEvent(time: Timestamp(microseconds: time), type: UInt16(index % 4),
                                       code: [0, 0x35, 0x14a, 0xffff][index % 4], value: value))
            }
        }
        var bulk: [UInt8] = []
        EvemuWriter.appendEventLines(events, to: &bulk)
        let single = events.map(EvemuWriter.eventLine).joined()
        #expect(String(decoding: bulk, as: UTF8.self) == single)
    }
}
