/// UIKit's hit test over a ``ViewTree`` (SPEC 4): front-most subview first, the view itself
/// when no subview takes the point, with the per-view overrides `none`, `self`, `redirect`,
/// `passThrough` and `hitOutset`. The cost grows with the views visited, not the tree's size.
public enum HitTester {
    /// The view that takes a touch at `point` (screen points), or `nil`.
    public static func hitTest(_ tree: ViewTree, at point: Point) -> ViewIndex? {
        var trace: HitTestTrace? = nil
        return hitTest(tree, view: tree.root, local: tree.convert(screen: point, to: tree.root), trace: &trace)
    }

    /// The view that takes a touch at `point`, recording every call in `trace`.
    public static func hitTest(_ tree: ViewTree, at point: Point, trace: inout HitTestTrace) -> ViewIndex? {
        var recording: HitTestTrace? = trace
        let result = hitTest(tree, view: tree.root, local: tree.convert(screen: point, to: tree.root),
                             trace: &recording)
        trace = recording!
        return result
    }

    /// `point(inside:)`: the bounds enlarged by `hitOutset`, with CGRect's half-open edges.
    public static func pointInside(_ node: ViewTree.Node, _ local: Point) -> Bool {
        Rect(x: 0, y: 0, width: node.spec.frame.size.width, height: node.spec.frame.size.height)
            .outset(by: node.spec.hitOutset).contains(local)
    }

    private static func hitTest(_ tree: ViewTree, view: ViewIndex, local: Point,
                                trace: inout HitTestTrace?) -> ViewIndex? {
        let node = tree[view]
        trace?.steps.append(.hitTest(view))
        let spec = node.spec
        if spec.hidden || !spec.userInteractionEnabled || spec.alpha <= 0.01 { return nil }

        var result: ViewIndex?
        switch spec.hitTest {
        case .none:
            return nil
        case .self:
            let inside = pointInside(node, local)
            trace?.steps.append(.pointInside(view, inside))
            result = inside ? view : nil
        case .default, .redirect:
            let inside = pointInside(node, local)
            trace?.steps.append(.pointInside(view, inside))
            guard inside else { return nil }
            for subview in node.subviews.reversed() {
                let origin = tree[subview].spec.frame.origin
                if let hit = hitTest(tree, view: subview, local: local - origin, trace: &trace) {
                    result = hit
                    break
                }
            }
            if result == nil { result = view }
            if let target = node.redirectTarget { result = target }
        }
        // passThrough composes with every override: the view's own empty area lets the touch
        // fall through to the views behind it.
        if spec.passThrough && result == view { return nil }
        return result
    }
}
