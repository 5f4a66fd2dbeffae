/// The ordered calls made while hit-testing one point, as UIKit's sources print them (docs/hit-testing.md,
/// "The trace").
public struct HitTestTrace: Hashable, Sendable {
    /// One call.
    public enum Step: Hashable, Sendable {
        /// `hitTest(_:with:)` was called on the view.
        case hitTest(ViewIndex)
        /// `point(inside:with:)` was called on the view and answered.
        case pointInside(ViewIndex, Bool)
    }

    public var steps: [Step] = []

    public init() {}

    /// The trace as text lines, e.g. `RootView hitTest`, `RootView point(inside): true`.
    public func lines(in tree: ViewTree) -> [String] {
        steps.map { step in
            switch step {
            case .hitTest(let view): "\(tree.id(of: view)) hitTest"
            case .pointInside(let view, let inside): "\(tree.id(of: view)) point(inside): \(inside)"
            }
        }
    }
}
