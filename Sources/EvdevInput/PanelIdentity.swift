import GestureCore

/// What identifies a panel across reboots and replugs, as udev and the kernel name it: the
/// keys a screen's `device` selector matches (docs/configuration.md, "Binding panels to
/// screens"). Event node numbers are not among them: the kernel hands them out in the order
/// devices appear, which changes when panels are replugged in another order.
public struct PanelIdentity: Hashable, Sendable {
    /// udev's `ID_PATH`: the bus path of the port the panel is plugged into
    /// (`pci-0000:00:14.0-usb-0:3:1.0`), set by udev's `path_id` builtin for USB, I2C, PCI…
    /// devices; a uinput or other virtual device has none.
    public var idPath: String?
    /// udev's `ID_SERIAL_SHORT`, or `ID_SERIAL` when the panel has no short one.
    public var serial: String?
    /// Which of the two ``serial`` is: the property a udev rule matches it with.
    public var serialProperty: String?
    /// Four lowercase hex digits: udev's `ID_VENDOR_ID`, or the kernel's input id.
    public var vendor: String
    /// Four lowercase hex digits: udev's `ID_MODEL_ID`, or the kernel's input id.
    public var product: String
    /// True when ``vendor`` and ``product`` are udev's `ID_VENDOR_ID`/`ID_MODEL_ID`, false
    /// when they are the kernel's input id (sysfs `id/vendor`, `id/product` of the input
    /// device): a udev rule matches each where it came from.
    public var vendorProductFromUdev: Bool
    /// The kernel's physical path (`EVIOCGPHYS`: `usb-0000:00:14.0-3/input0`); a uinput panel
    /// has the one its creator set, or none.
    public var phys: String?

    public init(idPath: String? = nil, serial: String? = nil, serialProperty: String? = nil, vendor: String,
                product: String, vendorProductFromUdev: Bool = false, phys: String? = nil) {
        self.idPath = idPath
        self.serial = serial
        self.serialProperty = serial == nil ? nil : (serialProperty ?? Self.shortSerialProperty)
        self.vendor = vendor
        self.product = product
        self.vendorProductFromUdev = vendorProductFromUdev
        self.phys = phys
    }

    public static let idPathProperty = "ID_PATH"
    public static let shortSerialProperty = "ID_SERIAL_SHORT"
    public static let serialProperty = "ID_SERIAL"
    public static let vendorProperty = "ID_VENDOR_ID"
    public static let productProperty = "ID_MODEL_ID"

    /// The identity of a device from what libevdev described (its input id), its entry in
    /// udev's database and its physical path. An empty value is no value: udev and the kernel
    /// both write empty strings for what a device does not have.
    public init(description: DeviceDescription, udevProperties: [String: String]?, phys: String?) {
        func property(_ key: String) -> String? {
            guard let value = udevProperties?[key], !value.isEmpty else { return nil }
            return value
        }
        idPath = property(Self.idPathProperty)
        if let short = property(Self.shortSerialProperty) {
            serial = short
            serialProperty = Self.shortSerialProperty
        } else if let long = property(Self.serialProperty) {
            serial = long
            serialProperty = Self.serialProperty
        } else {
            serial = nil
            serialProperty = nil
        }
        if let vendor = property(Self.vendorProperty).flatMap(Self.hexID),
           let product = property(Self.productProperty).flatMap(Self.hexID) {
            self.vendor = vendor
            self.product = product
            vendorProductFromUdev = true
        } else {
            vendor = Self.hex(description.vendor)
            product = Self.hex(description.product)
            vendorProductFromUdev = false
        }
        self.phys = phys.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// The identity of a listed device; nil when it could not be described.
    public init?(_ entry: DeviceEntry) {
        guard let description = entry.description else { return nil }
        self.init(description: description, udevProperties: entry.udevProperties, phys: entry.phys)
    }

    /// `vendor:product`, as lsusb writes them.
    public var vendorProduct: String { "\(vendor):\(product)" }

    /// A 16-bit id as four lowercase hex digits.
    public static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }

    /// udev's `ID_VENDOR_ID`-style value (four hex digits) in lowercase; nil for anything else.
    static func hexID(_ value: String) -> String? {
        guard value.utf8.count == 4, let number = UInt16(value, radix: 16) else { return nil }
        return hex(number)
    }
}
