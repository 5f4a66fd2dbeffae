import GestureCore
import Recordings
import Testing

/// evtest output in the shape evtest.c prints it (`print_device_info`, `print_absdata`,
/// `print_events`), preceded by the device list it prints to stderr when no device is named.
let evtestHeader = """
    No device specified, trying to scan all of /dev/input/event*
    Available devices:
    /dev/input/event0:\tPower Button
    /dev/input/event5:\teGalax Inc. USB TouchController
    Select the device event number [0-5]: 5
    Input driver version is 1.0.1
    Input device ID: bus 0x3 vendor 0xeef product 0x7224 version 0x100
    Input device name: "eGalax Inc. USB TouchController"
    Supported events:
      Event type 0 (EV_SYN)
      Event type 1 (EV_KEY)
        Event code 330 (BTN_TOUCH)
      Event type 3 (EV_ABS)
        Event code 0 (ABS_X)
          Value      0
          Min        0
          Max    32767
          Resolution       1
        Event code 53 (ABS_MT_POSITION_X)
          Value      0
          Min        0
          Max    32767
          Fuzz       7
          Resolution       1
        Event code 57 (ABS_MT_TRACKING_ID)
          Value      0
          Min        0
          Max    65535
      Event type 4 (EV_MSC)
        Event code 4 (MSC_SCAN)
    Key repeat handling:
      Repeat type 20 (EV_REP)
        Repeat code 0 (REP_DELAY)
          Value    250
        Repeat code 1 (REP_PERIOD)
          Value     33
    Properties:
      Property type 1 (INPUT_PROP_DIRECT)
    Testing ... (interrupt to exit)

    """

@Suite("evtest reader")
struct EvtestReaderTests {
    @Test func headerAndEvents() throws {
        let text = evtestHeader + """
            Event: time 1394201045.123456, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value 0
            Event: time 1394201045.123456, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 250
            Event: time 1394201045.123456, type 4 (EV_MSC), code 4 (MSC_SCAN), value 7001e
            Event: time 1394201045.123456, type 1 (EV_KEY), code 330 (BTN_TOUCH), value 1
            Event: time 1394201045.123456, ++++++++++++++ SYN_MT_REPORT ++++++++++++
            Event: time 1394201045.123456, -------------- SYN_REPORT ------------
            Event: time 1394201045.130001, type 3 (EV_ABS), code 57 (ABS_MT_TRACKING_ID), value -1
            Event: time 1394201045.130001, -------------- SYN_REPORT ------------

            """
        let recording = try RecordingReader.parse(RecordingSource(name: "egalax.evtest", text: text))
        #expect(recording.format == .evtest)
        #expect(recording.warnings == [])
        #expect(recording.description == DeviceDescription(
            name: "eGalax Inc. USB TouchController", bus: 3, vendor: 0x0eef, product: 0x7224, version: 0x100,
            codes: [1: [330], 3: [0, 53, 57], 4: [4]],
            absInfo: [0: AbsInfo(minimum: 0, maximum: 32767, resolution: 1),
                      53: AbsInfo(minimum: 0, maximum: 32767, fuzz: 7, resolution: 1),
                      57: AbsInfo(minimum: 0, maximum: 65535)],
            properties: [InputProperty.direct]))
        let t: Int64 = 1_394_201_045_123_456
        #expect(recording.events == [
            event(t, 3, 57, 0), event(t, 3, 53, 250),
            event(t, 4, 4, 0x7001e),  // MSC_SCAN is printed in hex
            event(t, 1, 330, 1), event(t, 0, 2, 0), event(t, 0, 0, 0),
            event(1_394_201_045_130_001, 3, 57, -1), event(1_394_201_045_130_001, 0, 0, 0),
        ])
    }

    @Test func damagedLinesAreSkippedAndCounted() throws {
        let text = evtestHeader + """
            Event: time 1394201045.123456, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 250
            Event: time 1394201045.123456, type 3 (EV_ABS), code 54 (ABS_MT_POS
            ITION_Y), value 300
            Event: time 1394201045.123456, -------------- SYN_REPORT ------------
            ^C
            Event: time 1394201045.13
            Event: time 1394201045.140000, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 260
            Event: time 1394201045.140000, -------------- SYN_REPORT ------------
            """
        let recording = try RecordingReader.parse(RecordingSource(name: "damaged.evtest", text: text))
        #expect(recording.events == [
            event(1_394_201_045_123_456, 3, 53, 250), event(1_394_201_045_123_456, 0, 0, 0),
            event(1_394_201_045_140_000, 3, 53, 260), event(1_394_201_045_140_000, 0, 0, 0),
        ])
        // The header is 39 lines; the events start at line 40, the wrapped line at 41.
        #expect(recording.warnings == ["4 damaged lines skipped (first at line 41)"])
    }

    @Test func eventsWithoutHeader() throws {
        // A bug report often pastes only the events.
        let recording = try RecordingReader.parse(RecordingSource(name: "paste.txt", text: """
            Event: time 1394201045.123456, type 3 (EV_ABS), code 53 (ABS_MT_POSITION_X), value 250
            Event: time 1394201045.123456, -------------- SYN_REPORT ------------
            """))
        #expect(recording.description == nil)
        #expect(recording.format == .evtest)
        #expect(recording.events.count == 2)
    }
}
