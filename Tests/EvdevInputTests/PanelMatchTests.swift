import EvdevInput
import GestureCore
import Testing

/// Which identity `gestured map` binds a panel by: the most stable one that tells it apart from
/// every other panel plugged in.
@Suite("panel identity")
struct PanelMatchTests {
    static func panel(_ vendorProduct: String = "0eef:c000", idPath: String? = nil, serial: String? = nil,
                      phys: String? = nil) -> PanelIdentity {
        let ids = vendorProduct.split(separator: ":").map(String.init)
        return PanelIdentity(idPath: idPath, serial: serial, vendor: ids[0], product: ids[1], phys: phys)
    }

    static func keys(_ index: Int, _ panels: [PanelIdentity]) throws -> PanelMatch.Keys {
        try PanelMatch.choose(for: index, among: panels).get().keys
    }

    // MARK: Identical vendor and product

    @Test func twoIdenticalPanelsAreToldApartByTheirPort() throws {
        let panels = [Self.panel(idPath: "pci-0000:00:14.0-usb-0:3:1.0", phys: "usb-0000:00:14.0-3/input0"),
                      Self.panel(idPath: "pci-0000:00:14.0-usb-0:4:1.0", phys: "usb-0000:00:14.0-4/input0")]
        let match = try PanelMatch.choose(for: 1, among: panels).get()
        #expect(match.keys == .idPath("pci-0000:00:14.0-usb-0:4:1.0"))
        #expect(match.reason == "2 panels share 0eef:c000; ID_PATH (the port each is plugged into) tells them apart")
        #expect(try Self.keys(0, panels) == .idPath("pci-0000:00:14.0-usb-0:3:1.0"))
    }

