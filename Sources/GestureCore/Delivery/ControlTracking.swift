/// `UIControl`'s touch tracking (docs/touches.md, "Controls"): which control events a delivery to a control
/// produces. "Inside" while tracking means inside the bounds enlarged by the tracking slop.
/// Each `moved` produces exactly one of enter/inside/exit/outside, as UIKit's `UIControl` does.
public struct ControlTracking: Hashable, Sendable {
    /// Whether the tracked touch was inside (with slop) at the previous delivery.
    public private(set) var wasInside = true

    public init() {}

    /// The events for a delivery of `phase` with the touch at `local` (control coordinates).
    public mutating func events(for phase: TouchPhase, at local: Point, bounds: Size, slop: Double,
                                tapCount: Int) -> (ControlEventKind, ControlEventKind?) {
        let inside = Rect(x: 0, y: 0, width: bounds.width, height: bounds.height).outset(by: slop).contains(local)
        defer { wasInside = inside }
        switch phase {
        case .began:
            // UIKit sends touchDown, and also touchDownRepeat when the touch is a repeated tap.
            return (.touchDown, tapCount > 1 ? .touchDownRepeat : nil)
        case .moved:
            switch (wasInside, inside) {
            case (true, true): return (.touchDragInside, nil)
            case (false, true): return (.touchDragEnter, nil)
            case (true, false): return (.touchDragExit, nil)
            case (false, false): return (.touchDragOutside, nil)
            }
        case .ended:
            return (inside ? .touchUpInside : .touchUpOutside, nil)
        case .cancelled:
            return (.touchCancel, nil)
        }
    }
}
