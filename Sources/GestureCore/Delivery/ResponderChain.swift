/// UIKit's responder chain for touch deliveries (SPEC 5.4): the hit view first; a view that
/// does not handle touches forwards the delivery to its superview, up to the root, after which
/// the window and the application receive it and it ends unhandled.
public enum ResponderChain {
    /// The views that receive a delivery to `view`, in order. The window and the application
    /// are not listed: they never consume a touch delivery in gestured.
    public static func responders(from view: ViewIndex, in tree: ViewTree) -> [ViewIndex] {
        var chain: [ViewIndex] = []
        var current: ViewIndex? = view
        while let responder = current {
            chain.append(responder)
            if tree[responder].handlesTouches { break }
            current = tree[responder].parent
        }
        return chain
    }
}
