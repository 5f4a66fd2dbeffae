import GestureCore
import Testing

/// `device.axes` (SPEC 6): the named axes take the place of the position axes, in the
/// description and in the events; ranges come from the named axis's absinfo unless given.
@Suite struct AxisRemapTests {
    static func abs(_ code: UInt16, _ value: Int32) -> RawEvent {
        RawEvent(time: .zero, type: EventType.abs, code: code, value: value)
    }

    @Test func namedAxesBecomeASingleTouchPanelsPositionAxes() throws {
        let remap = try AxisRemap(DeviceFixtures.misdescribed,
                                  overrides: AxisOverrides(x: AxisOverride(code: AbsCode.z), y: AxisOverride(code: AbsCode.rx)))
        let read = remap.description
        #expect(read.absInfo[AbsCode.x] == AbsInfo(minimum: 0, maximum: 3999, resolution: 10))
        #expect(read.absInfo[AbsCode.y] == AbsInfo(minimum: 0, maximum: 3999, resolution: 10))
        #expect(read.absInfo[AbsCode.z] == nil && read.absInfo[AbsCode.rx] == nil)
        #expect(remap.positionCodes == (AbsCode.z, AbsCode.rx))
        #expect(remap.apply(Self.abs(AbsCode.z, 1234)) == Self.abs(AbsCode.x, 1234))
        #expect(remap.apply(Self.abs(AbsCode.rx, 99)) == Self.abs(AbsCode.y, 99))
        // The axes they replace carry nothing the panel means: set aside.
        #expect(remap.apply(Self.abs(AbsCode.x, 5)) == nil)
        #expect(remap.apply(Self.abs(AbsCode.y, 5)) == nil)
        let key = RawEvent(time: .zero, type: EventType.key, code: KeyCode.btnTouch, value: 1)
        #expect(remap.apply(key) == key)
        // Told it is a touchscreen, it reads as a single-touch one.
        let classification = DeviceOverrides(type: .touchscreen, axes: AxisOverrides(
            x: AxisOverride(code: AbsCode.z), y: AxisOverride(code: AbsCode.rx))).classify(DeviceFixtures.misdescribed)
        #expect(classification.kind == .touchscreen && classification.contactProtocol == .singleTouch)
        #expect(classification.reason == "touchscreen: the configuration's device.type says so")
    }

    @Test func swappedAxesArePermuted() throws {
        let remap = try AxisRemap(DeviceFixtures.resistive,
                                  overrides: AxisOverrides(x: AxisOverride(code: AbsCode.y), y: AxisOverride(code: AbsCode.x)))
        #expect(remap.apply(Self.abs(AbsCode.x, 7)) == Self.abs(AbsCode.y, 7))
        #expect(remap.apply(Self.abs(AbsCode.y, 8)) == Self.abs(AbsCode.x, 8))
        #expect(remap.apply(Self.abs(AbsCode.pressure, 9)) == Self.abs(AbsCode.pressure, 9))
    }

    @Test func multitouchAxesStayPerContactAndAMultitouchPanelNamingOthersIsReadSingleTouch() throws {
        let swapped = try AxisRemap(DeviceFixtures.egalax, overrides: AxisOverrides(
            x: AxisOverride(code: AbsCode.mtPositionY), y: AxisOverride(code: AbsCode.mtPositionX)))
        #expect(swapped.apply(Self.abs(AbsCode.mtPositionY, 3)) == Self.abs(AbsCode.mtPositionX, 3))
        #expect(DeviceClassification(swapped.description).contactProtocol == .slots(count: 8))
        // Its pointer emulation instead: one touch, from ABS_X/ABS_Y.
        let legacy = try AxisRemap(DeviceFixtures.egalax, overrides: AxisOverrides(
            x: AxisOverride(code: AbsCode.x), y: AxisOverride(code: AbsCode.y)))
        #expect(legacy.description.absInfo[AbsCode.mtPositionX] == nil)
        #expect(legacy.apply(Self.abs(AbsCode.mtPositionX, 3)) == nil)
        #expect(DeviceClassification(legacy.description).contactProtocol == .singleTouch)
    }

    @Test func rangesAndResolutionsWinOverTheDeclaredOnes() throws {
        let remap = try AxisRemap(DeviceFixtures.quanta, overrides: AxisOverrides(
            x: AxisOverride(range: 10...1910, resolution: 7), y: AxisOverride(resolution: 5)))
        #expect(!remap.rewritesEvents)
        #expect(remap.description.absInfo[AbsCode.mtPositionX] == AbsInfo(minimum: 10, maximum: 1910, resolution: 7))
        #expect(remap.description.absInfo[AbsCode.mtPositionY] == AbsInfo(minimum: 0, maximum: 1080, resolution: 5))
    }

    @Test func anAxisTheDeviceLacksIsRefusedWithWhatItHas() {
        #expect(throws: DeviceMappingError.undeclaredAxis(device: "Resistive Touchscreen", code: AbsCode.z,
                                                          setting: "device.axes.x",
                                                          declared: [AbsCode.x, AbsCode.y, AbsCode.pressure])) {
            try AxisRemap(DeviceFixtures.resistive, overrides: AxisOverrides(x: AxisOverride(code: AbsCode.z)))
        }
        let error = DeviceMappingError.undeclaredAxis(device: "Resistive Touchscreen", code: AbsCode.z,
                                                      setting: "device.axes.x", declared: [AbsCode.x, AbsCode.y])
        #expect(error.description == "device.axes.x names ABS_Z, which device \"Resistive Touchscreen\" does not declare; "
            + "name one of its absolute axes (ABS_X, ABS_Y), or give the axis's min and max")
        #expect(throws: DeviceMappingError.mixedAxes(device: "eGalax Inc. USB TouchController", x: AbsCode.x,
                                                     y: AbsCode.mtPositionY)) {
            try AxisRemap(DeviceFixtures.egalax, overrides: AxisOverrides(
                x: AxisOverride(code: AbsCode.x), y: AxisOverride(code: AbsCode.mtPositionY)))
        }
    }

    @Test(arguments: [("ABS_Z", AbsCode.z), ("ABS_RX", AbsCode.rx), ("ABS_MT_POSITION_X", AbsCode.mtPositionX),
                      ("ABS_TILT_X", UInt16(0x1a))])
    func axesHaveTheKernelsNames(_ name: String, _ code: UInt16) {
        #expect(AbsCode.code(named: name) == code)
        #expect(AbsCode.name(code) == name)
    }
}
