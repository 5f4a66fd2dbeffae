@testable import GestureCore

/// A touch script on a virtual timeline (STYLE rule 10): fingers go down, move, lift and wait;
/// every resolved event is logged as one readable line so tests assert the whole ordered log.
struct TouchScript {
    var engine: Engine
    /// Milliseconds on the virtual timeline.
    private(set) var now: Int64 = 0
    private(set) var log: [String] = []
    private var events: [EngineEvent] = []
    /// Whether gesture lines end with the gesture's location, `@x,y`.
    var showsLocations = false

    init(_ root: ViewSpec, settings: GestureSettings = GestureSettings(), tracing: Bool = false) {
        engine = Engine(tree: try! ViewTree(root: root), settings: settings, tracing: tracing)
    }

    mutating func frame(_ changes: TouchChange...) {
        frame(changes)
    }

    mutating func frame(_ changes: [TouchChange]) {
        run(TouchFrame(time: Timestamp(microseconds: now * 1000), changes: changes))
    }

    mutating func down(_ finger: Int, _ x: Double, _ y: Double) { frame(.down(ContactID(finger), Point(x: x, y: y))) }
    mutating func move(_ finger: Int, _ x: Double, _ y: Double) { frame(.move(ContactID(finger), Point(x: x, y: y))) }
    mutating func up(_ finger: Int) { frame(.up(ContactID(finger))) }
    mutating func cancel(_ finger: Int) { frame(.cancel(ContactID(finger))) }

    /// Lets `milliseconds` pass, firing the engine's deadlines on the way.
    mutating func wait(_ milliseconds: Int64) {
        now += milliseconds
        events.removeAll()
        engine.advance(to: Timestamp(microseconds: now * 1000), into: &events)
        note(events)
    }

    /// Replaces the layout now, between two frames (`layout.set`, `view.update`).
    mutating func replaceLayout(_ tree: ViewTree) {
        events.removeAll()
        engine.replaceLayout(tree, at: Timestamp(microseconds: now * 1000), into: &events)
        note(events)
    }

    /// Every failure and cancellation so far with its reason: "<recognizer> <state> <cause>
    /// [by <recognizer>]" (docs/protocol.md § Why a recognizer failed).
    private(set) var reasons: [String] = []

    private mutating func note(_ events: [EngineEvent]) {
        log += events.map { Self.describe($0, locations: showsLocations) }
        for case .gesture(let e) in events {
            guard let failure = e.failure else { continue }
            reasons.append("\(e.recognizer) \(e.state.rawValue) \(failure.reason.cause.rawValue)" + (failure.by.map { " by " + $0 } ?? ""))
        }
    }

    /// Returns the log so far and clears it.
    mutating func take() -> [String] {
        defer { log.removeAll() }
        return log
    }

    private mutating func run(_ frame: TouchFrame) {
        events.removeAll()
        engine.process(frame, into: &events)
        note(events)
    }

    static func describe(_ event: EngineEvent) -> String {
        describe(event, locations: false)
    }

    static func describe(_ event: EngineEvent, locations: Bool) -> String {
        switch event {
        case .touches(let e):
            let responders = e.responders.map { e.tree.id(of: $0) }.joined(separator: " > ")
            let touches = e.touches.map { "#\($0.id)" }.joined(separator: " ")
            return "\(e.phase.rawValue) \(responders): \(touches)"
        case .gesture(let e):
            var line = "\(e.recognizer) \(e.state.rawValue)"
            if let taps = e.values.taps { line += " taps=\(taps)" }
            if let direction = e.values.direction { line += " \(direction.rawValue)" }
            if locations { line += " @\(Self.number(e.values.location.x)),\(Self.number(e.values.location.y))" }
            return line
        case .control(let e):
            return "\(e.tree.id(of: e.view)) \(e.event.rawValue) #\(e.touch)"
        case .hitTest(let e):
            return "hitTest #\(e.touch.map(String.init(describing:)) ?? "-") => \(e.view.map { e.tree.id(of: $0) } ?? "none")"
        }
    }

    /// A coordinate as a test reads it: whole numbers without a fraction.
    static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e9 ? String(Int(value)) : String(value)
    }
}

/// Shorthands for building layouts in tests.
func view(_ id: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ subviews: [ViewSpec] = [],
          configure: (inout ViewSpec) -> Void = { _ in }) -> ViewSpec {
    var spec = ViewSpec(id: id, frame: Rect(x: x, y: y, width: w, height: h), subviews: subviews)
    configure(&spec)
    return spec
}

func control(_ id: String, _ x: Double, _ y: Double, _ w: Double, _ h: Double, _ subviews: [ViewSpec] = [],
             configure: (inout ViewSpec) -> Void = { _ in }) -> ViewSpec {
    view(id, x, y, w, h, subviews) { $0.kind = .control; configure(&$0) }
}

/// A recognizer for test layouts.
func recognizer(_ id: String, _ kind: RecognizerKind, requireToFail: [String] = [], simultaneousWith: [String] = [],
                configure: (inout RecognizerSpec) -> Void = { _ in }) -> RecognizerSpec {
    var spec = RecognizerSpec(id: id, kind: kind, requireToFail: requireToFail, simultaneousWith: simultaneousWith)
    configure(&spec)
    return spec
}

extension TouchScript {
    /// Moves a finger in `steps` equal steps, `interval` milliseconds apart.
    mutating func drag(_ finger: Int, from start: Point, to end: Point, steps: Int, interval: Int64) {
        for step in 1...steps {
            wait(interval)
            let t = Double(step) / Double(steps)
            move(finger, start.x + (end.x - start.x) * t, start.y + (end.y - start.y) * t)
        }
    }
}
