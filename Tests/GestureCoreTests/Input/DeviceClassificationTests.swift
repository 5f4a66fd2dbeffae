import GestureCore
import Testing

/// Which devices are touchscreens (SPEC 6), on descriptions modelled on the recordings.
@Suite struct DeviceClassificationTests {
    struct Case: Sendable, CustomTestStringConvertible {
        var description: DeviceDescription
        var kind: DeviceClassification.Kind
        var contactProtocol: ContactProtocol?
        var multitouchOnly: Bool
        var reason: String
        var testDescription: String { description.name }
    }

    static let cases: [Case] = [
        Case(description: DeviceFixtures.egalax, kind: .touchscreen, contactProtocol: .slots(count: 8),
             multitouchOnly: false, reason: "touchscreen: INPUT_PROP_DIRECT with absolute position (udev's input_id rule)"),
        Case(description: DeviceFixtures.bcm5974, kind: .touchpad, contactProtocol: .protocolA,
             multitouchOnly: false, reason: "touchpad: BTN_TOOL_FINGER without INPUT_PROP_DIRECT (udev's input_id rule)"),
        Case(description: DeviceFixtures.nexus4, kind: .touchscreen, contactProtocol: .slots(count: 10),
             multitouchOnly: true, reason: "touchscreen: INPUT_PROP_DIRECT with absolute position (udev's input_id rule)"),
        Case(description: DeviceFixtures.quanta, kind: .touchscreen, contactProtocol: .slots(count: 10),
             multitouchOnly: false, reason: "touchscreen: INPUT_PROP_DIRECT with absolute position (udev's input_id rule)"),
        // P: 00 — no properties; BTN_TOUCH and absolute position make it a touchscreen for udev.
        Case(description: DeviceFixtures.ntrig, kind: .touchscreen, contactProtocol: .protocolA,
             multitouchOnly: false, reason: "touchscreen: BTN_TOUCH with absolute position (udev's input_id rule)"),
        Case(description: DeviceFixtures.resistive, kind: .touchscreen, contactProtocol: .singleTouch,
             multitouchOnly: false, reason: "touchscreen: BTN_TOUCH with absolute position (udev's input_id rule)"),
    ]

    @Test(arguments: cases)
    func recordings(_ expected: Case) {
        let classification = DeviceClassification(expected.description)
        #expect(classification.kind == expected.kind)
        #expect(classification.contactProtocol == expected.contactProtocol)
        #expect(classification.isMultitouchOnly == expected.multitouchOnly)
        #expect(classification.reason == expected.reason)
        #expect(classification.isDirectTouch == (expected.kind == .touchscreen))
    }

    @Test func aTouchpadWithoutButtonpadIsStillATouchpad() {
        var description = DeviceFixtures.bcm5974
        description.properties = []
        let classification = DeviceClassification(description)
        #expect(classification.kind == .touchpad)
        #expect(classification.reason == "touchpad: BTN_TOOL_FINGER without INPUT_PROP_DIRECT (udev's input_id rule)")
    }

    /// The N-Trig digitiser of a tablet PC, as the panel describes itself: protocol A,
    /// BTN_TOUCH and BTN_TOOL_DOUBLETAP, no INPUT_PROP_DIRECT. udev calls it a touchscreen.
    @Test func anNTrigTabletPCDigitiserIsATouchscreen() {
        var description = DeviceFixtures.ntrig
        description.codes[EventType.key, default: []].insert(KeyCode.btnToolDoubletap)
        let classification = DeviceClassification(description)
        #expect(classification.kind == .touchscreen)
        #expect(classification.basis == .capabilities)
        #expect(classification.contactProtocol == .protocolA)
    }

    /// The classic eGalax 0eef:0001 controller on hid-generic declares pen buttons, so udev
    /// calls it a tablet; the configuration's device.type can say otherwise.
    @Test func aControllerDeclaringPenButtonsIsATabletUnlessConfigured() {
        let egalax = DeviceDescription(
            name: "eGalax Inc. USB TouchController",
            codes: [EventType.key: [KeyCode.btnToolPen, KeyCode.btnTouch, KeyCode.btnStylus]],
            absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 2047), AbsCode.y: AbsInfo(minimum: 0, maximum: 2047),
                      AbsCode.z: AbsInfo(minimum: 0, maximum: 2047), AbsCode.rx: AbsInfo(minimum: 0, maximum: 2047)])
        #expect(DeviceClassification(egalax).kind == .tablet)
        #expect(DeviceClassification(egalax).reason == "tablet: BTN_TOOL_PEN is declared (udev's input_id rule)")
        let configured = DeviceClassification(egalax, override: .touchscreen)
        #expect(configured.kind == .touchscreen)
        #expect(configured.basis == .configuration)
    }

    /// Live, udev's database decides, local rules and hwdb included.
    @Test func udevsDatabaseDecidesWhereThereIsOne() {
        let ntrig = DeviceClassification(DeviceFixtures.ntrig, udevProperties: ["ID_INPUT": "1", "ID_INPUT_TABLET": "1"])
        #expect(ntrig.kind == .tablet)
        #expect(ntrig.basis == .udevDatabase)
        #expect(ntrig.reason == "tablet: udev says ID_INPUT_TABLET=1")
        let pad = DeviceClassification(DeviceFixtures.bcm5974,
                                       udevProperties: ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1", "ID_INPUT_MOUSE": "1"])
        #expect(pad.kind == .touchscreen, "a rule that says touchscreen wins")
        let none = DeviceClassification(DeviceFixtures.egalax, udevProperties: ["ID_INPUT": "1", "ID_INPUT_KEY": "1"])
        #expect(none.kind == .notTouch)
        #expect(DeviceClassification(DeviceFixtures.egalax, udevProperties: [:]).basis == .capabilities,
                "an entry without ID_INPUT is not an input device's: the rule decides")
    }

    @Test func aKeyboardIsNotATouchDevice() {
        let keyboard = DeviceDescription(name: "AT Translated Set 2 keyboard", codes: [EventType.key: [30, 31, 32]])
        let classification = DeviceClassification(keyboard)
        #expect(classification.kind == .notTouch)
        #expect(classification.contactProtocol == nil)
        #expect(classification.reason == "not a touch device: no position axes (ABS_MT_POSITION_X/Y or ABS_X/Y)")
    }

    @Test func aVirtualMachineTabletIsAnAbsolutePointer() {
        // QEMU's USB tablet: ABS_X/Y and mouse buttons, no BTN_TOUCH.
        let tablet = DeviceDescription(
            name: "QEMU QEMU USB Tablet",
            codes: [EventType.key: [KeyCode.btnLeft, KeyCode.btnRight, KeyCode.btnMiddle]],
            absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 32767), AbsCode.y: AbsInfo(minimum: 0, maximum: 32767)])
        let classification = DeviceClassification(tablet)
        #expect(classification.kind == .notTouch)
        #expect(classification.reason == "not a touch device: BTN_LEFT with absolute position, an absolute mouse (udev's input_id rule)")
    }

    @Test func aPenTabletIsATablet() {
        let pen = DeviceDescription(
            name: "Wacom Intuos Pen",
            codes: [EventType.key: [KeyCode.btnToolPen, KeyCode.btnTouch, KeyCode.btnStylus]],
            absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 15200), AbsCode.y: AbsInfo(minimum: 0, maximum: 9500)])
        #expect(DeviceClassification(pen).kind == .tablet)
    }
}
