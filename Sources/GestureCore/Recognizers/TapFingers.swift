/// The fingers of one tap as they land, counted alike by a tap (``TapRecognizer``) and by the
/// taps before a long press (``LongPressRecognizer``): how many landed, whether all were down
/// together, and the first tap's place, which later taps must land near.
struct TapFingers: Sendable {
    /// Fingers that landed in this tap so far.
    var landed = 0
    /// Whether all the required fingers have been down together.
    var complete = false
    /// The first tap's place: the centroid of its fingers when all were down.
    var anchor: Point?

    /// A finger landed (already in `touches`). The reason the tap fails, or nil: more than
    /// `required` fingers landed, or, once all are down, their centroid is farther than
    /// `maxMovement` from the first tap's place.
    mutating func land(in touches: RecognizerTouches, required: Int, maxMovement: Double) -> FailureReason? {
        landed += 1
        if landed > required { return .count(.tooManyTouches, landed, limit: required) }
        if touches.count == required && !complete {
            complete = true
            let location = touches.centroid()
            if let anchor {
                let distance = anchor.distance(to: location)
                if distance > maxMovement { return FailureReason(.tapTooFarFromFirst, measured: distance, limit: maxMovement) }
            } else {
                anchor = location
            }
        }
        return nil
    }

    /// Why a tap whose last finger lifted before all `required` were down together fails.
    func tooFew(required: Int) -> FailureReason {
        .count(.tooFewTouches, landed, limit: required)
    }
}
