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

    /// A finger landed (already in `touches`). False when the tap fails: more than `required`
    /// fingers landed, or, once all are down, their centroid is farther than `maxMovement`
    /// from the first tap's place.
    mutating func land(in touches: RecognizerTouches, required: Int, maxMovement: Double) -> Bool {
        landed += 1
        if landed > required { return false }
        if touches.count == required && !complete {
            complete = true
            let location = touches.centroid()
            if let anchor {
                if anchor.distance(to: location) > maxMovement { return false }
            } else {
                anchor = location
            }
        }
        return true
    }
}
