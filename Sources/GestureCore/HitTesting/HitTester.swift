/// UIKit's hit test over a ``ViewTree`` (docs/hit-testing.md, "The algorithm"): front-most subview first, the
/// view itself when no subview takes the point, with the per-view overrides `none`, `self`, `redirect`,
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

    /// The walk, with an explicit stack of the views whose subviews are being asked (front-most
    /// first), so that no layout can exhaust the thread's stack.
    private static func hitTest(_ tree: ViewTree, view root: ViewIndex, local: Point,
                                trace: inout HitTestTrace?) -> ViewIndex? {
        var stack: [(view: ViewIndex, local: Point, asked: Int)] = []
        // `.some(result)`: the view just entered (or finished) answered; `nil`: it was pushed
        // and its subviews are to be asked.
        var answer = enter(tree, root, local, &trace, &stack)
        while true {
            if let result = answer {
                guard let top = stack.last else { return result }
                if let hit = result {
                    // The front-most subview that takes the point answers for its superview.
                    stack.removeLast()
                    answer = .some(finish(tree, top.view, hit))
                    continue
                }
            }
            let top = stack.count - 1
            let subviews = tree[stack[top].view].subviews
            if stack[top].asked < subviews.count {
                let subview = subviews[subviews.count - 1 - stack[top].asked]
                stack[top].asked += 1
                answer = enter(tree, subview, stack[top].local - tree[subview].spec.frame.origin, &trace, &stack)
            } else {
                // No subview takes the point: the view itself does.
                let frame = stack.removeLast()
                answer = .some(finish(tree, frame.view, frame.view))
            }
        }
    }

    /// The start of `hitTest` on `view`: its answer when it needs no subview (hidden, `none`,
    /// `self`, outside), or `nil` after pushing it so that its subviews are asked.
    private static func enter(_ tree: ViewTree, _ view: ViewIndex, _ local: Point, _ trace: inout HitTestTrace?,
                              _ stack: inout [(view: ViewIndex, local: Point, asked: Int)]) -> ViewIndex?? {
        let node = tree[view]
        trace?.steps.append(.hitTest(view))
        let spec = node.spec
        if spec.hidden || !spec.userInteractionEnabled || spec.alpha <= 0.01 { return .some(nil) }
        switch spec.hitTest {
        case .none:
            return .some(nil)
        case .self:
            let inside = pointInside(node, local)
            trace?.steps.append(.pointInside(view, inside))
            return .some(inside ? finish(tree, view, view) : nil)
        case .default, .redirect:
            let inside = pointInside(node, local)
            trace?.steps.append(.pointInside(view, inside))
            guard inside else { return .some(nil) }
            stack.append((view, local, 0))
            return nil
        }
    }

    /// The answer of `view` once `result` (itself or a view inside it) takes the point: a
    /// redirect names its target instead, and `passThrough` composes with every override, so
    /// the view's own empty area lets the touch fall through to the views behind it.
    private static func finish(_ tree: ViewTree, _ view: ViewIndex, _ result: ViewIndex) -> ViewIndex? {
        let node = tree[view]
        var result = result
        if let target = node.redirectTarget { result = target }
        if node.spec.passThrough && result == view { return nil }
        return result
    }
}
