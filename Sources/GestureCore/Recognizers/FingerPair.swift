/// The two fingers a pinch or a rotation follows, in the order they landed, and the line
/// between them that both measure: the geometry the two-finger machines share.
///
/// Later fingers are not part of the pair (UIKit's pinch and rotation keep following their
/// first two touches), so the machines measure the pair, never the whole touch table.
struct FingerPair: Sendable {
    let first: TouchID
    let second: TouchID

    /// The pair that `second`, just landed and already in `touches`, makes with the finger
    /// that was down alone; nil if there is no other finger.
    init?(completedBy second: TouchSample, in touches: RecognizerTouches) {
        guard let other = touches.entries.first(where: { $0.id != second.touch }) else { return nil }
        first = other.id
        self.second = second.touch
    }

    init(_ first: TouchID, _ second: TouchID) {
        self.first = first
        self.second = second
    }

    func contains(_ touch: TouchID) -> Bool { touch == first || touch == second }

    /// The line from the first finger to the second where they are now; nil when either is
    /// gone, which the driver rules out while the pair's machine sees a touch change (a
    /// lifted finger is forgotten only after the transition).
    func line(in touches: RecognizerTouches) -> Point? {
        guard let a = touches.entry(first), let b = touches.entry(second) else { return nil }
        return b.location - a.location
    }

    /// The distance between the two fingers now; nil when either is gone.
    func span(in touches: RecognizerTouches) -> Double? {
        guard let line = line(in: touches) else { return nil }
        return RecognizerMath.length(line)
    }
}
