import EvdevInput
import GestureConfig

extension DeviceSelector {
    /// The configuration's selector as the input edge's match.
    var match: DeviceMatch {
        switch self {
        case .auto: .auto
        case .path(let path): .path(path)
        case .name(let pattern): .name(pattern: pattern)
        }
    }
}
