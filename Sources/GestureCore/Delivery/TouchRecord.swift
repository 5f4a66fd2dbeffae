/// The engine's state of one touch, from the frame it began until its last delivery.
struct TouchRecord {
    let id: TouchID
    /// The input contact while the finger is down; `nil` once it lifted or was cancelled.
    var contact: ContactID?
    /// The tree the touch was hit-tested in; it keeps it for life, even if the layout changes.
    let tree: ViewTree
    /// The hit view (`nil`: no view took the touch).
    let view: ViewIndex?
    /// Arena indices of the recognizers that receive this touch.
    var recognizers: [Int]
    let beganAt: Timestamp
    let beganLocation: Point
    var location: Point
    var previousLocation: Point
    var tapCount: Int
    var majorRadius: Double?
    var force: Double?
    /// Where the view's deliveries stand.
    var delivery: ViewDelivery
    /// The touch lifted or was cancelled at the input.
    var inputEnded = false
    /// Control tracking, when the hit view is a control.
    var control: ControlTracking?
    /// Where the touch goes (docs/routing.md); nil when touches are not routed.
    var route: Route?

    /// The touch's hit view as the layout `tree` has it (the view with the same id), cached
    /// per tree; nil when that layout no longer has the view, or the touch has none.
    mutating func current(in tree: ViewTree) -> ViewIndex? {
        guard let view else { return nil }
        if tree === self.tree { return view }
        if let live, live.tree === tree { return live.view }
        let found = tree.index(of: self.tree.id(of: view))
        live = (tree, found)
        return found
    }

    /// The last ``current(in:)`` answer (read it through that).
    var live: (tree: ViewTree, view: ViewIndex?)? = nil

    /// The finger moved: where it was becomes the previous location.
    @inline(__always)
    mutating func move(to point: Point, radius: Double?, force: Double?) {
        previousLocation = location
        location = point
        if let radius { majorRadius = radius }
        if let force { self.force = force }
    }
}

/// Where a touch's deliveries to its view stand (docs/touches.md, "Delivery to views"). Transitions:
///
/// | state        | began              | moved      | ended                   | cancelled  | recognizer cancels |
/// |--------------|--------------------|------------|-------------------------|------------|--------------------|
/// | notBegun     | delivering / held  | –          | –                       | –          | finished           |
/// | heldBegan(q) | –                  | q + moved  | q + ended               | finished   | finished           |
/// | delivering   | –                  | delivering | finished / heldEnded    | finished   | finished (cancelled sent) |
/// | heldEnded    | –                  | –          | –                       | –          | finished (cancelled sent) |
/// | finished     | –                  | –          | –                       | –          | –                  |
///
/// A held `began` queue is released in order when no recognizer delays it any more; a held
/// `ended` is sent as `ended` when no recognizer delays it any more.
enum ViewDelivery {
    /// No delivery yet.
    case notBegun
    /// `began` (and what followed) held by `delaysTouchesBegan`.
    case heldBegan([TouchInfo])
    /// `began` was delivered; `moved` deliveries follow.
    case delivering
    /// `ended` held by `delaysTouchesEnded`.
    case heldEnded(TouchInfo)
    /// `ended` or `cancelled` was delivered, or the view never receives this touch.
    case finished

    var isFinished: Bool {
        if case .finished = self { return true }
        return false
    }

    var isDelivering: Bool {
        if case .delivering = self { return true }
        return false
    }

    /// A delivery is held (`heldBegan` or `heldEnded`).
    var isHeld: Bool {
        switch self {
        case .heldBegan, .heldEnded: true
        case .notBegun, .delivering, .finished: false
        }
    }
}
