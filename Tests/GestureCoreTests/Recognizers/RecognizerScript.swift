@testable import GestureCore

/// A virtual timeline that drives one recognizer the way the arena will: each step is one
/// input frame (its touch changes, then `.frameEnd`), and moving time forward first delivers
/// `.deadline` for every deadline the recognizer reported on the way. The log holds every
/// verdict other than `.none` as "<ms> <verdict>", so a test asserts the whole sequence.
struct RecognizerScript {
    /// One touch change of a frame; coordinates in screen points.
    enum Change {
        case down(Int, Double, Double)
        case move(Int, Double, Double)
        case up(Int, Double, Double)
        case cancel(Int, Double, Double)
    }

    var recognizer: AnyRecognizer
    private(set) var now = Timestamp.zero
    private(set) var log: [String] = []
    /// Off: the recognizer must notice overdue deadlines from later inputs by itself.
    var deliversDeadlines = true

    static let screen = Rect(x: 0, y: 0, width: 1000, height: 800)

    /// A recognizer of `kind` with `parameters` over the built-in defaults.
    init(_ kind: RecognizerKind, _ parameters: RecognizerParameters = RecognizerParameters(),
         screen: Rect = RecognizerScript.screen) {
        let resolved = GestureSettings().resolved(RecognizerSpec(id: "r", kind: kind, parameters: parameters))
        recognizer = AnyRecognizer(parameters: resolved, context: RecognizerContext(screen: screen))
    }

    var values: GestureValues { recognizer.values }

    /// Moves the timeline `ms` milliseconds on, delivering due deadlines at their own times.
    mutating func wait(_ ms: Double) {
        let target = now + TimeSpan(microseconds: Int64((ms * 1000).rounded()))
        while deliversDeadlines, let due = recognizer.deadline, due <= target {
            if due > now { now = due }
            send(.deadline(now))
            if recognizer.deadline == due { break } // not consumed: do not spin
        }
        now = target
    }

    /// One frame `ms` after the previous step: the changes in order, then `.frameEnd`.
    mutating func frame(after ms: Double = 0, _ changes: Change...) {
        wait(ms)
        for change in changes {
            switch change {
            case .down(let id, let x, let y): send(.touchBegan(sample(id, x, y)))
            case .move(let id, let x, let y): send(.touchMoved(sample(id, x, y)))
            case .up(let id, let x, let y): send(.touchEnded(sample(id, x, y)))
            case .cancel(let id, let x, let y): send(.touchCancelled(sample(id, x, y)))
            }
        }
        send(.frameEnd(now))
    }

    mutating func down(_ id: Int, _ x: Double, _ y: Double, after ms: Double = 0) { frame(after: ms, .down(id, x, y)) }
    mutating func move(_ id: Int, _ x: Double, _ y: Double, after ms: Double = 0) { frame(after: ms, .move(id, x, y)) }
    mutating func up(_ id: Int, _ x: Double, _ y: Double, after ms: Double = 0) { frame(after: ms, .up(id, x, y)) }
    mutating func cancel(_ id: Int, _ x: Double, _ y: Double, after ms: Double = 0) { frame(after: ms, .cancel(id, x, y)) }

    /// Gives one raw input and logs its verdict.
    @discardableResult
    mutating func send(_ input: RecognizerInput) -> RecognizerVerdict {
        let verdict = recognizer.handle(input)
        if verdict != .none { log.append("\(Self.milliseconds(now)) \(verdict)") }
        return verdict
    }

    private func sample(_ id: Int, _ x: Double, _ y: Double) -> TouchSample {
        TouchSample(touch: TouchID(id), location: Point(x: x, y: y), time: now)
    }

    static func milliseconds(_ t: Timestamp) -> String {
        t.microseconds % 1000 == 0 ? String(t.microseconds / 1000) : String(Double(t.microseconds) / 1000)
    }
}

/// `a` and `b` differ by at most `tolerance`.
func close(_ a: Double?, _ b: Double, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a - b) <= tolerance
}

func close(_ a: Point?, _ b: Point, _ tolerance: Double = 1e-9) -> Bool {
    guard let a else { return false }
    return abs(a.x - b.x) <= tolerance && abs(a.y - b.y) <= tolerance
}
