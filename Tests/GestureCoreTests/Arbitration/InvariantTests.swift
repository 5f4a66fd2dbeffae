import Testing
@testable import GestureCore

/// A small deterministic random generator (SplitMix64), so every run checks the same cases.
struct SeededRandom: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// Checks the engine's invariants over an event stream (issue 4): every touch that begins at a
/// view ends there exactly once and gets nothing after; every recognizer that begins ends or
/// is cancelled exactly once; no two recognizers own one touch unless they may be simultaneous.
struct InvariantChecker {
    private var deliveryState: [TouchID: TouchPhase] = [:]
    private var recognizerState: [String: GestureState] = [:]
    private var owners: [TouchID: [String]] = [:]
    private(set) var violations: [String] = []
    let simultaneous: (String, String) -> Bool

    init(simultaneous: @escaping (String, String) -> Bool) {
        self.simultaneous = simultaneous
    }

    mutating func check(_ event: EngineEvent) {
        switch event {
        case .touches(let e):
            for touch in e.touches {
                let previous = deliveryState[touch.id]
                switch (previous, e.phase) {
                case (nil, .began), (.began, .moved), (.moved, .moved), (.began, .ended), (.moved, .ended),
                     (.began, .cancelled), (.moved, .cancelled):
                    deliveryState[touch.id] = e.phase
                default:
                    violations.append("touch \(touch.id): \(e.phase) after \(previous.map(\.rawValue) ?? "nothing")")
                }
            }
        case .gesture(let e):
            let previous = recognizerState[e.recognizer] ?? .possible
            let ok: Bool = switch (previous, e.state) {
            case (.possible, .began), (.possible, .recognized), (.possible, .failed),
                 (.began, .changed), (.changed, .changed), (.began, .ended), (.changed, .ended),
                 (.began, .cancelled), (.changed, .cancelled): true
            // A recognizer resets to possible after a terminal state once its touches ended.
            case (.recognized, .began), (.recognized, .recognized), (.recognized, .failed),
                 (.ended, .began), (.ended, .recognized), (.ended, .failed),
                 (.cancelled, .began), (.cancelled, .recognized), (.cancelled, .failed),
                 (.failed, .began), (.failed, .recognized), (.failed, .failed): true
            default: false
            }
            if !ok { violations.append("recognizer \(e.recognizer): \(e.state) after \(previous)") }
            recognizerState[e.recognizer] = e.state
            if e.state == .began || e.state == .recognized {
                // Every recognizer that ever began or recognized with a touch, over the touch's
                // whole life: any two of them must be allowed to be simultaneous.
                for touch in e.touches {
                    for other in owners[touch, default: []] where other != e.recognizer
                        && !simultaneous(e.recognizer, other) {
                        violations.append("\(e.recognizer) and \(other) both recognized touch \(touch)")
                    }
                    owners[touch, default: []].append(e.recognizer)
                }
            }
        case .control, .hitTest:
            break
        }
    }

    /// After the input ended: nothing may be left open.
    mutating func finish() {
        for (touch, phase) in deliveryState where phase == .began || phase == .moved {
            violations.append("touch \(touch) never ended at its view")
        }
        for (recognizer, state) in recognizerState where state == .began || state == .changed {
            violations.append("recognizer \(recognizer) began and never ended")
        }
    }
}

