import Testing
import TestSupport
@testable import GestureCore


/// Checks the engine's invariants over an event stream (issues 4 and 10): every touch that
/// begins at a view ends there exactly once and gets nothing after; every recognizer that
/// begins ends or is cancelled exactly once; no two recognizers own one touch unless they may
/// be simultaneous; no control event comes from a touch once a gesture that cancels touches in
/// view has it (SPEC 5.2, 5.3).
struct InvariantChecker {
    private var deliveryState: [TouchID: TouchPhase] = [:]
    private var recognizerState: [String: GestureState] = [:]
    private var owners: [TouchID: [String]] = [:]
    /// Touches a recognizer that cancels touches in view has reported as its own.
    private var ownedByCancelling: [TouchID: String] = [:]
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
            // A recognizer is its id in its layout: a layout that keeps the ids (a view.update)
            // has recognizers of its own, which touches that begin later reach.
            let key = "\(e.recognizer) of layout \(ObjectIdentifier(e.tree).hashValue)"
            let previous = recognizerState[key] ?? .possible
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
            recognizerState[key] = e.state
            let cancels = e.tree.recognizers.first { $0.spec.id == e.recognizer }?.spec.cancelsTouchesInView ?? true
            if cancels && e.state != .failed && e.state != .cancelled {
                for touch in e.touches where ownedByCancelling[touch] == nil { ownedByCancelling[touch] = e.recognizer }
            }
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
        case .control(let e):
            if let owner = ownedByCancelling[e.touch] {
                violations.append("control event \(e.event) of touch \(e.touch) after \(owner) owned it")
            }
        case .hitTest:
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
    static func randomLayout(_ rng: inout SeededRandom, prefix: String = "", exclusiveTouch: Bool = true) -> ViewSpec {
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
                if spec.kind == .tap { spec.parameters["taps"] = .count(Int.random(in: 1...2, using: &rng)) }
                if spec.kind == .longPress { spec.parameters["taps"] = .count(Int.random(in: 0...1, using: &rng)) }
                // Some recognizers disabled: a layout replaced mid-gesture cancels or fails them.
                spec.enabled = Int.random(in: 0..<6, using: &rng) != 0
                if spec.kind == .tap || spec.kind == .swipe || spec.kind == .longPress {
                    spec.parameters["touches"] = Int.random(in: 0..<3, using: &rng) == 0 ? 2 : 1
                }
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
            spec.exclusiveTouch = exclusiveTouch && Int.random(in: 0..<6, using: &rng) == 0
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
        try Self.run(seed: seed, exclusiveTouch: true)
    }

    /// SPEC 5.2: a discrete recognizer requiring n fingers never recognizes while more than n
    /// fingers of its view (the view or its subviews) are down during its sequence. Exclusive
    /// views are left out: they drop touches from every recognizer, as UIKit drops them.
    @Test(arguments: 0..<200)
    func discreteRecognizersNeverRecognizeWithMoreFingersThanTheyRequire(seed: Int) throws {
        try Self.run(seed: seed &+ 100_000, exclusiveTouch: false)
    }

    /// One finger as the harness sees it: the engine numbers touches in the order they land.
    struct Finger {
        var id: TouchID
        var tree: ViewTree
        var view: ViewIndex?
        var beganFrame: Int
        var endedFrame: Int?
    }

    /// Violations of the finger-count rule by the `recognized` events of one frame.
    static func fingerCountViolations(_ events: ArraySlice<EngineEvent>, frame: Int, fingers: [Finger],
                                      settings: GestureSettings) -> [String] {
        var found: [String] = []
        for case .gesture(let e) in events where e.state == .recognized {
            guard let spec = e.tree.recognizers.first(where: { $0.spec.id == e.recognizer })?.spec,
                  let first = e.touches.min(),
                  let start = fingers.first(where: { $0.id == first })?.beganFrame else { continue }
            let required = settings.resolved(spec).values.count("touches") ?? 1
            let mine = fingers.filter { finger in
                finger.id >= first && finger.tree === e.tree
                    && finger.view.map { e.tree.isDescendant($0, of: e.view) } == true
            }
            for f in start..<frame {
                let down = mine.filter { $0.beganFrame <= f && ($0.endedFrame.map { $0 > f } ?? true) }.count
                if down > required {
                    found.append("\(e.recognizer) recognized with \(down) of its view's fingers down (requires \(required))")
                    break
                }
            }
        }
        return found
    }

    /// `layout` with each enabled recognizer disabled at random, one in three.
    static func disablingSome(of layout: ViewSpec, _ rng: inout SeededRandom) -> ViewSpec {
        var root = layout
        var stack: [WritableKeyPath<ViewSpec, ViewSpec>] = [\.self]
        while let path = stack.popLast() {
            for index in root[keyPath: path].recognizers.indices where Int.random(in: 0..<3, using: &rng) == 0 {
                root[keyPath: path].recognizers[index].enabled = false
            }
            for index in root[keyPath: path].subviews.indices { stack.append(path.appending(path: \.subviews[index])) }
        }
        return root
    }

    static func run(seed: Int, exclusiveTouch: Bool) throws {
        var rng = SeededRandom(seed: UInt64(seed) &* 7919 &+ 17)
        let layout = Self.randomLayout(&rng, exclusiveTouch: exclusiveTouch)
        var tree = try ViewTree(root: layout)
        var currentLayout = layout
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
        var fingers: [Finger] = []
        var fingerOfContact: [Int: Int] = [:]
        var countViolations: [String] = []
        for frame in 0..<Int.random(in: 5...60, using: &rng) {
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
                // Half the time the same layout with some recognizers disabled (a view.update of
                // `enabled`): those in the middle of a gesture are cancelled or fail.
                currentLayout = Bool.random(using: &rng)
                    ? Self.disablingSome(of: currentLayout, &rng)
                    : Self.randomLayout(&rng, prefix: "L\(layouts).", exclusiveTouch: exclusiveTouch)
                let replacement = try ViewTree(root: currentLayout)
                allow(replacement)
                engine.replaceLayout(replacement, at: Timestamp(microseconds: now), into: &events)
                tree = replacement
            }
            for change in changes {
                switch change {
                case .down(let contact, let point, _, _):
                    fingerOfContact[contact.rawValue] = fingers.count
                    fingers.append(Finger(id: TouchID(fingers.count + 1), tree: tree,
                                          view: HitTester.hitTest(tree, at: point), beganFrame: frame))
                case .up(let contact), .cancel(let contact):
                    if let index = fingerOfContact[contact.rawValue] { fingers[index].endedFrame = frame }
                case .move:
                    break
                }
            }
            let before = events.count
            engine.process(TouchFrame(time: Timestamp(microseconds: now), changes: changes), into: &events)
            if !exclusiveTouch {
                countViolations += Self.fingerCountViolations(events[before...], frame: frame, fingers: fingers,
                                                              settings: engine.settings)
            }
        }
        engine.cancelAll(at: Timestamp(microseconds: now + 1000), into: &events)
        while let deadline = engine.nextDeadline { engine.advance(to: deadline, into: &events) }
        var checker = InvariantChecker { a, b in pairs.contains([a, b].sorted()) }
        for event in events { checker.check(event) }
        checker.finish()
        #expect(checker.violations == [], "seed \(seed)")
        #expect(countViolations == [], "seed \(seed)")
        #expect(engine.recognizerAnomalies == 0, "seed \(seed): the arena gave a recognizer an impossible input")
        #expect(engine.activeTouchCount == 0)
    }
}
