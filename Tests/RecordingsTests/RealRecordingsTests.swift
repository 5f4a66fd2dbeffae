#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import GestureCore
import Recordings
import Testing
import TestSupport

/// Shorthand for an expected event: time in microseconds, type, code, value.
func event(_ time: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) -> RawEvent {
    RawEvent(time: Timestamp(microseconds: time), type: type, code: code, value: value)
}

/// One file (or description + events pair) of the recording corpus and what it must read as.
struct RealRecording: Sendable, CustomTestStringConvertible {
    var file: String
    var eventsFile: String?
    var format: RecordingFormat
    var name: String?
    var properties: Set<UInt16>
    var events: Int
    var frames: Int
    var first: RawEvent
    var last: RawEvent

    var testDescription: String { file }

    var path: String { RecordingCorpus.path(file) }
    var eventsPath: String? { eventsFile.map(RecordingCorpus.path) }
}

// Counts are pinned from the files. They agree with the README's "events / frames" column:
// events are the `E:` / event lines, frames are `EV_SYN / SYN_REPORT` events whatever their
// value (the two hid-devices recordings, egalax and flatfrog, end with an extra
// `SYN_REPORT (1)`, counted as a frame by both). Times are `sec * 1_000_000 + usec` as
// written: absolute epoch (egalax, ntrig, bcm5974, wacom, quanta), uptime (nexus4, android)
// or evemu-record 2.x's offset from 0.000001 (atmel, ep0430m09).
let realRecordings: [RealRecording] = [
    RealRecording(file: "atmel-maxtouch.1-finger-fast-taps.evemu", format: .evemu(EvemuVersion(1, 3)),
                  name: "Atmel maXTouch Touchscreen", properties: [InputProperty.direct], events: 84, frames: 18,
                  first: event(1, 3, 0x39, 3), last: event(1_934_008, 0, 0, 0)),
    RealRecording(file: "atmel-maxtouch.4-finger-drag-down.evemu", format: .evemu(EvemuVersion(1, 3)),
                  name: "Atmel maXTouch Touchscreen", properties: [InputProperty.direct], events: 309, frames: 31,
                  first: event(1, 3, 0x2f, 0), last: event(566_590, 0, 0, 0)),
    RealRecording(file: "ep0430m09.4-finger-drag-down.evemu", format: .evemu(EvemuVersion(1, 3)),
                  name: "EP0430M09", properties: [InputProperty.direct], events: 1091, frames: 104,
                  first: event(1, 3, 0x2f, 0), last: event(1_173_668, 0, 0, 0)),
    RealRecording(file: "hidrec-egalax-7224.2f.evemu", format: .evemu(EvemuVersion(1, 2)),
                  name: "eGalax Inc. USB TouchController", properties: [InputProperty.direct], events: 3268, frames: 809,
                  first: event(1_370_597_233_054_146, 3, 0x39, 0), last: event(1_370_597_258_234_939, 0, 0, 1)),
    RealRecording(file: "hidrec-flatfrog-3200.12f.evemu", format: .evemu(EvemuVersion(1, 2)),
                  name: "FlatFrog FlatFrog Multitouch 3200", properties: [InputProperty.direct], events: 5839, frames: 416,
                  first: event(0, 3, 0x39, 0), last: event(10_226_391, 0, 0, 1)),
    RealRecording(file: "ntrig-dell-xt2.protoA.evemu", format: .evemu(EvemuVersion(1, 2)),
                  name: "N-Trig-MultiTouch-Virtual-Device", properties: [], events: 146, frames: 8,
                  first: event(1_299_660_667_063_211, 3, 0x35, 7411), last: event(1_299_660_667_181_013, 0, 0, 0)),
    RealRecording(file: "tp-bcm5974.three-finger-click.evemu", format: .evemu(EvemuVersion(1, 2)),
                  name: "bcm5974", properties: [InputProperty.buttonpad], events: 2586, frames: 150,
                  first: event(1_332_478_501_143_449, 3, 0x30, 68), last: event(1_332_478_503_405_431, 0, 0, 0)),
    RealRecording(file: "wacom-dth2242-finger.10f.evemu", format: .evemu(EvemuVersion(1, 1)),
                  name: "Wacom DTH2242 Finger", properties: [InputProperty.direct], events: 16593, frames: 2025,
                  first: event(1_369_413_358_008_095, 3, 0x39, 0), last: event(1_369_413_382_137_926, 0, 0, 0)),
    // The events file has no version line; the pair takes the description's 1.1.
    RealRecording(file: "nexus4-touch_dev.desc", eventsFile: "nexus4-touch_dev.events", format: .evemu(EvemuVersion(1, 1)),
                  name: "touch_dev", properties: [InputProperty.direct], events: 4953, frames: 577,
                  first: event(75_280_046, 3, 0x39, 5), last: event(83_146_093, 0, 0, 0)),
    // Legacy description without a version line: 1.0.
    RealRecording(file: "quanta-optical.desc", eventsFile: "quanta-optical.events", format: .evemu(.legacy),
                  name: "QUANTA OpticalTouchScreen", properties: [InputProperty.direct], events: 2832, frames: 738,
                  first: event(1_350_644_052_895_553, 3, 0x39, 35), last: event(1_350_644_066_783_567, 0, 0, 0)),
    RealRecording(file: "android-getevent-t.swipes.txt", format: .getevent,
                  name: nil, properties: [], events: 254, frames: 62,
                  first: event(236_058_645_273, 3, 0x39, 0xc582), last: event(236_060_243_702, 0, 0, 0)),
]

