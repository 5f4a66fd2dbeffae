import GestureCore
import Recordings
import Testing

@Suite("getevent reader")
struct GeteventReaderTests {
    @Test func hexValuesAndMinusOne() throws {
        let recording = try RecordingReader.parse(RecordingSource(name: "swipe.txt", text: """
            [   75285.145353] 0003 0039 0000c582
            [   75285.145353] 0003 0035 000002a5
            [   75285.145353] 0000 0000 00000000
            [   75285.152777] 0003 0039 ffffffff
            [   75285.152777] 0000 0000 00000000

            """))
        #expect(recording.format == .getevent)
        #expect(recording.description == nil)
        #expect(recording.events == [
            event(75_285_145_353, 3, 0x39, 0xc582), event(75_285_145_353, 3, 0x35, 0x2a5), event(75_285_145_353, 0, 0, 0),
            event(75_285_152_777, 3, 0x39, -1), event(75_285_152_777, 0, 0, 0),
        ])
    }

    @Test func devicePrefixAndAnnouncements() throws {
        // `getevent -t` without a device names each line's device and announces devices.
        let recording = try RecordingReader.parse(RecordingSource(name: "all.txt", text: """
            add device 1: /dev/input/event11
              name:     "synaptics_dsx"
            add device 2: /dev/input/event2
              name:     "gpio-keys"
            [   75285.145353] /dev/input/event11: 0003 0035 000002a5
            [   75285.145360] /dev/input/event2: 0001 0073 00000001
            [   75285.145353] /dev/input/event11: 0000 0000 00000000

            """))
        #expect(recording.events == [event(75_285_145_353, 3, 0x35, 0x2a5), event(75_285_145_353, 0, 0, 0)])
        #expect(recording.warnings == ["events of /dev/input/event11 kept; 1 events of /dev/input/event2 skipped"])
    }

    @Test(arguments: [
        ("[   75285.145353] 0003 0035\n", 1),
        ("[   75285.145353] 0003 0035 000002a5\n0003 0035 000002a5\n", 2),
        ("[   75285.145353] 0003 0035 1000000000\n", 1),
        ("[   75285.145353] EV_ABS       ABS_MT_POSITION_X    000002a5\n", 1),
        ("[   75285.145353] 0003 0035 000002a5\n[   75285.1453530] 0000 0000 00000000\n", 2),
    ])
    func malformedLinesAreErrors(_ text: String, _ line: Int) throws {
        let error = try #require(parseError(text, name: "bad.txt"))
        let found = TextLineForTest.line(line, of: text)
        #expect(error.description == "bad.txt:\(line): expected \"[<sec>.<usec>] <type> <code> <value>\" (hex, from getevent -t), found \"\(found)\"")
    }
}

enum TextLineForTest {
    static func line(_ number: Int, of text: String) -> String {
        String(text.split(separator: "\n", omittingEmptySubsequences: false)[number - 1])
    }
}
