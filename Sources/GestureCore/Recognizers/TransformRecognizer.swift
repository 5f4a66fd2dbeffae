/// Recognizes `minimumTouches`…`maximumTouches` fingers moving a thing together — dragging,
/// scaling and turning it at once — and reports translation, scale and rotation with the one
/// affine matrix they make (what photo walls and maps need: interact.js `gesturable`, Hammer's
/// combined pinch and rotate); a continuous recognizer, transitions in docs/recognizers.md
/// § Transform.
///
/// The fingers' movement is folded in step by step: at every frame's end, and whenever a
/// finger joins or leaves, the similarity that best carries the fingers from where they were
/// at the last step to where they are now (least squares: the centroid's movement, then the
/// scale and turn of the fingers around it) is composed into the gesture's matrix, and every
/// finger's place becomes the next step's start. A finger joining or leaving therefore changes
/// nothing reported: translation, scale and rotation go on from where they were. With one
/// finger the step is a pure translation. The rules for how many fingers count are the pan's
/// (``PanRecognizer``): before it began, movement counts only while the number of fingers is
/// within `minimumTouches…maximumTouches`, and it begins at the end of the first such frame in
/// which the translation is longer than `slop`, the scale differs from 1 by at least
/// `minimumScaleChange` or the rotation reaches `minimumRotation`; once begun, fingers beyond
/// `maximumTouches` are held but ignored, with fewer than `minimumTouches` down nothing changes
/// until enough are down again, all fingers of the gesture up ends it and a cancelled one
/// cancels it.
struct TransformRecognizer: FinishingMachine, Sendable {
    /// Where the machine is; each case carries only what is valid in it.
    enum State: Sendable {
        /// No finger yet.
        case ready
        /// Fingers down, not yet moved far enough (or not the right number of them).
        case possible
        /// Began; `.changed` at the end of a frame in which a finger of the gesture moved or
        /// the values differ.
        case began
        /// Ended, cancelled or failed: ignores inputs until `reset()`.
        case finished
    }

    /// Which numbers of fingers move the gesture: any in range before it began, at least the
    /// minimum after.
    private enum Gate { case inRange, atLeastMinimum }

    /// A finger of the gesture and where it was at the last step.
    private struct Anchor: Sendable {
        var id: TouchID
        var point: Point
    }

    let minimumTouches: Int
    let maximumTouches: Int
    let slop: Double
    let minimumScaleChange: Double
    let minimumRotation: Double

    var state: State = .ready
    static var finished: State { .finished }
    var touches: RecognizerTouches
    /// The gesture so far, from the fingers' places when they landed to now.
    private var transform = AffineMatrix.identity
    private var translation = Point.zero
    private var scale = 1.0
    private var rotation = 0.0
    /// The fingers counted at the last step, where they were then; room for every finger is
    /// reserved once, so a step allocates nothing.
    private var anchors: [Anchor]
    private var tracker = VelocityTracker()
    /// Scale in `x`, rotation in `y`: their rates per second.
    private var turnTracker = VelocityTracker()
    /// The fingers of the gesture that lifted in the current frame while others stayed down:
    /// where they lifted (summed) and how many, for the final location.
    private var liftedInFrame = (sum: Point.zero, count: 0)
    private(set) var values = GestureValues()
    /// Impossible inputs ignored so far; kept across `reset()`.
    var anomalies = 0
    /// Why it last failed or was cancelled (docs/recognizers.md § Why a recognizer failed).
    var failure: FailureReason?

    /// A machine with the parameters in force (``parameterKeys``).
    init(resolved p: ResolvedParameters, context: RecognizerContext) {
        minimumTouches = max(1, p.count("minimumTouches"))
        maximumTouches = max(minimumTouches, p.count("maximumTouches"))
        slop = p.number("slop")
        minimumScaleChange = p.number("minimumScaleChange")
        minimumRotation = p.number("minimumRotation")
        touches = RecognizerTouches(capacity: LayoutLimits.touches.upperBound + 1)
        anchors = []
        anchors.reserveCapacity(LayoutLimits.touches.upperBound + 1)
    }

    /// A move only updates the touch table: movement is folded in at the frame's end.
    static var judgesMoves: Bool { false }

