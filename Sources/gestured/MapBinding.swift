import EvdevInput

/// What `gestured map` found for one screen: the panel touched for it, and the keys that pick
/// that panel out of every panel plugged in; or why it has none.
struct MapBinding: Hashable, Sendable {
    enum Outcome: Hashable, Sendable {
        /// `path` is the node it was read at, for messages only: node numbers change.
        case bound(path: String, name: String, match: PanelMatch)
        /// Touched, but no stable identity tells its panel apart (``PanelMatch/Ambiguity``).
        case ambiguous(path: String, name: String, reason: String)
        /// Not bound: nobody touched it in time, every panel was gone, or mapping was stopped.
        case unbound(reason: String)
    }

    var screen: MapScreen
    var outcome: Outcome
}
