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
             multitouchOnly: false, reason: "touchscreen: INPUT_PROP_DIRECT is set"),
        Case(description: DeviceFixtures.bcm5974, kind: .touchpad, contactProtocol: .protocolA,
             multitouchOnly: false, reason: "touchpad: INPUT_PROP_BUTTONPAD is set"),
        Case(description: DeviceFixtures.nexus4, kind: .touchscreen, contactProtocol: .slots(count: 10),
             multitouchOnly: true, reason: "touchscreen: INPUT_PROP_DIRECT is set"),
        Case(description: DeviceFixtures.quanta, kind: .touchscreen, contactProtocol: .slots(count: 10),
             multitouchOnly: false, reason: "touchscreen: INPUT_PROP_DIRECT is set"),
        // P: 00 — no properties; multitouch axes and nothing pointer-like.
        Case(description: DeviceFixtures.ntrig, kind: .touchscreen, contactProtocol: .protocolA,
             multitouchOnly: false, reason: "touchscreen: multitouch position axes and no pointer properties"),
        Case(description: DeviceFixtures.resistive, kind: .touchscreen, contactProtocol: .singleTouch,
             multitouchOnly: false,
             reason: "touchscreen: single-touch BTN_TOUCH + ABS_X/ABS_Y and no pointer properties"),
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
        #expect(classification.reason == "touchpad: BTN_LEFT is declared")
    }

    @Test func aSemiMTTouchpadWithoutButtons() {
        var description = DeviceFixtures.ntrig
        description.properties = [InputProperty.semiMT]
        #expect(DeviceClassification(description).reason == "touchpad: INPUT_PROP_SEMI_MT is set")
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
        #expect(classification.reason == "not a touch device: BTN_LEFT is declared and no BTN_TOUCH (an absolute pointer)")
    }

    @Test func aPenTabletIsNotATouchDevice() {
        let pen = DeviceDescription(
            name: "Wacom Intuos Pen",
            codes: [EventType.key: [KeyCode.btnToolPen, KeyCode.btnTouch, KeyCode.btnStylus]],
            absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 15200), AbsCode.y: AbsInfo(minimum: 0, maximum: 9500)])
        #expect(DeviceClassification(pen).kind == .notTouch)
    }
}
