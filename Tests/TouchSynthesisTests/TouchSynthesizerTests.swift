import GestureCore
import Recordings
import Testing
import TestSupport
import TouchSynthesis

/// What the synthesizer sends for a script: whole ordered event logs, one line per event
/// (`time name value`, frames ending in `SYN_REPORT`), so a test reads like evtest output.
@Suite("Touch synthesizer")
struct TouchSynthesizerTests {
    /// A small protocol B touchscreen: 2 slots, 0…999 on both axes, pointer emulation axes.
    static let slotted = DeviceDescription(
        name: "slotted", codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 999), AbsCode.y: AbsInfo(minimum: 0, maximum: 999),
                  AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 1),
                  AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 999, resolution: 10),
                  AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 999, resolution: 10),
                  AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535)],
        properties: [InputProperty.direct])

    static func log(_ script: String, panel: DeviceDescription = slotted) throws -> [String] {
        let parsed = try GestureScriptParser.parse("panel p\n" + script, file: "s.touches")
        return try TouchSynthesizer.events(of: parsed, panel: panel, file: "s.touches").map(describe)
    }

    static func describe(_ event: RawEvent) -> String {
        let time = "\(event.time.microseconds / 1000)ms"
        let name = switch event.type {
        case EventType.abs: AbsCode.name(event.code)
        case EventType.key: KeyCode.name(event.code)
        case EventType.syn: event.code == SynCode.mtReport ? "SYN_MT_REPORT" : "SYN_REPORT"
        default: "type \(event.type) code \(event.code)"
        }
        return event.type == EventType.syn ? "\(time) \(name)" : "\(time) \(name) \(event.value)"
    }

    /// The kernel's rules: a new finger takes the lowest free slot and the next tracking id;
    /// `ABS_MT_SLOT` comes only before a value of another slot than the last one reported;
    /// unchanged values are not sent; `BTN_TOUCH` and `ABS_X/Y` follow the oldest finger.
    @Test func protocolB() throws {
        #expect(try Self.log("""
            units device
            down 1 100 200
            down 2 300 400
            move 1 100 250 ; move 2 300 400
            up 1
            down 3 500 600
            up 2 ; up 3
            """) == [
            "0ms ABS_MT_TRACKING_ID 0", "0ms ABS_MT_POSITION_X 100", "0ms ABS_MT_POSITION_Y 200",
            "0ms BTN_TOUCH 1", "0ms ABS_X 100", "0ms ABS_Y 200", "0ms SYN_REPORT",
            "10ms ABS_MT_SLOT 1", "10ms ABS_MT_TRACKING_ID 1", "10ms ABS_MT_POSITION_X 300", "10ms ABS_MT_POSITION_Y 400",
            "10ms SYN_REPORT",
            // Finger 2 did not move: only slot 0 changes.
            "20ms ABS_MT_SLOT 0", "20ms ABS_MT_POSITION_Y 250", "20ms ABS_Y 250", "20ms SYN_REPORT",
            // Finger 1 lifts; finger 2 becomes the oldest.
            "30ms ABS_MT_TRACKING_ID -1", "30ms ABS_X 300", "30ms ABS_Y 400", "30ms SYN_REPORT",
            // Finger 3 takes the free slot 0, where X 100 is replaced and Y 250 too.
            "40ms ABS_MT_TRACKING_ID 2", "40ms ABS_MT_POSITION_X 500", "40ms ABS_MT_POSITION_Y 600", "40ms SYN_REPORT",
            "50ms ABS_MT_SLOT 1", "50ms ABS_MT_TRACKING_ID -1", "50ms ABS_MT_SLOT 0", "50ms ABS_MT_TRACKING_ID -1",
            "50ms BTN_TOUCH 0", "50ms SYN_REPORT",
        ])
    }

    /// Waits set the gap to the next frame; a glide ends its duration after the previous frame,
    /// one frame per period; a frame in which nothing changed is not sent.
    @Test func timing() throws {
        let log = try Self.log("""
            units device
            rate 50
            wait 5ms
            down 1 0 0
            wait 100ms
            wait 20ms
            move 1 0 0
            move 1 100 10 over 60ms
            wait 1s
            move 1 200 10 over 10ms
            up 1
            """).filter { $0.hasSuffix("SYN_REPORT") }
        #expect(log == ["5ms SYN_REPORT",
                        // 125 ms: the move to where the finger is changes nothing and is not sent.
                        "145ms SYN_REPORT", "165ms SYN_REPORT", "185ms SYN_REPORT",
                        // A glide shorter than a period is one frame.
                        "1185ms SYN_REPORT", "1205ms SYN_REPORT"])
        let positions = try Self.log("units device\ndown 1 0 0\nmove 1 100 10 over 40ms\nup 1")
            .filter { $0.contains("ABS_MT_POSITION") }
        // X 0 and Y 0 are the slot's initial values: not sent. Then 0 → 100 and 0 → 10 in four
        // even steps, rounded.
        #expect(positions == ["10ms ABS_MT_POSITION_X 25", "10ms ABS_MT_POSITION_Y 3",
                              "20ms ABS_MT_POSITION_X 50", "20ms ABS_MT_POSITION_Y 5",
                              "30ms ABS_MT_POSITION_X 75", "30ms ABS_MT_POSITION_Y 8",
                              "40ms ABS_MT_POSITION_X 100", "40ms ABS_MT_POSITION_Y 10"])
    }

    /// Protocol A: every contact in every frame, each closed by SYN_MT_REPORT, a lone one when
    /// the last finger lifts; tracking ids only where the device declares them (here not).
    @Test func protocolA() throws {
        var panel = Self.slotted
        panel.absInfo[AbsCode.mtSlot] = nil
        panel.absInfo[AbsCode.mtTrackingID] = nil
        #expect(try Self.log("units device\ndown 1 1 2\ndown 2 3 4\nup 1\nup 2", panel: panel) == [
            "0ms ABS_MT_POSITION_X 1", "0ms ABS_MT_POSITION_Y 2", "0ms SYN_MT_REPORT",
            "0ms BTN_TOUCH 1", "0ms ABS_X 1", "0ms ABS_Y 2", "0ms SYN_REPORT",
            "10ms ABS_MT_POSITION_X 1", "10ms ABS_MT_POSITION_Y 2", "10ms SYN_MT_REPORT",
            "10ms ABS_MT_POSITION_X 3", "10ms ABS_MT_POSITION_Y 4", "10ms SYN_MT_REPORT", "10ms SYN_REPORT",
            "20ms ABS_MT_POSITION_X 3", "20ms ABS_MT_POSITION_Y 4", "20ms SYN_MT_REPORT",
            "20ms ABS_X 3", "20ms ABS_Y 4", "20ms SYN_REPORT",
            "30ms SYN_MT_REPORT", "30ms BTN_TOUCH 0", "30ms SYN_REPORT",
        ])
    }

    @Test func singleTouchWithPressure() throws {
        let panel = DeviceDescription(
            name: "resistive", codes: [EventType.key: [KeyCode.btnTouch]],
            absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 4095), AbsCode.y: AbsInfo(minimum: 0, maximum: 4095),
                      AbsCode.pressure: AbsInfo(minimum: 0, maximum: 255)])
        #expect(try Self.log("units device\ndown 1 10 20\nmove 1 11 20\nup 1", panel: panel) == [
            "0ms BTN_TOUCH 1", "0ms ABS_X 10", "0ms ABS_Y 20", "0ms ABS_PRESSURE 127", "0ms SYN_REPORT",
            "10ms ABS_X 11", "10ms SYN_REPORT",
            "20ms BTN_TOUCH 0", "20ms ABS_PRESSURE 0", "20ms SYN_REPORT",
        ])
        #expect(Self.error("units device\ndown 1 10 20\ndown 2 30 40", panel: panel)
            == "s.touches:4: finger 2 would be finger 2 on the panel, which takes 1 at once")
    }

    /// A touchpad's finger count (`BTN_TOOL_FINGER` … as `input_mt_report_finger_count`), and
    /// a new contact's pressure and 8 mm contact size where the device declares them.
    @Test func fingerCountPressureAndContactSize() throws {
        var panel = Self.slotted
        panel.codes[EventType.key] = [KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnToolDoubletap]
        panel.absInfo[AbsCode.mtPressure] = AbsInfo(minimum: 0, maximum: 100)
        panel.absInfo[AbsCode.mtTouchMajor] = AbsInfo(minimum: 0, maximum: 255)
        panel.absInfo[AbsCode.pressure] = AbsInfo(minimum: 0, maximum: 100)
        #expect(try Self.log("units device\ndown 1 5 5\ndown 2 9 9\nup 1 ; up 2", panel: panel) == [
            "0ms ABS_MT_TRACKING_ID 0", "0ms ABS_MT_POSITION_X 5", "0ms ABS_MT_POSITION_Y 5",
            "0ms ABS_MT_TOUCH_MAJOR 80", "0ms ABS_MT_PRESSURE 50",
            "0ms BTN_TOUCH 1", "0ms BTN_TOOL_FINGER 1", "0ms ABS_X 5", "0ms ABS_Y 5", "0ms ABS_PRESSURE 50", "0ms SYN_REPORT",
            "10ms ABS_MT_SLOT 1", "10ms ABS_MT_TRACKING_ID 1", "10ms ABS_MT_POSITION_X 9", "10ms ABS_MT_POSITION_Y 9",
            "10ms ABS_MT_TOUCH_MAJOR 80", "10ms ABS_MT_PRESSURE 50",
            "10ms BTN_TOOL_FINGER 0", "10ms BTN_TOOL_DOUBLETAP 1", "10ms SYN_REPORT",
            "20ms ABS_MT_SLOT 0", "20ms ABS_MT_TRACKING_ID -1", "20ms ABS_MT_SLOT 1", "20ms ABS_MT_TRACKING_ID -1",
            "20ms BTN_TOUCH 0", "20ms BTN_TOOL_DOUBLETAP 0", "20ms ABS_PRESSURE 0", "20ms SYN_REPORT",
        ])
    }

    static func error(_ script: String, panel: DeviceDescription = slotted) -> String? {
        do {
            _ = try log(script, panel: panel)
            return nil
        } catch {
            return "\(error)"
        }
    }

    @Test(arguments: [
        ("units device\nmove 1 5 5", "s.touches:3: finger 1 is not down; it needs a `down` first"),
        ("units device\nmove 1 5 5 over 50ms", "s.touches:3: finger 1 is not down; it needs a `down` first"),
        ("units device\nup 1", "s.touches:3: finger 1 is not down, so it cannot lift"),
        ("units device\ndown 1 5 5\ndown 1 6 6", "s.touches:4: finger 1 is already down; lift it with `up 1` first"),
        ("units device\ndown 1 5 5\ndown 2 5 5\ndown 3 5 5", "s.touches:5: finger 3 would be finger 3 on the panel, which takes 2 at once"),
        ("units device\ndown 1 5 1000", "s.touches:3: device values (5.0, 1000.0) are off the panel: X 0…999, Y 0…999 in device values"),
        ("units device\ndown 1 5.5 5", "s.touches:3: device values are whole numbers, found (5.5, 5.0)"),
        ("units mm\ndown 1 100 5", "s.touches:3: millimetres (1000.0, 50.0) are off the panel: X 0…999, Y 0…999 in device values"),
        ("screen 100 100\ndown 1 100 5", "s.touches:3: (100.0, 5.0) is off the screen: x from 0 to below 100.0, y from 0 to below 100.0"),
        ("screen 100 100 calibration 0.5 0 0 0 0.5 0\ndown 1 60 5",
         "s.touches:3: (60.0, 5.0) is on the screen but off the panel after undoing the calibration"),
    ])
    func mistakesNameTheLine(_ script: String, _ message: String) {
        #expect(Self.error(script) == message)
    }

    @Test func millimetresNeedAResolution() {
        var panel = Self.slotted
        panel.absInfo[AbsCode.mtPositionX]?.resolution = 0
        #expect(Self.error("units mm\ndown 1 5 5", panel: panel)
            == "s.touches:3: the panel declares no resolution (units per mm) for its position axes; use points or device units")
    }

    @Test func aPanelThatCannotTouchIsRefused() {
        let keyboard = DeviceDescription(name: "keyboard", codes: [EventType.key: [30, 31]])
        #expect(Self.error("units device\ndown 1 5 5", panel: keyboard)
            == "s.touches: the panel \"keyboard\" cannot touch: not a touch device: no position axes (ABS_MT_POSITION_X/Y or ABS_X/Y)")
    }

    /// The recording means what the script says: its events, read back as gestured reads a
    /// device (contact tracker, SPEC 2 mapping with the same screen), give the script's points,
    /// whatever the rotation and calibration.
    @Test(arguments: [
        "screen 1920 1080",
        "screen 1080 1920 rotation 90",
        "screen 1920 1080 rotation 180",
        "screen 1080 1920 rotation 270",
        "screen 1920 1080 calibration 0.9 0.05 0.02 -0.03 1.1 -0.05",
    ])
    func pointsComeBackWhereTheScriptPutThem(_ screenLine: String) throws {
        let panel = try #require(try RecordingReader.read(path: PackagePaths.recording("panel.desc")).description)
        let script = try GestureScriptParser.parse("""
            panel p
            \(screenLine)
            down 1 100 200 ; down 2 700.5 900.3
            move 1 140 260 over 40ms
            up 1 ; up 2
            """, file: "s.touches")
        let screen = try #require(script.screen)
        let events = try TouchSynthesizer.events(of: script, panel: panel, file: "s.touches")
        var tracker = ContactTracker(description: panel, mapping: try DeviceMapping(description: panel, screen: screen))
        var frames: [[(kind: String, x: Double, y: Double)]] = []
        for event in events {
            guard let frame = tracker.process(event) else { continue }
            frames.append(frame.changes.map { change in
                switch change {
                case .down(_, let p, _, _): ("down", p.x, p.y)
                case .move(_, let p, _, _): ("move", p.x, p.y)
                case .up: ("up", 0, 0)
                case .cancel: ("cancel", 0, 0)
                }
            })
        }
        let expected: [[(kind: String, x: Double, y: Double)]] = [
            [("down", 100, 200), ("down", 700.5, 900.3)],
            [("move", 110, 215)], [("move", 120, 230)], [("move", 130, 245)], [("move", 140, 260)],
            [("up", 0, 0), ("up", 0, 0)],
        ]
        #expect(frames.map { $0.map(\.kind) } == expected.map { $0.map(\.kind) })
        // Within half a device value (0.05 pt on this panel), stretched by the calibration.
        for (got, want) in zip(frames.joined(), expected.joined()) {
            #expect(abs(got.x - want.x) <= 0.06 && abs(got.y - want.y) <= 0.06, "\(got) is not \(want)")
        }
    }
}
