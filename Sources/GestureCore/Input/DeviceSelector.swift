/// Which input device the daemon reads (`device`, docs/input.md, "Devices"): the configuration's `device`,
/// `--device`, and the device directory's matching (EvdevInput) all use this one type.
public enum DeviceSelector: Hashable, Sendable, CustomStringConvertible {
    /// The first touchscreen, as udev classifies it (``DeviceClassification``); touchpads and
    /// tablets are never picked.
    case auto
    /// A device node or a udev symlink such as `/dev/input/by-path/…`.
    case path(String)
    /// The first device whose name matches a shell glob (`eGalax*`), for panels whose node
    /// changes between boots and that have no stable symlink.
    case name(pattern: String)
    /// The one device whose stable identity matches every key given (docs/configuration.md,
    /// "Screens"): what tells two panels of one kiosk apart, whatever order they are plugged in.
    /// Unlike a name, it picks no "first": two devices that match are an error naming both.
    case identity(DeviceIdentity)

    public var description: String {
        switch self {
        case .auto: "auto (the first touchscreen)"
        case .path(let path): path
        case .name(let pattern): "the first device named \"\(pattern)\""
        case .identity(let identity): "the device with \(identity)"
        }
    }
}

/// The stable identity keys of a panel (docs/configuration.md, "Screens"): each key given must
/// match (AND). udev's `ID_PATH`, its serial (`ID_SERIAL_SHORT`, or `ID_SERIAL` when there is no
/// short one), the USB vendor and product (`ID_VENDOR_ID`/`ID_MODEL_ID`, or the input id), the
/// kernel's phys string, and optionally the name glob.
public struct DeviceIdentity: Hashable, Sendable, CustomStringConvertible {
    public var idPath: String?
    public var serial: String?
    public var vendor: UInt16?
    public var product: UInt16?
    public var phys: String?
    /// A shell glob of the device's name, as `name` alone is.
    public var name: String?

    public init(idPath: String? = nil, serial: String? = nil, vendor: UInt16? = nil, product: UInt16? = nil,
                phys: String? = nil, name: String? = nil) {
        (self.idPath, self.serial, self.vendor, self.product, self.phys, self.name) =
            (idPath, serial, vendor, product, phys, name)
    }

    /// True when no identity key is given.
    public var isEmpty: Bool {
        idPath == nil && serial == nil && vendor == nil && product == nil && phys == nil && name == nil
    }

    /// A 16-bit id as the configuration writes it: 4 lowercase hex digits.
    public static func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: 4 - digits.count) + digits
    }

    /// The keys given, as the configuration writes them: `idPath "…", vendor 0eef, …`.
    public var description: String {
        var parts: [String] = []
        if let idPath { parts.append("idPath \"\(idPath)\"") }
        if let serial { parts.append("serial \"\(serial)\"") }
        if let vendor { parts.append("vendor \(Self.hex(vendor))") }
        if let product { parts.append("product \(Self.hex(product))") }
        if let phys { parts.append("phys \"\(phys)\"") }
        if let name { parts.append("name \"\(name)\"") }
        return parts.joined(separator: ", ")
    }
}
