/// Why a device's axes cannot be mapped to the screen; each message says what to change.
public enum DeviceMappingError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device declares no range for a position axis and the configuration gives none.
    case missingAxis(device: String, code: UInt16)
    /// An axis range is empty or inverted (`max < min`), so no position can be normalised.
    case invalidRange(device: String, code: UInt16, AbsInfo)

    public var description: String {
        switch self {
        case .missingAxis(let device, let code):
            "device \"\(device)\" declares no range for \(AbsCode.name(code)); "
                + "give the axis range in the configuration"
        case .invalidRange(let device, let code, let info):
            "device \"\(device)\" declares \(AbsCode.name(code)) from \(info.minimum) to \(info.maximum), "
                + "an empty range; give the axis range in the configuration"
        }
    }
}
