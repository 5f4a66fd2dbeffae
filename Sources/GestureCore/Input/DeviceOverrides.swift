/// What the configuration's `device` section says about the device it selects, beyond which
/// one it is (docs/configuration.md, "`device`: panels that misdescribe themselves"): the kind to treat it as
/// when udev misjudges it (`type`), and the axes that carry its positions (`axes`). Panels that misdescribe
/// themselves are configured, not guessed; live and replay apply the same section.
public struct DeviceOverrides: Hashable, Sendable {
    /// `device.type`: wins over udev's database and over the capabilities.
    public var type: DeviceClassification.Kind?
    /// `device.axes`.
    public var axes: AxisOverrides

    public init(type: DeviceClassification.Kind? = nil, axes: AxisOverrides = .none) {
        (self.type, self.axes) = (type, axes)
    }

    /// Nothing overridden.
    public static let none = DeviceOverrides()

    /// The device's classification with these overrides: its kind from `type`, else udev's
    /// database, else udev's rule over the capabilities of the device as read through the
    /// configured axes (``AxisRemap``), which also give how it reports contacts. A device whose
    /// configured axes cannot be read is classified as it declares itself; using it fails
    /// later, with the reason.
    public func classify(_ description: DeviceDescription, udevProperties: [String: String]? = nil)
        -> DeviceClassification {
        let read = (try? AxisRemap(description, overrides: axes).description) ?? description
        return DeviceClassification(read, udevProperties: udevProperties, override: type)
    }
}