@Suite("Engine invariants over random layouts and touches")
struct InvariantTests {
    static func randomLayout(_ rng: inout SeededRandom, prefix: String = "") -> ViewSpec {
        var recognizerCount = 0
        var ids: [String] = []
        func randomRecognizers() -> [RecognizerSpec] {
            (0..<Int.random(in: 0...2, using: &rng)).map { _ in
                recognizerCount += 1
                let id = "\(prefix)r\(recognizerCount)"
                var spec = RecognizerSpec(id: id, kind: RecognizerKind.allCases.randomElement(using: &rng)!)
                spec.cancelsTouchesInView = Bool.random(using: &rng)
                spec.delaysTouchesBegan = Int.random(in: 0..<4, using: &rng) == 0
                spec.delaysTouchesEnded = Bool.random(using: &rng)
                if spec.kind == .tap { spec.parameters.taps = Int.random(in: 1...2, using: &rng) }
                if !ids.isEmpty && Bool.random(using: &rng) { spec.requireToFail = [ids.randomElement(using: &rng)!] }
                if !ids.isEmpty && Bool.random(using: &rng) { spec.simultaneousWith = [ids.randomElement(using: &rng)!] }
                ids.append(id)
                return spec
            }
        }
        var viewCount = 0
        func randomView(depth: Int, width: Double, height: Double) -> ViewSpec {
            viewCount += 1
            let w = Double.random(in: width * 0.3...width, using: &rng).rounded()
            let h = Double.random(in: height * 0.3...height, using: &rng).rounded()
            var spec = ViewSpec(id: "v\(viewCount)",
                                frame: Rect(x: Double.random(in: 0...(width - w), using: &rng).rounded(),
                                            y: Double.random(in: 0...(height - h), using: &rng).rounded(),
                                            width: w, height: h))
            spec.kind = Int.random(in: 0..<4, using: &rng) == 0 ? .control : .view
            spec.multipleTouchEnabled = Bool.random(using: &rng)
            spec.exclusiveTouch = Int.random(in: 0..<6, using: &rng) == 0
            spec.passThrough = Int.random(in: 0..<6, using: &rng) == 0
            spec.recognizers = randomRecognizers()
            if depth < 3 {
                spec.subviews = (0..<Int.random(in: 0...3, using: &rng)).map { _ in
                    randomView(depth: depth + 1, width: w, height: h)
                }
            }
            return spec
        }
        var root = randomView(depth: 0, width: 800, height: 800)
        root.frame = Rect(x: 0, y: 0, width: 800, height: 800)
        return root
    }

    @Test(arguments: 0..<200)
    func randomSequencesKeepTheInvariants(seed: Int) throws {
        var rng = SeededRandom(seed: UInt64(seed) &* 7919 &+ 17)
        let layout = Self.randomLayout(&rng)
        let tree = try ViewTree(root: layout)
        var engine = Engine(tree: tree, tracing: Bool.random(using: &rng))
        var pairs: Set<[String]> = []
        func allow(_ tree: ViewTree) {
            for entry in tree.recognizers { for other in entry.spec.simultaneousWith { pairs.insert([entry.spec.id, other].sorted()) } }
        }
        allow(tree)
        var layouts = 0
        var events: [EngineEvent] = []
        var now: Int64 = 0
        var down: [Int: Point] = [:]
        for _ in 0..<Int.random(in: 5...60, using: &rng) {
            now += Int64.random(in: 0...300, using: &rng) * 1000
            var changes: [TouchChange] = []
            for finger in 0..<3 {
                switch (down[finger], Int.random(in: 0..<5, using: &rng)) {
                case (nil, 0), (nil, 1):
                    let point = Point(x: Double.random(in: 0..<800, using: &rng), y: Double.random(in: 0..<800, using: &rng))
                    down[finger] = point
                    changes.append(.down(ContactID(finger), point))
                case (let point?, 0), (let point?, 1), (let point?, 2):
                    let moved = Point(x: point.x + Double.random(in: -60...60, using: &rng),
                                      y: point.y + Double.random(in: -60...60, using: &rng))
                    down[finger] = moved
                    changes.append(.move(ContactID(finger), moved))
                case (_?, 3):
                    down[finger] = nil
                    changes.append(Int.random(in: 0..<8, using: &rng) == 0 ? .cancel(ContactID(finger)) : .up(ContactID(finger)))
                default:
                    break
                }
            }
            if Int.random(in: 0..<10, using: &rng) == 0 {
                layouts += 1
                let replacement = try ViewTree(root: Self.randomLayout(&rng, prefix: "L\(layouts)."))
                allow(replacement)
                engine.replaceLayout(replacement)
            }
            engine.process(TouchFrame(time: Timestamp(microseconds: now), changes: changes), into: &events)
        }
        engine.cancelAll(at: Timestamp(microseconds: now + 1000), into: &events)
        while let deadline = engine.nextDeadline { engine.advance(to: deadline, into: &events) }
        var checker = InvariantChecker { a, b in pairs.contains([a, b].sorted()) }
        for event in events { checker.check(event) }
        checker.finish()
        #expect(checker.violations == [], "seed \(seed)")
        #expect(engine.activeTouchCount == 0)
    }
}
