@testable import GestureCore

/// Raw events through a routing pipeline on a virtual timeline (milliseconds), logging two
/// things as readable lines: the virtual panel's events (`30 ABS_MT_TRACKING_ID 7`, `30 SYN`:
/// the time in milliseconds, the kernel's name, the value) and the engine's route decisions
/// (`#1 began held`, `#1 forwarded`), so tests assert both whole and in order.
struct RoutingScript {
    var pipeline: GesturePipeline
    private(set) var now: Int64 = 0
    private var panel: [String] = []
    private var routes: [String] = []
    private var deliveries: [String] = []
    /// The records of each step, read back as values.
    private let collector = RecordCollector()

    /// A 1000 × 1000 point screen on ``DeviceFixtures/square`` (device values 0…999).
    init(_ root: ViewSpec, routing: RoutingRule = .claim, device: DeviceDescription = DeviceFixtures.square,
         overrides: DeviceOverrides = .none) throws {
        pipeline = GesturePipeline(setup: PipelineSetup(tree: try ViewTree(root: root), settings: GestureSettings(),
                                                        screen: ScreenGeometry(width: 1000, height: 1000),
                                                        device: overrides,
                                                        routing: RoutingConfiguration(defaultRule: routing)))
        try pipeline.addDevice(device, message: "test device", at: .zero)
        collect()
    }

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

    mutating func down(slot: Int32, id: Int32, _ x: Int32, _ y: Int32, after milliseconds: Int64 = 10) {
        frame([EventScript.slot(slot), EventScript.id(id), EventScript.x(x), EventScript.y(y)], after: milliseconds)
    }

    mutating func move(slot: Int32, _ x: Int32, _ y: Int32, after milliseconds: Int64 = 10) {
        frame([EventScript.slot(slot), EventScript.x(x), EventScript.y(y)], after: milliseconds)
    }

    mutating func up(slot: Int32, after milliseconds: Int64 = 10) {
        frame([EventScript.slot(slot), EventScript.id(-1)], after: milliseconds)
    }

    mutating func wait(_ milliseconds: Int64) {
        now += milliseconds
        pipeline.advance(to: Timestamp(microseconds: now * 1000))
        collect()
    }

    mutating func resynchronise(_ snapshot: DeviceSnapshot?, after milliseconds: Int64 = 10) {
        now += milliseconds
        pipeline.resynchronise(with: snapshot, at: Timestamp(microseconds: now * 1000))
        collect()
    }

    mutating func removeDevice(after milliseconds: Int64 = 10) {
        now += milliseconds
        pipeline.removeDevice(message: "unplugged", at: Timestamp(microseconds: now * 1000))
        collect()
    }

    /// The virtual panel's events so far, cleared.
    mutating func takePanel() -> [String] {
        defer { panel.removeAll() }
        return panel
    }

    /// The route decisions so far, cleared.
    mutating func takeRoutes() -> [String] {
        defer { routes.removeAll() }
        return routes
    }

    /// Each delivered touch as `phase view #id route`, cleared.
    mutating func takeDeliveries() -> [String] {
        defer { deliveries.removeAll() }
        return deliveries
    }

    private mutating func collect() {
        collector.consume(pipeline.records)
        pipeline.removeRecords()
        defer { collector.removeAll() }
        for event in collector.panel { panel.append(Self.describe(event)) }
        for change in collector.routeChanges { routes.append(change.description) }
        for event in collector.events {
            guard case .engine(.touches(let e)) = event else { continue }
            for touch in e.touches {
                deliveries.append("\(e.phase.rawValue) \(e.tree.id(of: e.view)) #\(touch.id) \(touch.route?.name ?? "-")")
            }
        }
    }

    static func describe(_ event: RawEvent) -> String {
        let milliseconds = event.time.microseconds / 1000
        let name: String
        switch event.type {
        case EventType.syn: return "\(milliseconds) SYN"
        case EventType.abs: name = AbsCode.name(event.code)
        case EventType.key: name = KeyCode.name(event.code)
        case EventType.msc: name = event.code == MscCode.timestamp ? "MSC_TIMESTAMP" : "MSC_\(event.code)"
        default: name = "\(event.type):\(event.code)"
        }
        return "\(milliseconds) \(name) \(event.value)"
    }
}
