/// The range of one absolute axis (`struct input_absinfo`).
public struct AbsInfo: Hashable, Sendable {
    public var minimum: Int32
    public var maximum: Int32
    public var fuzz: Int32
    public var flat: Int32
    /// Units per millimetre (0 when the device does not say).
    public var resolution: Int32

    public init(minimum: Int32, maximum: Int32, fuzz: Int32 = 0, flat: Int32 = 0, resolution: Int32 = 0) {
        (self.minimum, self.maximum, self.fuzz, self.flat, self.resolution) = (minimum, maximum, fuzz, flat, resolution)
    }
}

/// What an input device is: its identity, the event codes it declares, its axis ranges and
/// its properties. Comes from a recording's header or from libevdev on a live device.
public struct DeviceDescription: Hashable, Sendable {
    public var name: String
    public var bus: UInt16
    public var vendor: UInt16
    public var product: UInt16
    public var version: UInt16
    /// Declared codes per event type (`EV_KEY` → its key codes, …).
    public var codes: [UInt16: Set<UInt16>]
    /// Axis ranges per `EV_ABS` code.
    public var absInfo: [UInt16: AbsInfo]
    /// `INPUT_PROP_*` bits that are set.
    public var properties: Set<UInt16>

    public init(name: String, bus: UInt16 = 0, vendor: UInt16 = 0, product: UInt16 = 0, version: UInt16 = 0,
                codes: [UInt16: Set<UInt16>] = [:], absInfo: [UInt16: AbsInfo] = [:], properties: Set<UInt16> = []) {
        (self.name, self.bus, self.vendor, self.product, self.version, self.codes, self.absInfo, self.properties) =
            (name, bus, vendor, product, version, codes, absInfo, properties)
    }

    /// True when the device declares `type`/`code` (or, for `EV_ABS`, has its range).
    public func has(type: UInt16, code: UInt16) -> Bool {
        if type == EventType.abs, absInfo[code] != nil { return true }
        return codes[type]?.contains(code) ?? false
    }

    public func has(property: UInt16) -> Bool { properties.contains(property) }
}
