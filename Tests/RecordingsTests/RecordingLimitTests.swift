#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import Recordings
import Testing

/// Issue 12: no recording a user, a bug report or an attacker hands over may crash the reader,
/// make it allocate from a count the file gives, or read without end. Each answer names the
/// file and line.
@Suite("Recording limits")
struct RecordingLimitTests {
    /// The 1,025th `B: 01` line trapped converting its bit to a 16-bit code.
    @Test(arguments: ["B: 01", "P:"])
    func moreMaskLinesThanCodesIsAnErrorNamingTheLine(_ kind: String) throws {
        let description = smallDescription.split(separator: "\n", omittingEmptySubsequences: false)
        let header = description.prefix { !$0.hasPrefix("B:") && !$0.hasPrefix("P:") }.joined(separator: "\n")
        let masks = Array(repeating: "\(kind) 00 00 00 00 00 00 00 01", count: 1025).joined(separator: "\n")
        let error = try #require(parseError(header + "\n" + masks + "\n"))
        #expect(error.file == "test.evemu")
        #expect(error.line == header.split(separator: "\n", omittingEmptySubsequences: false).count + 1025)
        #expect(error.message.hasPrefix("expected at most 1024 \"\(kind.hasPrefix("B") ? "B: 01" : "P:")\" lines"))
    }

    /// 1,024 lines, a bit for every code up to 65,535, are still read.
    @Test func everyCodeOfATypeFitsInTheMask() throws {
        let name = "N: Panel\n"
        let masks = Array(repeating: "B: 01 00 00 00 00 00 00 00 80", count: 1024).joined(separator: "\n")
        let description = try #require(try parseEvemu(name + masks + "\n").description)
        #expect(description.codes[EventType.key]?.contains(65535) == true)
        #expect(description.codes[EventType.key]?.count == 1024)
    }

    /// `ABS_MT_SLOT` up to 2^31 - 1 asked for 51 GB of slot state and aborted; now the slots
    /// beyond ``ContactTracker/maximumSlots`` are left out with a warning at the declaring line.
    @Test(arguments: [
        (name: "slots.evemu", line: 4, text: """
            N: Panel
            P: 02 00 00 00 00 00 00 00
            A: 35 0 799 0 0 0
            A: 2f 0 2147483647 0 0 0
            E: 0.000001 0000 0000 0000

            """),
        (name: "slots.yml", line: 10, text: """
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event3
              evdev:
                name: "Panel"
                id: [3, 1, 2, 3]
                absinfo:
                  53: [0, 799, 0, 0, 0]
                  47: [0, 2147483647, 0, 0, 0]
              events:
              - evdev:
                - [  0,      1,   0,   0,     0]

            """),
        (name: "slots.evtest", line: 8, text: """
            Input driver version is 1.0.1
            Input device ID: bus 0x3 vendor 0x1 product 0x2 version 0x3
            Input device name: "Panel"
            Supported events:
              Event type 3 (EV_ABS)
                Event code 47 (ABS_MT_SLOT)
                  Min        0
                  Max        2147483647
            Testing ... (interrupt to exit)
            Event: time 0.000001, -------------- SYN_REPORT ------------

            """),
    ])
    func aHugeSlotCountIsLimitedWithAWarningAtItsLine(_ file: (name: String, line: Int, text: String)) throws {
        let recording = try RecordingReader.parse(RecordingSource(name: file.name, text: file.text))
        let description = try #require(recording.description)
        #expect(description.slotCount == ContactTracker.maximumSlots)
        #expect(recording.warnings == ["\(file.name):\(file.line): the recorded device declares 2147483648 contact slots "
            + "(ABS_MT_SLOT up to 2147483647); gestured tracks the first 64, so contacts in the slots above are ignored"])
        #expect(recording.events.count == 1)
    }

    @Test func slotCountsWithinTheLimitAreKept() throws {
        let text = smallDescription.split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0 == "A: 2f 0 9 0 0 0" ? "A: 2f 0 63 0 0 0" : String($0) }.joined(separator: "\n")
        let recording = try parseEvemu(text)
        #expect(recording.description?.slotCount == 64)
        #expect(recording.warnings.isEmpty)
    }

    /// Values at and past the edges of every field: an error or a value, never a trap.
    @Test(arguments: [
        ("E: 999999999999.999999 ffff ffff 2147483647\n", nil),
        ("E: 9999999999999.000000 0000 0000 0000\n", 1),           // 13 digits of seconds
        ("E: 0.1234567 0000 0000 0000\n", 1),                      // 7 digits of microseconds
        ("E: 0.000001 10000 0000 0000\n", 1),                      // type beyond 16 bits
        ("E: 0.000001 0003 0000 2147483648\n", 1),                 // value beyond 32 bits
        ("E: 0.000001 0003 0000 -2147483648\n", nil),
        ("E: 0.000001 0003 0000 -99999999999999999999\n", 1),
        ("N: P\nA: 40 0 1 0 0\n", 2),                             // an axis code past ABS_MAX
        ("N: P\nA: 35 -2147483648 2147483647 -1 -1 -2147483648\n", nil),
        ("N: P\nA: 35 10 0 0 0 0\n", nil),                         // inverted: the replay says so
        ("N: P\nB: 20 00 00 00 00 00 00 00 00\n", 2),              // a type past EV_MAX
        ("N: P\nI: 10000 0 0 0\n", 2),
        ("N: P\nL: ffff 2147483647\n", nil),
    ] as [(String, Int?)])
    func evemuFieldsAtTheirEdges(_ text: String, _ errorLine: Int?) {
        #expect(parseError(text)?.line == errorLine)
    }

    @Test(arguments: [
        ("- [2147483647, 999999, 65535, 65535, -2147483648]", true),
        ("- [-1, 0, 0, 0, 0]", false),
        ("- [0, 1000000, 0, 0, 0]", false),
        ("- [0, 0, 65536, 0, 0]", false),
        ("- [0, 0, 0, 0, 2147483648]", false),
        ("- [0, 0, 0, 0]", false),
    ])
    func libinputEventFieldsAtTheirEdges(_ item: String, _ accepted: Bool) {
        let text = """
            version: 1
            devices:
            - node: /dev/input/event3
              evdev:
                name: "Panel"
              events:
              - evdev:
                \(item)

            """
        let error = Result { () throws(RecordingError) in try RecordingReader.parse(RecordingSource(name: "edge.yml", text: text)) }
        if accepted {
            #expect((try? error.get())?.events.count == 1)
        } else {
            #expect(throws: RecordingError.self) { try error.get() }
        }
    }

    /// A capture of thousands of devices kept every name and searched them on every line.
    @Test func aGeteventCaptureOfManyDevicesNamesAFew() throws {
        var text = "[   1.000000] /dev/input/event0: 0000 0000 00000000\n"
        for device in 1...5000 { text += "[   1.000000] /dev/input/event\(device): 0000 0000 00000000\n" }
        let recording = try RecordingReader.parse(RecordingSource(name: "many.txt", text: text))
        #expect(recording.events.count == 1)
        let named = (1...8).map { "/dev/input/event\($0)" }.joined(separator: ", ")
        #expect(recording.warnings == ["events of /dev/input/event0 kept; 5000 events of \(named) and other devices skipped"])
    }
}