@Suite("Real recordings of the corpus", .needsCorpus)
struct RealRecordingsTests {
    @Test(arguments: realRecordings)
    func readsWithPinnedCounts(_ expected: RealRecording) throws {
        let recording = try RecordingReader.read(path: expected.path, eventsPath: expected.eventsPath)
        #expect(recording.format == expected.format)
        #expect(recording.events.count == expected.events)
        #expect(recording.frameCount == expected.frames)
        #expect(recording.events.first == expected.first)
        #expect(recording.events.last == expected.last)
        #expect(recording.description?.name == expected.name)
        #expect((recording.description?.properties ?? []) == expected.properties)
        #expect(recording.warnings == [])
        #expect(recording.sourcePaths == [expected.path] + (expected.eventsPath.map { [$0] } ?? []))
    }

    @Test func everyFileInTheDirectoryIsCovered() throws {
        let covered = Set(realRecordings.flatMap { [$0.file] + ($0.eventsFile.map { [$0] } ?? []) })
        let listed = try directoryListing(RecordingCorpus.directory).filter { $0 != "README.md" }
        #expect(Set(listed) == covered)
    }

    @Test func wacomFiveFieldAbsLines() throws {
        // `A: 35 0 4648 4 0`: evemu 1.1, no resolution field.
        let description = try #require(try RecordingReader.read(path: RecordingCorpus.path("wacom-dth2242-finger.10f.evemu")).description)
        #expect(description.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 4648, fuzz: 4, flat: 0, resolution: 0))
        #expect(description.absInfo[AbsCode.mtTrackingID] == AbsInfo(minimum: 0, maximum: 65535))
        #expect(description.absInfo.count == 10)
        #expect(description.bus == 0x03 && description.vendor == 0x056a && description.product == 0x005d && description.version == 5)
    }