    /// Transforms never wait for time.
    var deadline: Timestamp? { nil }

    /// Ended, cancelled or failed: the arena resets it once its touches have ended.
    var isFinished: Bool { if case .finished = state { true } else { false } }

    /// Back to `possible`, forgetting every touch and sample.
    mutating func reset() {
        state = .ready
        touches.removeAll()
        restart()
        liftedInFrame = (.zero, 0)
        values = GestureValues()
    }

    mutating func transition(_ input: RecognizerInput) -> RecognizerVerdict {
        switch (state, input) {
        case (.ready, .touchBegan):
            restart()
            rebase(excluding: nil)
            state = .possible
            return .none
        case (.ready, .touchMoved), (.ready, .touchEnded), (.ready, .touchCancelled):
            return .none // unreachable: accepts() rejects touches it never saw
        case (.ready, .frameEnd), (.ready, .deadline):
            return .none

        case (.possible, .touchBegan(let s)):
            fold(excluding: s.touch, gate: .inRange)
            rebase(excluding: nil)
            return .none
        case (.possible, .touchMoved), (.possible, .deadline):
            return .none // folded in at the frame's end
        case (.possible, .touchEnded(let s)):
            if touches.isIgnored(s.touch) { return .none }
            fold(excluding: nil, gate: .inRange)
            if touches.participatingCount(excluding: s.touch) == 0 {
                return fail(FailureReason(.liftedBeforeBegan, measured: RecognizerMath.length(translation), limit: slop))
            }
            rebase(excluding: s.touch)
            return .none
        case (.possible, .touchCancelled(let s)):
            return touches.isIgnored(s.touch) ? .none : fail(.touchCancelled)
        case (.possible, .frameEnd(let t)):
            fold(excluding: nil, gate: .inRange)
            track(at: t)
            guard inRange(touches.participatingCount()), passedThreshold() else { return .none }
            values = makeValues(location: touches.centroid(), at: t)
            state = .began
            return .began

        case (.began, .touchBegan(let s)):
            if touches.participatingCount(excluding: s.touch) >= maximumTouches {
                touches.ignore(s.touch)
                return .none
            }
            fold(excluding: s.touch, gate: .atLeastMinimum)
            rebase(excluding: nil)
            return .none
        case (.began, .touchMoved), (.began, .deadline):
            return .none // folded in at the frame's end
        case (.began, .touchEnded(let s)):
            if touches.isIgnored(s.touch) { return .none }
            let before = (translation, scale, rotation)
            fold(excluding: nil, gate: .atLeastMinimum)
            if touches.participatingCount(excluding: s.touch) > 0 {
                rebase(excluding: s.touch)
                liftedInFrame = (liftedInFrame.sum + s.location, liftedInFrame.count + 1)
                return .none
            }
            // The lift is a sample only if the fingers moved with it: fingers that rest before
            // lifting must not look as if they were still moving.
            if before != (translation, scale, rotation) { track(at: s.time) }
            let n = Double(liftedInFrame.count + 1)
            let location = Point(x: (liftedInFrame.sum.x + s.location.x) / n, y: (liftedInFrame.sum.y + s.location.y) / n)
            values = makeValues(location: location, at: s.time)
            state = .finished
            return .ended
        case (.began, .touchCancelled(let s)):
            if touches.isIgnored(s.touch) { return .none }
            return cancel()
        case (.began, .frameEnd(let t)):
            liftedInFrame = (.zero, 0)
            fold(excluding: nil, gate: .atLeastMinimum)
            // Fewer than the minimum down: the gesture holds still until enough are down again.
            guard touches.participatingCount() >= minimumTouches else { return .none }
            track(at: t)
            let location = touches.centroid()
            guard touches.gestureMovedInFrame || location != values.location || translation != values.translation
                    || scale != values.scale || rotation != values.rotation else { return .none }
            values = makeValues(location: location, at: t)
            return .changed

        case (.finished, _):
            return .none
        }
    }

    /// Back to no movement at all: the start of a new gesture.
    private mutating func restart() {
        transform = .identity
        translation = .zero
        scale = 1
        rotation = 0
        anchors.removeAll(keepingCapacity: true)
        tracker.clear()
        turnTracker.clear()
    }

