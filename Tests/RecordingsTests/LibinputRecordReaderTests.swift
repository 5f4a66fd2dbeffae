import GestureCore
import Recordings
import Testing

@Suite("libinput record reader")
struct LibinputRecordReaderTests {
    @Test func fixtureParsesToExactEvents() throws {
        let path = TestPaths.fixture("elan-touchscreen.tap.libinput-record.yml")
        let recording = try RecordingReader.read(path: path)
        #expect(recording.format == .libinputRecord)
        #expect(recording.warnings == [])
        #expect(recording.sourcePaths == [path])
        #expect(recording.description == DeviceDescription(
            name: "ELAN Touchscreen", bus: 3, vendor: 0x04f3, product: 0x2234, version: 0x0112,
            codes: [0: Set(0...15), 1: [330], 3: [0, 1, 47, 53, 54, 57]],
            absInfo: [0: AbsInfo(minimum: 0, maximum: 3072), 1: AbsInfo(minimum: 0, maximum: 1728),
                      47: AbsInfo(minimum: 0, maximum: 9),
                      53: AbsInfo(minimum: 0, maximum: 3072, resolution: 12),
                      54: AbsInfo(minimum: 0, maximum: 1728, resolution: 12),
                      57: AbsInfo(minimum: 0, maximum: 65535)],
            properties: [InputProperty.direct]))
        #expect(recording.events == [
            event(0, 3, 47, 0), event(0, 3, 57, 12), event(0, 3, 53, 1536), event(0, 3, 54, 864),
            event(0, 1, 330, 1), event(0, 3, 0, 1536), event(0, 3, 1, 864), event(0, 0, 0, 0),
            event(7932, 3, 53, 1540), event(7932, 3, 0, 1540), event(7932, 0, 0, 0),
            event(15870, 3, 57, -1), event(15870, 1, 330, 0), event(15870, 0, 0, 0),
            event(1_204_511, 3, 57, 13), event(1_204_511, 3, 53, 100), event(1_204_511, 3, 54, 1700),
            event(1_204_511, 1, 330, 1), event(1_204_511, 0, 0, 0),
        ])
        #expect(recording.frameCount == 4)
    }

    /// libinput-record.c's `iprintf` moves a `- ` item two columns left of its indent level,
    /// so `- node:` can sit in column 0 and `- evdev:` in the column of `events:`; and the man
    /// page's example writes the name unquoted.
    @Test func compactLayoutAndUnquotedName() throws {
        let text = """
            # libinput record
            version: 1
            ndevices: 1
            libinput:
              version: 1.10.0
            devices:
            - node: /dev/input/event9
              evdev:
                name: Synaptics TM2668-002
                id: [29, 1739, 0, 0]
                codes:
                  3: [0, 1, 53, 54] # EV_ABS
                absinfo:
                  53: [-10, 4089, 0, 0, 42]
                properties: [0, 2, 4]
              events:
              - evdev:
                - [  0,      0,   3,  53,  1218] # EV_ABS / ABS_MT_POSITION_X    1218
                - [  0,      0,   0,   0,     0] # ------------ SYN_REPORT (0) ------- +0ms
              - libinput:
                - {time: 0.000000, type: TOUCH_DOWN, slot: 0, seat_slot: 0, point: [ 10.00,  20.00]}
              - evdev:
                - [  0,  11879,   3,  53,  1330] # EV_ABS / ABS_MT_POSITION_X    1330
                - [  0,  11879,   0,   0,     0] # ------------ SYN_REPORT (0) ------- +11ms

            """
        let recording = try RecordingReader.parse(RecordingSource(name: "compact.yml", text: text))
        let description = try #require(recording.description)
        #expect(description.name == "Synaptics TM2668-002")
        #expect(description.bus == 29 && description.vendor == 1739)
        #expect(description.absInfo[53] == AbsInfo(minimum: -10, maximum: 4089, resolution: 42))
        #expect(description.properties == [InputProperty.pointer, InputProperty.buttonpad, InputProperty.topButtonpad])
        #expect(recording.events == [event(0, 3, 53, 1218), event(0, 0, 0, 0), event(11879, 3, 53, 1330), event(11879, 0, 0, 0)])
    }

    @Test func onlyTheFirstDeviceIsRead() throws {
        let text = """
            version: 1
            ndevices: 2
            devices:
              - node: /dev/input/event3
                evdev:
                  name: "First"
                  id: [3, 1, 2, 3]
                events:
                - evdev:
                  - [  0,      5,   0,   0,     0] # SYN_REPORT
              - node: /dev/input/event7
                evdev:
                  name: "Second"
                  id: [3, 4, 5, 6]
                events:
                - evdev:
                  - [  0,      9,   0,   0,     0] # SYN_REPORT

            """
        let recording = try RecordingReader.parse(RecordingSource(name: "two.yml", text: text))
        #expect(recording.description?.name == "First")
        #expect(recording.events == [event(5, 0, 0, 0)])
        #expect(recording.warnings == ["2 devices recorded; only the first (/dev/input/event3) is read"])
    }

    @Test(arguments: [
        ("version: 2\ndevices:\n", 1,
         #"expected "version: 1" (the only libinput record file format), found "version: 2""#),
        ("version: 1\ndevices:\n  - node: /dev/input/event1\n    events:\n    - evdev:\n      - [  0,  1,   3,  53]\n", 6,
         #"expected "- [<sec>, <usec>, <type>, <code>, <value>]", found "      - [  0,  1,   3,  53]""#),
        ("version: 1\ndevices:\n  - node: /dev/input/event1\n    events:\n    - evdev:\n      - [  0,  1000000,   3,  53, 1]\n", 6,
         #"expected "- [<sec>, <usec>, <type>, <code>, <value>]", found "      - [  0,  1000000,   3,  53, 1]""#),
        ("version: 1\ndevices:\n  - node: /dev/input/event1\n    evdev:\n      id: [3, 1]\n", 5,
         #"expected "id: [<bus>, <vendor>, <product>, <version>]", found "      id: [3, 1]""#),
        ("version: 1\ndevices:\n  - node: /dev/input/event1\n    evdev:\n      absinfo:\n        53: [0, 4089, 0, 0]\n", 6,
         #"expected "<code>: [<min>, <max>, <fuzz>, <flat>, <resolution>]" under "absinfo:", found "        53: [0, 4089, 0, 0]""#),
        ("ndevices: 1\ndevices:\n", 2,
         #"expected "version: 1" before "devices:", found "devices:""#),
        ("version: 1\nndevices: 0\n", 2,
         #"expected a "devices:" list with at least one "- node:" entry"#),
    ])
    func malformed(_ text: String, _ line: Int, _ message: String) throws {
        let error = try #require(parseError(text, name: "bad.yml"))
        #expect(error.description == "bad.yml:\(line): \(message)")
    }
}
