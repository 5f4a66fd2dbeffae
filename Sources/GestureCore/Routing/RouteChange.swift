/// A routing decision of the engine (docs/routing.md): the records the pipeline's
/// ``PanelRouter`` turns into the virtual panel's stream, and that tests read. Every touch's
/// first record is ``Kind/began(_:)``; later ones change its route.
public struct RouteChange: Hashable, Sendable {
    public enum Kind: Hashable, Sendable {
        /// The touch went down with this route (its hit view's rule).
        case began(Route)
        /// A held touch is forwarded: its held frames go to the copy, in order, with their times.
        case forwarded
        /// A held touch is claimed: its held frames are dropped.
        case claimed
        /// A forwarded touch is claimed late: it is cancelled on the copy.
        case pilfered
        /// A held touch was cancelled at the input (`SYN_DROPPED`, a palm, the device gone):
        /// its frames never reach the copy.
        case dropped
    }

    public var time: Timestamp
    public var touch: TouchID
    /// The touch's contact (its tracking id on a multitouch panel).
    public var contact: ContactID
    public var kind: Kind
}

extension RouteChange: CustomStringConvertible {
    /// The touch and what happened to its route, as logs and tests write it: `#3 began
    /// forwarded`, `#3 pilfered`.
    public var description: String {
        let kind = switch kind {
        case .began(let route): "began \(route.name)"
        case .forwarded: "forwarded"
        case .claimed: "claimed"
        case .pilfered: "pilfered"
        case .dropped: "dropped"
        }
        return "#\(touch.rawValue) \(kind)"
    }
}