    /// Every finger of the gesture but `excluded` (one about to leave), where it is now: the
    /// next step starts here.
    private mutating func rebase(excluding excluded: TouchID?) {
        anchors.removeAll(keepingCapacity: true)
        for entry in touches.entries where !entry.ignored && entry.id != excluded {
            anchors.append(Anchor(id: entry.id, point: entry.location))
        }
    }

    /// Composes the step since the last one — the fingers of the last step but `excluded` (one
    /// that just joined, which has no last place), from their anchors to where they are now —
    /// into the gesture, if their number passes `gate`; the anchors move to the fingers' places
    /// either way.
    private mutating func fold(excluding excluded: TouchID?, gate: Gate) {
        var count = 0
        var from = Point.zero, to = Point.zero
        for i in anchors.indices {
            guard anchors[i].id != excluded, let now = touches.entry(anchors[i].id)?.location else { continue }
            from = from + anchors[i].point
            to = to + now
            count += 1
        }
        guard count > 0 else { return }
        let counts = switch gate {
        case .inRange: inRange(count)
        case .atLeastMinimum: count >= minimumTouches
        }
        if counts {
            let n = Double(count)
            let fromCentroid = Point(x: from.x / n, y: from.y / n)
            let toCentroid = Point(x: to.x / n, y: to.y / n)
            // The step's similarity by least squares, as the complex number a + bi that carries
            // each finger's offset from the centroid p onto its offset now q:
            // a + bi = Σ conj(p)·q / Σ|p|². One finger, or fingers on one point, turn nothing.
            var spread = 0.0, spreadNow = 0.0, a = 0.0, b = 0.0
            for i in anchors.indices {
                guard anchors[i].id != excluded, let now = touches.entry(anchors[i].id)?.location else { continue }
                let p = anchors[i].point - fromCentroid, q = now - toCentroid
                spread += p.x * p.x + p.y * p.y
                spreadNow += q.x * q.x + q.y * q.y
                a += p.x * q.x + p.y * q.y
                b += p.x * q.y - p.y * q.x
            }
            var step = AffineMatrix(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)
            if spread > 0 && spreadNow > 0 && (a != 0 || b != 0) {
                step.a = a / spread
                step.b = b / spread
                step.c = -step.b
                step.d = step.a
                scale *= RecognizerMath.length(Point(x: step.a, y: step.b))
                rotation += RecognizerMath.atan2(step.b, step.a)
            }
            // Turn and scale around the old centroid, then carry it onto the new one.
            step.tx = toCentroid.x - (step.a * fromCentroid.x + step.c * fromCentroid.y)
            step.ty = toCentroid.y - (step.b * fromCentroid.x + step.d * fromCentroid.y)
            transform = step.concatenating(after: transform)
            translation = translation + (toCentroid - fromCentroid)
        }
        for i in anchors.indices {
            if let now = touches.entry(anchors[i].id)?.location { anchors[i].point = now }
        }
    }

    private mutating func track(at time: Timestamp) {
        tracker.add(translation, at: time)
        turnTracker.add(Point(x: scale, y: rotation), at: time)
    }

    private func inRange(_ count: Int) -> Bool {
        count >= minimumTouches && count <= maximumTouches
    }

    private func passedThreshold() -> Bool {
        RecognizerMath.length(translation) > slop || abs(scale - 1) >= minimumScaleChange
            || abs(rotation) >= minimumRotation
    }

    private func makeValues(location: Point, at time: Timestamp) -> GestureValues {
        var values = GestureValues()
        values.location = location
        values.translation = translation
        values.velocity = tracker.velocity(at: time)
        values.scale = scale
        values.rotation = rotation
        let turning = turnTracker.velocity(at: time)
        values.scaleVelocity = turning.x
        values.rotationVelocity = turning.y
        values.matrix = transform
        return values
    }
}

