/// The configuration's top-level `routing` section: present, touches are routed and the panel
/// has a virtual copy; absent, gestured behaves as it always did (no copy, no `route` field).
public struct RoutingConfiguration: Hashable, Sendable {
    /// The root's rule, for touches on views that state none and touches that hit no view.
    public var defaultRule: RoutingRule

    public init(defaultRule: RoutingRule) {
        self.defaultRule = defaultRule
    }
}
