#if canImport(Glibc)
import Glibc
#endif
import EvdevInput
import GestureCore
import GestureSystem
import SystemPackage
import Testing

/// Which device `auto`, a name glob or a path picks, and what `gestured devices` says about
/// the others.
@Suite("Device selection")
struct DeviceSelectorMatchingTests {
    static func entry(_ number: Int, _ name: String, properties: Set<UInt16> = [], keys: Set<UInt16> = [],
                      multitouch: Bool = true) -> DeviceEntry {
        var absInfo: [UInt16: AbsInfo] = [AbsCode.x: AbsInfo(minimum: 0, maximum: 4095),
                                          AbsCode.y: AbsInfo(minimum: 0, maximum: 4095)]
        if multitouch {
            absInfo[AbsCode.mtSlot] = AbsInfo(minimum: 0, maximum: 9)
            absInfo[AbsCode.mtPositionX] = AbsInfo(minimum: 0, maximum: 4095)
            absInfo[AbsCode.mtPositionY] = AbsInfo(minimum: 0, maximum: 4095)
            absInfo[AbsCode.mtTrackingID] = AbsInfo(minimum: 0, maximum: 65535)
        }
        let description = DeviceDescription(name: name, codes: [EventType.key: keys.union([KeyCode.btnTouch])],
                                            absInfo: absInfo, properties: properties)
        return DeviceEntry(path: "/dev/input/event\(number)", number: number, description: description, error: nil)
    }

    static let keyboard = DeviceEntry(path: "/dev/input/event0", number: 0,
                                      description: DeviceDescription(name: "AT Translated Set 2 keyboard"), error: nil)
    static let touchpad = entry(1, "bcm5974", properties: [InputProperty.buttonpad],
                                keys: [KeyCode.btnLeft, KeyCode.btnToolFinger])
    static let denied = DeviceEntry(path: "/dev/input/event2", number: 2, description: nil,
                                    error: .system(SystemError(call: "open", errno: .permissionDenied, subject: "/dev/input/event2")))
    static let egalax = entry(3, "eGalax Inc. USB TouchController", properties: [InputProperty.direct])
    static let atmel = entry(4, "Atmel maXTouch Touchscreen", properties: [InputProperty.direct])

    static let entries = [keyboard, touchpad, denied, egalax, atmel]

    @Test func autoPicksTheFirstTouchscreenAndNeverATouchpad() {
        let verdicts = DeviceSelector.auto.verdicts(for: Self.entries)
        #expect(verdicts.map(\.isPicked) == [false, false, false, true, false])
        #expect(verdicts.map(\.reason) == [
            "not a touch device: no position axes (ABS_MT_POSITION_X/Y or ABS_X/Y)",
            "touchpad: BTN_TOOL_FINGER without INPUT_PROP_DIRECT (udev's input_id rule)",
            "not readable: permission denied (EACCES)",
            "touchscreen: INPUT_PROP_DIRECT with absolute position (udev's input_id rule)",
            "touchscreen: INPUT_PROP_DIRECT with absolute position (udev's input_id rule), but an earlier touchscreen comes first",
        ])
        #expect(DeviceSelector.auto.pick(from: [Self.keyboard, Self.touchpad]) == nil)
    }

    @Test(arguments: [("Atmel*", 4), ("*Touch*", 3), ("eGalax*", 3), ("bcm5974", 1), ("nothing*", nil)] as [(String, Int?)])
    func aNameGlobPicksTheFirstMatchingDevice(pattern: String, number: Int?) {
        #expect(DeviceSelector.name(pattern: pattern).pick(from: Self.entries)?.number == number)
    }

    @Test func aPathPicksThatNodeEvenWhenItIsATouchpad() {
        // An explicit path is the operator's choice; only auto refuses touchpads.
        #expect(DeviceSelector.path("/dev/input/event1").pick(from: Self.entries)?.number == 1)
        #expect(DeviceSelector.path("/dev/input/event2").pick(from: Self.entries) == nil)
    }

    /// The virtual panel has the panel's name and is a touchscreen: no selector may pick it,
    /// or gestured would read back what it forwards (and a name would pick it once the panel
    /// is unplugged).
    @Test(arguments: [DeviceSelector.auto, .name(pattern: "eGalax*"), .path("/dev/input/event5")])
    func noSelectorPicksGesturedsOwnCopy(selector: DeviceSelector) {
        var copy = Self.entry(5, "eGalax Inc. USB TouchController", properties: [InputProperty.direct])
        copy.phys = PanelCopy.phys(of: "usb-0000:00:14.0-4/input0")
        let marked = DeviceEntry(path: "/dev/input/event6", number: 6, description: copy.description, error: nil,
                                 udevProperties: ["ID_INPUT_TOUCHSCREEN": "1", PanelCopyProperties.marker: "1"])
        #expect(copy.isPanelCopy && marked.isPanelCopy)
        let verdicts = selector.verdicts(for: [Self.keyboard, copy, marked])
        #expect(verdicts.allSatisfy { !$0.isPicked })
        if case .path = selector {
            #expect(verdicts[1].reason == DeviceSelector.panelCopyReason)
        } else {
            #expect(verdicts[1].reason == DeviceSelector.panelCopyReason && verdicts[2].reason == DeviceSelector.panelCopyReason)
        }
        // With the panel there, the panel is picked, never its copy.
        let withPanel = selector == .path("/dev/input/event5") ? [] : [Self.egalax, copy]
        if !withPanel.isEmpty { #expect(selector.pick(from: withPanel)?.path == Self.egalax.path) }
    }
}
