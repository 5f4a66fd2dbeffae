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

/// The values a gesture event carries (docs/events.md § `gesture`); which are set depends on
/// the kind. The shared ones are fields here; a value only one kind reports lives in ``own``,
/// named and encoded in the kind's own file (a transform's matrix: `TransformRecognizer.swift`),
/// so that a new kind with new values changes neither this struct nor the encoder.
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
    /// The numbers of the kind's own values, which its file names and encodes
    /// (``RecognizerKindMachine/encodeValues(_:_:)``).
    public var own = KindValues()

    public init() {}
}

/// Up to ``capacity`` numbers a kind reports of its own, beyond ``GestureValues``' shared
/// fields: held inline (a gesture event's values are copied into the engine's pool, and an
/// array here was an allocation per event), each set or not.
public struct KindValues: Hashable, Sendable {
    /// How many numbers a kind may keep: a transform's matrix takes six.
    public static let capacity = 8
    private var numbers: (Double, Double, Double, Double, Double, Double, Double, Double) = (0, 0, 0, 0, 0, 0, 0, 0)
    /// Bit `i` set: number `i` is set.
    private var present: UInt8 = 0

    public init() {}

    /// Number `index` (0 ..< ``capacity``), or nil when it is not set.
    public subscript(index: Int) -> Double? {
        get {
            precondition(index >= 0 && index < Self.capacity, "a kind's own value \(index) is beyond KindValues.capacity")
            guard present & (1 << UInt8(index)) != 0 else { return nil }
            return withUnsafeBytes(of: numbers) { $0.load(fromByteOffset: index * MemoryLayout<Double>.stride, as: Double.self) }
        }
        set {
            precondition(index >= 0 && index < Self.capacity, "a kind's own value \(index) is beyond KindValues.capacity")
            if let newValue {
                withUnsafeMutableBytes(of: &numbers) { $0.storeBytes(of: newValue, toByteOffset: index * MemoryLayout<Double>.stride, as: Double.self) }
                present |= 1 << UInt8(index)
            } else {
                present &= ~(1 << UInt8(index))
            }
        }
    }

    public static func == (lhs: KindValues, rhs: KindValues) -> Bool {
        guard lhs.present == rhs.present else { return false }
        for index in 0..<capacity where lhs[index] != rhs[index] { return false }
        return true
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(present)
        for index in 0..<Self.capacity { if let value = self[index] { hasher.combine(value) } }
    }
}

/// Facts a recognizer needs about its surroundings.
public struct RecognizerContext: Hashable, Sendable {
    /// The screen in points (edge pans measure their band from its edges).
    public var screen: Rect

    public init(screen: Rect) {
        self.screen = screen
    }
}
