import EvdevInput
import GestureCore
import Testing

/// Panels found by their stable identity (docs/configuration.md, "Screens"): every key given
/// must match, two identical panels are told apart by their path, and an identity that matches
/// two devices is an error naming both, never "the first".
@Suite("Device selection by identity")
struct DeviceIdentityMatchingTests {
    /// A touchscreen of vendor 0eef product c000 at `number`, with udev's properties and a phys.
    static func panel(_ number: Int, idPath: String?, serial: String? = nil, phys: String) -> DeviceEntry {
        var entry = DeviceSelectorMatchingTests.entry(number, "eGalax Inc. USB TouchController",
                                                      properties: [InputProperty.direct])
        var udev = ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1", "ID_VENDOR_ID": "0eef", "ID_MODEL_ID": "c000"]
        if let idPath { udev["ID_PATH"] = idPath }
        if let serial { udev["ID_SERIAL_SHORT"] = serial }
        entry = DeviceEntry(path: entry.path, number: number, description: entry.description, error: nil,
                            udevProperties: udev, phys: phys)
        return entry
    }

    static let left = panel(5, idPath: "pci-0000:00:14.0-usb-0:3:1.0", serial: "L1", phys: "usb-0000:00:14.0-3/input0")
    static let right = panel(6, idPath: "pci-0000:00:14.0-usb-0:4:1.0", phys: "usb-0000:00:14.0-4/input0")
    static let entries = [DeviceSelectorMatchingTests.keyboard, left, right]

    static func picked(_ identity: DeviceIdentity, in entries: [DeviceEntry] = entries) -> String? {
        DeviceSelector.identity(identity).pick(from: entries)?.path
    }

    @Test func eachKeyGivenMustMatch() {
        #expect(Self.picked(DeviceIdentity(idPath: "pci-0000:00:14.0-usb-0:4:1.0")) == "/dev/input/event6")
        #expect(Self.picked(DeviceIdentity(serial: "L1")) == "/dev/input/event5")
        #expect(Self.picked(DeviceIdentity(vendor: 0x0eef, product: 0xc000, phys: "usb-0000:00:14.0-3/input0"))
            == "/dev/input/event5")
        #expect(Self.picked(DeviceIdentity(vendor: 0x0eef, product: 0xc001, phys: "usb-0000:00:14.0-3/input0")) == nil)
        #expect(Self.picked(DeviceIdentity(phys: "usb-0000:00:14.0-4/input0", name: "Atmel*")) == nil)
    }

    /// Hotplug order is arbitrary: the same identity finds the same panel whichever was
    /// registered first.
    @Test func thePluggingOrderDoesNotMatter() {
        let identity = DeviceIdentity(phys: "usb-0000:00:14.0-4/input0")
        let swapped = [Self.panel(5, idPath: nil, phys: "usb-0000:00:14.0-4/input0"),
                       Self.panel(6, idPath: nil, phys: "usb-0000:00:14.0-3/input0")]
        #expect(Self.picked(identity) == "/dev/input/event6")
        #expect(Self.picked(identity, in: swapped) == "/dev/input/event5")
    }

    @Test func twoMatchesAreAnErrorNamingBoth() {
        let selector = DeviceSelector.identity(DeviceIdentity(vendor: 0x0eef, product: 0xc000))
        let message = selector.ambiguity(in: Self.entries)
        #expect(message == "vendor 0eef, product c000 matches 2 devices: /dev/input/event5 (idPath "
            + "\"pci-0000:00:14.0-usb-0:3:1.0\", serial \"L1\", vendor 0eef, product c000, phys \"usb-0000:00:14.0-3/input0\") "
            + "and /dev/input/event6 (idPath \"pci-0000:00:14.0-usb-0:4:1.0\", vendor 0eef, product c000, phys "
            + "\"usb-0000:00:14.0-4/input0\"); add the key whose values differ (idPath, serial or phys) so that it matches one")
        #expect(DeviceSelector.identity(DeviceIdentity(serial: "L1")).ambiguity(in: Self.entries) == nil)
        #expect(DeviceSelector.auto.ambiguity(in: Self.entries) == nil)
    }

    @Test func aMismatchSaysWhichKeyDiffers() {
        let verdicts = DeviceSelector.identity(DeviceIdentity(idPath: "pci-x")).verdicts(for: Self.entries)
        #expect(verdicts.map(\.reason) == [
            "idPath is unknown (no udev ID_PATH), not \"pci-x\"",
            "idPath is \"pci-0000:00:14.0-usb-0:3:1.0\", not \"pci-x\"",
            "idPath is \"pci-0000:00:14.0-usb-0:4:1.0\", not \"pci-x\"",
        ])
    }
}
