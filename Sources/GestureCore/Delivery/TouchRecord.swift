/// The engine's state of one touch, from the frame it began until its last delivery.
struct TouchRecord {
    let id: TouchID
    /// The input contact while the finger is down; `nil` once it lifted or was cancelled.
    var contact: ContactID?
    /// The tree the touch was hit-tested in; it keeps it for life, even if the layout changes.
    let tree: ViewTree
    /// The hit view (`nil`: no view took the touch).
    let view: ViewIndex?
    /// False when the view is not delivered this touch at all (no hit view,
    /// `multipleTouchEnabled: false` with another touch down, `exclusiveTouch`).
    let deliversToView: Bool
    let beganAt: Timestamp
    let beganLocation: Point
    var location: Point
    var previousLocation: Point
    var tapCount: Int
    var majorRadius: Double?
    var force: Double?
    /// Where the view's deliveries stand.
    var delivery: ViewDelivery = .notBegun
    /// The touch lifted or was cancelled at the input.
    var inputEnded = false
    /// Control tracking, when the hit view is a control.
    var control: ControlTracking?

    func info(_ phase: TouchPhase) -> TouchInfo {
        TouchInfo(id: id, phase: phase, location: location,
                  viewLocation: view.map { tree.convert(screen: location, to: $0) } ?? location,
                  previousLocation: previousLocation, tapCount: tapCount, majorRadius: majorRadius, force: force)
    }
}

/// Where a touch's deliveries to its view stand.
enum ViewDelivery: Equatable {
    /// No delivery yet (a `began` may be held by a recognizer).
    case notBegun
    /// `began` was delivered; `moved` deliveries follow.
    case delivering
    /// `ended` or `cancelled` was delivered, or the view never receives this touch.
    case finished
}
