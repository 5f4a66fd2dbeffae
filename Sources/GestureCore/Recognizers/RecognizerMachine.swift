/// The engine's id of one touch: fresh for every finger that lands, never reused in a run.
public struct TouchID: Hashable, Comparable, Sendable, CustomStringConvertible {
    public var rawValue: Int

    public init(_ rawValue: Int) {
        self.rawValue = rawValue
    }

    public static func < (lhs: TouchID, rhs: TouchID) -> Bool { lhs.rawValue < rhs.rawValue }

    public var description: String { String(rawValue) }
}

/// One touch as a recognizer sees it: where (screen points) and when.
public struct TouchSample: Hashable, Sendable {
    public var touch: TouchID
    public var location: Point
    public var time: Timestamp

    public init(touch: TouchID, location: Point, time: Timestamp) {
        self.touch = touch
        self.location = location
        self.time = time
    }
}

/// What the engine tells a recognizer state machine. Touches arrive in the order of the
/// frame; several touches of one frame arrive one input each, then `.frameEnd`.
public enum RecognizerInput: Hashable, Sendable {
    case touchBegan(TouchSample)
    case touchMoved(TouchSample)
    case touchEnded(TouchSample)
    case touchCancelled(TouchSample)
    /// Every change of the current frame has been given; multi-touch recognizers decide here.
    case frameEnd(Timestamp)
    /// The input timeline reached the deadline this machine reported.
    case deadline(Timestamp)
}

/// What a recognizer state machine wants after an input. The arena decides whether it may
/// (failure requirements, exclusivity) and turns the verdict into a state and an event.
public enum RecognizerVerdict: Hashable, Sendable {
    /// Stay as it is (still `possible`, or nothing to report in `began`/`changed`).
    case none
    /// Continuous: the conditions to begin are met.
    case began
    /// Continuous: the values changed.
    case changed
    /// Continuous: finished normally.
    case ended
    /// Continuous: lost its touches abnormally (a touch cancelled).
    case cancelled
    /// Discrete: recognized.
    case recognized
    /// Cannot recognize any more.
    case failed
}

/// The values a gesture event carries (docs/events.md § `gesture`); which are set depends on the kind.
public struct GestureValues: Hashable, Sendable {
    /// Screen points: the centroid of the gesture's touches (the tap location for taps).
    public var location: Point = .zero
    /// tap: the number of taps recognized.
    public var taps: Int?
    /// pan, edgePan: translation since the touches landed (the slop included, as UIKit reports it), points.
    public var translation: Point?
    /// pan, edgePan: points per second.
    public var velocity: Point?
    /// pinch: span now divided by span when the touches landed.
    public var scale: Double?
    /// pinch: scale per second.
    public var scaleVelocity: Double?
    /// rotation: radians, clockwise positive on screen (y grows downwards).
    public var rotation: Double?
    /// rotation: radians per second.
    public var rotationVelocity: Double?
    /// swipe: the direction recognized.
    public var direction: SwipeDirection?
    /// transform: the matrix that carries the gesture's fingers from where they landed to
    /// where they are (translation, scale and rotation in one).
    public var matrix: AffineMatrix?

    public init() {}
}

/// Facts a recognizer needs about its surroundings.
public struct RecognizerContext: Hashable, Sendable {
    /// The screen in points (edge pans measure their band from its edges).
    public var screen: Rect

    public init(screen: Rect) {
        self.screen = screen
    }
}
