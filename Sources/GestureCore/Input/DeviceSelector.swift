/// Which input device the daemon reads (SPEC 6, 12: `device`): the configuration's `device`,
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

    public var description: String {
        switch self {
        case .auto: "auto (the first touchscreen)"
        case .path(let path): path
        case .name(let pattern): "the first device named \"\(pattern)\""
        }
    }
}