    @Test func touchpadNegativeMinimaAndButtonpad() throws {
        let description = try #require(try RecordingReader.read(path: RecordingCorpus.path("tp-bcm5974.three-finger-click.evemu")).description)
        #expect(description.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: -4620, maximum: 5140))
        #expect(description.absInfo[AbsCode.mtPositionY] == AbsInfo(minimum: -150, maximum: 6600))
        #expect(description.absInfo[AbsCode.mtOrientation] == AbsInfo(minimum: -16384, maximum: 16384))
        #expect(description.has(property: InputProperty.buttonpad))
        #expect(!description.has(property: InputProperty.direct))
        #expect(description.codes[EventType.key] == [KeyCode.btnLeft, KeyCode.btnToolFinger, KeyCode.btnTouch,
                                                     KeyCode.btnToolDoubletap, KeyCode.btnToolTripletap, KeyCode.btnToolQuadtap])
    }

    @Test func sixFieldAbsLinesWithResolution() throws {
        let description = try #require(try RecordingReader.read(path: RecordingCorpus.path("hidrec-flatfrog-3200.12f.evemu")).description)
        #expect(description.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 11174, fuzz: 5, flat: 0, resolution: 16))
        #expect(description.absInfo[AbsCode.pressure] == AbsInfo(minimum: 0, maximum: 1024))
        #expect(description.absInfo[AbsCode.mtSlot] == AbsInfo(minimum: 0, maximum: 39))
    }

    @Test func nexusIsMultitouchOnly() throws {
        // `B: 00 09` is the old event-type mask (EV_SYN, EV_ABS); no EV_KEY, no ABS_X/Y.
        let recording = try RecordingReader.read(path: RecordingCorpus.path("nexus4-touch_dev.desc"),
                                                 eventsPath: RecordingCorpus.path("nexus4-touch_dev.events"))
        let description = try #require(recording.description)
        #expect(description.codes.keys.sorted() == [EventType.abs])
        #expect(description.codes[EventType.abs] == [AbsCode.mtSlot, AbsCode.mtTouchMajor, AbsCode.mtPositionX,
                                                     AbsCode.mtPositionY, AbsCode.mtTrackingID, AbsCode.mtPressure])
        #expect(description.absInfo[AbsCode.mtPositionY] == AbsInfo(minimum: 0, maximum: 2559))
        #expect(description.bus == 0 && description.vendor == 0)
        // A tracking id of -1 written as `-001`.
        #expect(recording.events.contains(event(83_146_093, 3, 0x39, -1)))
    }

    @Test func quantaLegacyDescription() throws {
        let recording = try RecordingReader.read(path: RecordingCorpus.path("quanta-optical.desc"),
                                                 eventsPath: RecordingCorpus.path("quanta-optical.events"))
        let description = try #require(recording.description)
        #expect(description.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 0, maximum: 1920))
        #expect(description.absInfo[AbsCode.mtSlot] == AbsInfo(minimum: 0, maximum: 9))
        #expect(description.codes[EventType.key] == [KeyCode.btnTouch])
        #expect(description.vendor == 0x0408 && description.product == 0x3001 && description.version == 0x0110)
        // Declared slots but no slot events at all.
        #expect(!recording.events.contains { $0.type == EventType.abs && $0.code == AbsCode.mtSlot })
    }

    @Test func androidHexValues() throws {
        let recording = try RecordingReader.read(path: RecordingCorpus.path("android-getevent-t.swipes.txt"))
        #expect(recording.description == nil)
        let lifts = recording.events.filter { $0.type == EventType.abs && $0.code == AbsCode.mtTrackingID && $0.value == -1 }
        #expect(lifts.count == 4)
        #expect(recording.events[3] == event(236_058_645_273, 3, 0x35, 0x3c2))
    }

    @Test func protocolAKeepsMTReports() throws {
        let recording = try RecordingReader.read(path: RecordingCorpus.path("ntrig-dell-xt2.protoA.evemu"))
        #expect(recording.events.contains { $0.type == EventType.syn && $0.code == SynCode.mtReport })
        #expect(!recording.events.contains { $0.type == EventType.abs && $0.code == AbsCode.mtSlot })
    }
}

/// The names in a directory (`opendir(3)`), sorted.
func directoryListing(_ path: String) throws -> [String] {
    guard let directory = opendir(path) else {
        throw RecordingError(file: path, line: nil, message: "cannot open the directory")
    }
    defer { closedir(directory) }
    var names: [String] = []
    while let entry = readdir(directory) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix { $0 != 0 }, as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names.sorted()
}
