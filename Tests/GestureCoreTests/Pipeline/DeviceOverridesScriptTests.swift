import GestureCore
import Testing

/// Panels that misdescribe themselves (SPEC 6), through the whole pipeline: positions on other
/// axes read through `device.axes`, the warning when the position axes never move, and
/// distances in millimetres converted with the panel's resolution (SPEC 2).
@Suite struct DeviceOverridesScriptTests {
    static let screen = ScreenGeometry(width: 1000, height: 1000)
    static let root = view("screen", 0, 0, 1000, 1000) { $0.handlesTouches = true }
    static let onZAndRX = DeviceOverrides(type: .touchscreen, axes: AxisOverrides(x: AxisOverride(code: AbsCode.z),
                                                                                  y: AxisOverride(code: AbsCode.rx)))

    typealias Event = EventScript.Event
    static func touch(_ down: Bool) -> Event { (EventType.key, KeyCode.btnTouch, down ? 1 : 0) }
    static func z(_ value: Int32) -> Event { (EventType.abs, AbsCode.z, value) }
    static func rx(_ value: Int32) -> Event { (EventType.abs, AbsCode.rx, value) }

    /// A tap and a short drag on the misdescribed panel: the position only on ABS_Z/ABS_RX.
    static func drag(_ script: inout PipelineScript) {
        script.frame([touch(true), z(400), rx(2000)])
        script.frame([z(800)])
        script.frame([z(1200)])
        script.frame([touch(false)])
    }

    @Test func positionsOnOtherAxesAreReadThroughDeviceAxes() throws {
        var script = try PipelineScript(Self.root, screen: Self.screen, device: DeviceFixtures.misdescribed,
                                        overrides: Self.onZAndRX)
        Self.drag(&script)
        // ABS_Z 400 of 0…3999 is 0.1 of the screen; ABS_RX 2000 is 0.5.
        #expect(script.take() == [
            "device added: test device",
            "began screen: #1 (100, 500)", "moved screen: #1 (200, 500)", "moved screen: #1 (300, 500)",
            "ended screen: #1",
        ])
        #expect(script.pipeline.takeNotices() == [])
    }

    @Test func positionAxesThatNeverMoveWhileOthersDoGetAWarningNamingThemAndTheSetting() throws {
        // Forced (replay --force, or the device's path given live) without device.axes.
        var script = try PipelineScript(Self.root, screen: Self.screen, device: DeviceFixtures.misdescribed)
        Self.drag(&script)
        let warning = "device \"Misdescribed Touch Panel\": its position axes ABS_X and ABS_Y have not changed in 3 "
            + "frames while ABS_Z, ABS_RX did, so every touch lands on one point; if the panel reports its position on "
            + "those, set device.axes: { x: \"ABS_Z\", y: \"ABS_RX\" } in the configuration (with device.type: "
            + "\"touchscreen\" if udev does not call it one)"
        #expect(script.take() == [
            "device added: test device",
            "began screen: #1 (0, 0)",
            // The third frame that moved ABS_Z and nothing else: no contact changed, the warning comes anyway.
            "warning: \(warning)",
            "ended screen: #1",
        ])
        #expect(script.pipeline.takeNotices() == [warning])
        // Once is enough.
        Self.drag(&script)
        #expect(!script.take().contains { $0.hasPrefix("warning") })
    }

    @Test func aPanelWhosePositionMovesIsNeverWarnedAbout() throws {
        var script = try PipelineScript(Self.root, screen: Self.screen)
        for step in 0..<20 {
            script.down(slot: 0, id: Int32(step), 500, 500)
            script.up(slot: 0)
        }
        #expect(!script.take().contains { $0.hasPrefix("warning") })
    }

    /// The square panel is 250 mm across on 1000 points: 4 points per millimetre.
    @Test func distancesInMillimetresUseThePanelsResolution() throws {
        var root = view("screen", 0, 0, 2000, 2000)
        root.recognizers = [recognizer("pan", .pan)]
        let settings = GestureSettings(millimetres: MillimetreThresholds([
            .init(key: "gestures.pan.slop", target: .recognizer(.pan, parameter: "slop"), millimetres: 5),
        ]))
        var script = try PipelineScript(root, screen: Self.screen, settings: settings)
        _ = script.take()
        // 5 mm is 20 points: 16 points is still within the slop, 24 is beyond it.
        script.down(slot: 0, id: 1, 500, 500)
        script.move(slot: 0, 516, 500)
        #expect(script.take() == ["began screen: #1 (500, 500)", "moved screen: #1 (516, 500)"])
        script.move(slot: 0, 524, 500)
        #expect(script.take() == ["cancelled screen: #1", "pan began"])
        script.up(slot: 0)
        #expect(script.take() == ["pan ended"])
        // A screen twice the size has twice the points per millimetre: 40 points of slop.
        script.setScreen(.none, 2000, 2000)
        script.down(slot: 0, id: 2, 500, 500)
        script.move(slot: 0, 516, 500)
        #expect(script.take() == ["screen 0 2000x2000", "began screen: #2 (1000, 1000)", "moved screen: #2 (1032, 1000)"])
        script.move(slot: 0, 521, 500)
        #expect(script.take() == ["cancelled screen: #2", "pan began"])
    }

    @Test func millimetresWithoutAResolutionAreAnErrorSayingWhatToChange() {
        let settings = GestureSettings(millimetres: MillimetreThresholds([
            .init(key: "gestures.control.trackingSlop", target: .trackingSlop, millimetres: 10),
        ]))
        #expect {
            _ = try PipelineScript(Self.root, screen: Self.screen, device: DeviceFixtures.quanta, settings: settings)
        } throws: { error in
            "\(error)" == "gestures.control.trackingSlop is given in millimetres, but device \"QUANTA OpticalTouchScreen\" "
                + "reports no resolution (units per millimetre) for its position axes; give it as device.axes: "
                + "{ x: { resolution: … }, y: { resolution: … } }, or state the distances in points"
        }
        // With the resolution from the configuration, it is usable.
        let resolved = DeviceOverrides(axes: AxisOverrides(x: AxisOverride(resolution: 8), y: AxisOverride(resolution: 8)))
        #expect(throws: Never.self) {
            _ = try PipelineScript(Self.root, screen: Self.screen, device: DeviceFixtures.quanta, overrides: resolved,
                                   settings: settings)
        }
    }
}