extension GestureValues {
    /// transform: the matrix that carries the gesture's fingers from where they landed to
    /// where they are (translation, scale and rotation in one); a transform's own value,
    /// kept in ``own`` (numbers 0 to 5).
    public var matrix: AffineMatrix? {
        get {
            guard let a = own[0], let b = own[1], let c = own[2], let d = own[3], let tx = own[4], let ty = own[5] else {
                return nil
            }
            return AffineMatrix(a: a, b: b, c: c, d: d, tx: tx, ty: ty)
        }
        set {
            own[0] = newValue?.a
            own[1] = newValue?.b
            own[2] = newValue?.c
            own[3] = newValue?.d
            own[4] = newValue?.tx
            own[5] = newValue?.ty
        }
    }
}

/// A 2-D affine matrix `[a, b, c, d, tx, ty]` as CSS `matrix()` and CGAffineTransform write
/// it: a point (x, y) goes to (a·x + c·y + tx, b·x + d·y + ty), in screen points.
public struct AffineMatrix: Hashable, Sendable {
    public var a: Double
    public var b: Double
    public var c: Double
    public var d: Double
    public var tx: Double
    public var ty: Double

    public init(a: Double, b: Double, c: Double, d: Double, tx: Double, ty: Double) {
        self.a = a
        self.b = b
        self.c = c
        self.d = d
        self.tx = tx
        self.ty = ty
    }

    public static let identity = AffineMatrix(a: 1, b: 0, c: 0, d: 1, tx: 0, ty: 0)

    /// Where the matrix takes `point`.
    public func applied(to point: Point) -> Point {
        Point(x: a * point.x + c * point.y + tx, y: b * point.x + d * point.y + ty)
    }

    /// This matrix applied after `first`: `first`, then `self`.
    func concatenating(after first: AffineMatrix) -> AffineMatrix {
        AffineMatrix(a: a * first.a + c * first.b, b: b * first.a + d * first.b,
                     c: a * first.c + c * first.d, d: b * first.c + d * first.d,
                     tx: a * first.tx + c * first.ty + tx, ty: b * first.tx + d * first.ty + ty)
    }
}

/// `transform`: ``TransformRecognizer``.
extension RecognizerKind { public static let transform = RecognizerKind(TransformRecognizer.self) }

extension TransformRecognizer: RecognizerKindMachine {
    static var quotedName: StaticString { #""transform""# }

    /// The shared values with both rates named apart (a pinch's or rotation's single rate is
    /// `velocity`, as UIKit names it; a transform has both), then the matrix.
    static func encodeValues(_ v: GestureValues, _ out: inout JSONWriter.Cursor) {
        encodeSharedValues(v, namingRates: true, &out)
        if let m = v.matrix {
            out.raw(#","matrix":["#); out.number(m.a)
            out.raw(","); out.number(m.b)
            out.raw(","); out.number(m.c)
            out.raw(","); out.number(m.d)
            out.raw(","); out.number(m.tx)
            out.raw(","); out.number(m.ty)
            out.raw("]")
        }
        encodeDirection(v, &out)
    }

    /// The second rate's key and the matrix: 7 numbers and 48 bytes of keys and commas.
    static var ownValuesLength: Int { 7 * JSONWriter.maximumNumberLength + 48 }

    static var parameterKeys: [ParameterKey] {
        [.init("minimumTouches", .count(LayoutLimits.touches, noun: "touches")),
         .init("maximumTouches", .count(LayoutLimits.touches, noun: "touches")), .init("slop", .points),
         .init("minimumScaleChange", .ratio), .init("minimumRotation", .radians)]
    }

    /// One finger drags, as a pan (1 to no maximum, UIPanGestureRecognizer's counts); the
    /// thresholds to begin are the pan's slop (10 pt), the pinch's 5 % and the rotation's
    /// 0.1 rad, whichever is passed first.
    static var defaults: RecognizerParameters {
        ["minimumTouches": 1, "maximumTouches": .count(Int.max), "slop": 10.0, "minimumScaleChange": 0.05,
         "minimumRotation": 0.1]
    }

    /// A transform does not judge moves: a move only updates its touch table.
    @inline(__always)
    mutating func quietMove(_ sample: TouchSample, anomalies: inout Int) -> Bool {
        touches.moveQuietly(sample, anomalies: &self.anomalies, reported: &anomalies)
    }
}
