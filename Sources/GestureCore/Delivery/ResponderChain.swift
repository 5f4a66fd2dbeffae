/// UIKit's responder chain for touch deliveries (docs/touches.md, "The responder chain"): the hit view first;
/// a view that does not handle touches forwards the delivery to its superview, up to the root, after which
/// the window and the application receive it and it ends unhandled. The window and the
/// application are not listed: they never consume a touch delivery in gestured.
///
/// A sequence computed as it is walked, so a delivery carries only its hit view and building
/// it allocates nothing.
public struct ResponderChain: Sequence, Sendable {
    public let tree: ViewTree
    public let view: ViewIndex

    public init(from view: ViewIndex, in tree: ViewTree) {
        (self.tree, self.view) = (tree, view)
    }

    public struct Iterator: IteratorProtocol {
        let tree: ViewTree
        var upcoming: ViewIndex?

        public mutating func next() -> ViewIndex? {
            guard let responder = upcoming else { return nil }
            upcoming = tree[responder].handlesTouches ? nil : tree[responder].parent
            return responder
        }
    }

    public func makeIterator() -> Iterator { Iterator(tree: tree, upcoming: view) }

    /// The responders' ids, in order.
    public var ids: [String] { map { tree.id(of: $0) } }
}
