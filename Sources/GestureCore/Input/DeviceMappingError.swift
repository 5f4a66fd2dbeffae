/// Why a device's axes cannot be mapped to the screen; each message says what to change.
public enum DeviceMappingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device declares no range for a position axis and the configuration gives none.
    case missingAxis(device: String, code: UInt16)
    /// An axis range is empty or inverted (`max < min`), so no position can be normalised.
    case invalidRange(device: String, code: UInt16, AbsInfo)
    /// The configuration names an axis (`device.axes.x`) that the device does not declare,
    /// and gives no range for it.
    case undeclaredAxis(device: String, code: UInt16, setting: String, declared: [UInt16])
    /// The configuration names a multitouch axis for one coordinate and another kind of axis
    /// for the other; they cannot come from the same contact.
    case mixedAxes(device: String, x: UInt16, y: UInt16)

    public var description: String {
        switch self {
        case .missingAxis(let device, let code):
            "device \"\(device)\" declares no range for \(AbsCode.name(code)); "
                + "give the axis range in the configuration"
        case .invalidRange(let device, let code, let info):
            "device \"\(device)\" declares \(AbsCode.name(code)) from \(info.minimum) to \(info.maximum), "
                + "an empty range; give the axis range in the configuration"
        case .undeclaredAxis(let device, let code, let setting, let declared):
            "\(setting) names \(AbsCode.name(code)), which device \"\(device)\" does not declare; name one of its "
                + "absolute axes (\(declared.isEmpty ? "it has none" : declared.map(AbsCode.name).joined(separator: ", "))), "
                + "or give the axis's min and max"
        case .mixedAxes(let device, let x, let y):
            "device.axes names \(AbsCode.name(x)) and \(AbsCode.name(y)) for device \"\(device)\": one is a "
                + "multitouch (ABS_MT_*) axis and the other is not; name two of the same kind"
        }
    }
}