    /// Two nodes on one port (a hub that reports one path, two interfaces of one device) have
    /// one ID_PATH: the serial then tells them apart, with vendor and product.
    @Test func aSharedPortFallsBackToTheSerial() throws {
        let panels = [Self.panel(idPath: "platform-i2c", serial: "A1", phys: "i2c-1"),
                      Self.panel(idPath: "platform-i2c", serial: "B2", phys: "i2c-1")]
        let match = try PanelMatch.choose(for: 0, among: panels).get()
        #expect(match.keys == .serial("A1", property: "ID_SERIAL_SHORT", vendor: "0eef", product: "c000", fromUdev: false))
        #expect(match.reason == "2 panels share 0eef:c000; its ID_PATH is another panel's too, and its ID_SERIAL_SHORT "
            + "with vendor and product tells it apart")
    }

    @Test func withoutPathOrSerialThePhysTellsThemApart() throws {
        let panels = [Self.panel(phys: "usb-0000:00:14.0-1/input0"), Self.panel(phys: "usb-0000:00:14.0-2/input0")]
        let match = try PanelMatch.choose(for: 1, among: panels).get()
        #expect(match.keys == .phys("usb-0000:00:14.0-2/input0", vendor: "0eef", product: "c000", fromUdev: false))
        #expect(match.reason == "2 panels share 0eef:c000; it has no ID_PATH and no serial (a uinput or virtual panel "
            + "has only phys), and its phys with vendor and product tells it apart")
    }

    /// A serial both share (udev's ID_SERIAL of a panel without one is "Vendor_Model") does not
    /// tell them apart; their ports do, and then their phys.
    @Test func aSharedSerialIsNoIdentity() throws {
        let panels = [Self.panel(serial: "eGalax_Inc._USB_TouchController", phys: "usb-1/input0"),
                      Self.panel(serial: "eGalax_Inc._USB_TouchController", phys: "usb-2/input0")]
        #expect(try Self.keys(0, panels) == .phys("usb-1/input0", vendor: "0eef", product: "c000", fromUdev: false))
        let withPaths = [Self.panel(idPath: "p1", serial: "same"), Self.panel(idPath: "p2", serial: "same")]
        #expect(try Self.keys(1, withPaths) == .idPath("p2"))
    }

    @Test(arguments: [
        // Nothing at all on either.
        [PanelMatchTests.panel(), PanelMatchTests.panel()],
        // The same phys on both (two uinput panels made alike).
        [PanelMatchTests.panel(phys: "virtual"), PanelMatchTests.panel(phys: "virtual")],
        // The second has a phys, the first none: the first still cannot be picked alone.
        [PanelMatchTests.panel(), PanelMatchTests.panel(phys: "usb-2/input0")],
    ])
    func identicalPanelsCannotBeToldApart(_ panels: [PanelIdentity]) throws {
        switch PanelMatch.choose(for: 0, among: panels) {
        case .success(let match): Issue.record("bound by \(match.keys), yet nothing tells the panels apart")
        case .failure(let ambiguity):
            #expect(ambiguity.others == [1])
            #expect(ambiguity.description.hasPrefix("2 panels share 0eef:c000, and none of ID_PATH, serial and phys"))
        }
    }

    // MARK: Different panels

    @Test func aLonePanelIsBoundByItsPort() throws {
        let panels = [Self.panel(idPath: "pci-0000:00:14.0-usb-0:3:1.0", serial: "A1"), Self.panel("04f3:2234")]
        let match = try PanelMatch.choose(for: 0, among: panels).get()
        #expect(match.keys == .idPath("pci-0000:00:14.0-usb-0:3:1.0"))
        #expect(match.reason == "ID_PATH, the port it is plugged into, is the most stable identity (no other panel is 0eef:c000)")
    }

    @Test func aModelOfItsOwnWithNothingElseIsBoundByVendorAndProduct() throws {
        let panels = [Self.panel(), Self.panel("04f3:2234")]
        #expect(try Self.keys(0, panels) == .model(vendor: "0eef", product: "c000", fromUdev: false))
        #expect(try Self.keys(1, panels) == .model(vendor: "04f3", product: "2234", fromUdev: false))
    }

    /// Equal phys strings of different models (each vendor's driver numbers from 0) are no clash.
    @Test func physClashesCountOnlyWithinAModel() throws {
        let panels = [Self.panel(phys: "input0"), Self.panel("04f3:2234", phys: "input0"), Self.panel(phys: "input1")]
        #expect(try Self.keys(0, panels) == .phys("input0", vendor: "0eef", product: "c000", fromUdev: false))
    }

    // MARK: Reading the identity

    static let description = DeviceDescription(name: "eGalax Inc. USB TouchController", bus: 3, vendor: 0x0eef,
                                               product: 0xc000, version: 0x100, codes: [:], absInfo: [:], properties: [])

    @Test func theShortSerialComesFirstAndEmptyValuesAreNone() {
        let identity = PanelIdentity(description: Self.description, udevProperties: [
            "ID_PATH": "pci-0000:00:14.0-usb-0:3:1.0", "ID_SERIAL": "eGalax_Inc._USB_TouchController_A1B2",
            "ID_SERIAL_SHORT": "A1B2", "ID_VENDOR_ID": "0EEF", "ID_MODEL_ID": "c000",
        ], phys: "")
        #expect(identity == PanelIdentity(idPath: "pci-0000:00:14.0-usb-0:3:1.0", serial: "A1B2",
                                          serialProperty: "ID_SERIAL_SHORT", vendor: "0eef", product: "c000",
                                          vendorProductFromUdev: true, phys: nil))
        let longOnly = PanelIdentity(description: Self.description, udevProperties: [
            "ID_SERIAL": "eGalax_Inc._USB_TouchController", "ID_SERIAL_SHORT": "", "ID_PATH": "",
        ], phys: "usb-0000:00:14.0-3/input0")
        #expect(longOnly.serial == "eGalax_Inc._USB_TouchController")
        #expect(longOnly.serialProperty == "ID_SERIAL")
        #expect(longOnly.idPath == nil)
        #expect(longOnly.phys == "usb-0000:00:14.0-3/input0")
    }

    /// Without udev (a container, a uinput panel udev gave no ids), or with ids that are not
    /// four hex digits, vendor and product are the kernel's input id.
    @Test(arguments: [nil, ["ID_VENDOR_ID": "eGalax", "ID_MODEL_ID": "c000"], ["ID_VENDOR_ID": "0eef"]])
    func withoutUdevIdsTheInputIdIsUsed(_ properties: [String: String]?) {
        let identity = PanelIdentity(description: Self.description, udevProperties: properties, phys: nil)
        #expect(identity.vendorProduct == "0eef:c000")
        #expect(!identity.vendorProductFromUdev)
        #expect(identity.serial == nil && identity.idPath == nil)
    }
}
