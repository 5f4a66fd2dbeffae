@testable import GestureCore

/// Raw events through the whole pipeline on a virtual timeline: frames of device events,
/// screen changes and waits, with every event of the stream logged as one readable line
/// (`began left: #1 (100, 250)`, `screen 180 1000x500`, `warning: …`), so tests assert the
/// whole ordered log, as ``TouchScript`` does for the engine.
struct PipelineScript {
    var pipeline: GesturePipeline
    /// Milliseconds on the virtual timeline.
    private(set) var now: Int64 = 0
    private var log: [String] = []
    /// The records of each step, read back as values.
    private let collector = RecordCollector()

    init(_ root: ViewSpec, screen: ScreenGeometry, device: DeviceDescription = DeviceFixtures.square,
         overrides: DeviceOverrides = .none, settings: GestureSettings = GestureSettings(),
         udevProperties: [String: String]? = nil) throws {
        pipeline = GesturePipeline(setup: PipelineSetup(tree: try ViewTree(root: root), settings: settings, screen: screen,
                                                        device: overrides))
        try pipeline.addDevice(device, udevProperties: udevProperties, message: "test device", at: .zero)
        collect()
    }

    /// One frame of `events`, `after` milliseconds after the previous step.
    mutating func frame(_ events: [EventScript.Event], after milliseconds: Int64 = 10) {
        now += milliseconds
        var script = EventScript()
        script.frame(now, events)
        for event in script.events {
            if let deadline = pipeline.nextDeadline, deadline < event.time { pipeline.advance(to: deadline) }
            pipeline.feed(event)
        }
        collect()
    }

    /// Finger `id` (a tracking id) lands in `slot` at device values (x, y).
    mutating func down(slot: Int32, id: Int32, _ x: Int32, _ y: Int32) {
        frame([EventScript.slot(slot), EventScript.id(id), EventScript.x(x), EventScript.y(y)])
    }

    mutating func move(slot: Int32, _ x: Int32, _ y: Int32) {
        frame([EventScript.slot(slot), EventScript.x(x), EventScript.y(y)])
    }

    mutating func up(slot: Int32) {
        frame([EventScript.slot(slot), EventScript.id(-1)])
    }

    /// `screen.set` between two frames.
    mutating func setScreen(_ rotation: ScreenRotation, _ width: Double, _ height: Double) {
        pipeline.setScreen(rotation: rotation, size: Size(width: width, height: height), message: "test",
                           at: Timestamp(microseconds: now * 1000))
        collect()
    }

    /// `layout.set` (or `view.update`) between two frames, announced as `revision`.
    mutating func replaceLayout(_ root: ViewSpec, revision: Int) throws {
        pipeline.replaceLayout(try ViewTree(root: root), revision: revision, hash: LayoutHash(of: root), message: "test",
                               at: Timestamp(microseconds: now * 1000))
        collect()
    }

    /// The device goes away 10 ms after the previous step.
    mutating func unplug() {
        now += 10
        pipeline.removeDevice(message: "unplugged", at: Timestamp(microseconds: now * 1000))
        collect()
    }

    /// Lets `milliseconds` pass, firing deadlines.
    mutating func wait(_ milliseconds: Int64) {
        now += milliseconds
        pipeline.advance(to: Timestamp(microseconds: now * 1000))
        collect()
    }

    /// The log so far, cleared.
    mutating func take() -> [String] {
        defer { log.removeAll() }
        return log
    }

    private mutating func collect() {
        collector.consume(pipeline.records)
        pipeline.removeRecords()
        log += collector.events.map(Self.describe)
        collector.removeAll()
    }

    static func describe(_ event: OutputEvent) -> String {
        func number(_ value: Double) -> String {
            value == value.rounded() ? String(Int(value)) : String((value * 100).rounded() / 100)
        }
        switch event {
        case .engine(.touches(let e)):
            let touches = e.touches.map { touch in
                let ended = touch.phase == .ended || touch.phase == .cancelled
                return "#\(touch.id)" + (ended ? "" : " (\(number(touch.location.x)), \(number(touch.location.y)))")
            }
            return "\(e.phase.rawValue) \(e.tree.id(of: e.view)): " + touches.joined(separator: " ")
        case .engine(let engineEvent):
            return TouchScript.describe(engineEvent)
        case .screen(_, let screen, _):
            return "screen \(screen.rotation.degrees) \(number(screen.size.width))x\(number(screen.size.height))"
        case .warning(_, let message):
            return "warning: \(message)"
        case .device(_, let action, _, let message):
            return "device \(action): \(message)"
        case .layout(_, let revision, _, _):
            return "layout \(revision)"
        case .contacts(let e):
            let contacts = e.contacts.map { contact in
                "#\(contact.id) \(contact.phase.rawValue) (\(number(contact.location.x)), \(number(contact.location.y)))"
                    + (contact.view.map { " \($0)" } ?? "") + (contact.recognizer.map { " taken by \($0)" } ?? "")
                    + (contact.route.map { " \($0.name)" } ?? "")
            }
            return "contacts: " + contacts.joined(separator: ", ")
        }
    }
}
