import GestureCore

/// What a client asked to receive (SPEC 9 `subscribe`). Filters combine with "and"; within a
/// filter any entry may match. `views` applies to events that name views (touches, gesture,
/// control, hitTest): one matches when its view or any responder does. `recognizers` applies to
/// gesture events. `device`, `layout` and `warning` events name neither and are chosen by
/// `kinds` alone.
public struct Subscription: Hashable, Sendable {
    /// The event types a subscription may name (SPEC 8).
    public static let knownKinds = ["touches", "gesture", "control", "hitTest", "device", "layout", "warning"]

    /// `nil`: every kind.
    public var kinds: Set<String>?
    /// `nil`: any view.
    public var views: [Glob]?
    /// `nil`: any recognizer.
    public var recognizers: [Glob]?
    /// Also `hitTest` events and `failed` gesture transitions (SPEC 8: emitted only when
    /// asked for). Asking for the `hitTest` kind asks for tracing too.
    public var trace: Bool

    public init(kinds: Set<String>? = nil, views: [Glob]? = nil, recognizers: [Glob]? = nil, trace: Bool = false) {
        self.kinds = kinds
        self.views = views
        self.recognizers = recognizers
        self.trace = trace || (kinds?.contains("hitTest") ?? false)
    }

    /// Whether an event with this summary goes to the subscriber. `traceAll`: the daemon runs
    /// with `--trace`, so every subscriber gets the trace-only events.
    public func matches(_ event: EventSummary, traceAll: Bool = false) -> Bool {
        if event.isTraceOnly && !trace && !traceAll { return false }
        if let kinds, !kinds.contains(event.kind) { return false }
        if let views, event.namesViews {
            guard event.views.contains(where: { view in views.contains { $0.matches(view) } }) else { return false }
        }
        if let recognizers, let recognizer = event.recognizer {
            guard recognizers.contains(where: { $0.matches(recognizer) }) else { return false }
        }
        return true
    }
}

/// What subscription filters look at in an event, worked out once per event for all clients.
public struct EventSummary: Sendable {
    public var kind: String
    /// The event's view and responders; empty for an event whose view is none (a hit test
    /// that found nothing).
    public var views: [String]
    /// True for the events that are about views, even when `views` is empty.
    public var namesViews: Bool
    public var recognizer: String?
    public var isTraceOnly: Bool

    public init(kind: String, views: [String] = [], namesViews: Bool = false, recognizer: String? = nil,
                isTraceOnly: Bool = false) {
        self.kind = kind
        self.views = views
        self.namesViews = namesViews
        self.recognizer = recognizer
        self.isTraceOnly = isTraceOnly
    }

    public init(_ event: OutputEvent) {
        switch event {
        case .engine(.touches(let e)):
            var views = [e.tree.id(of: e.view)]
            for responder in e.responders where responder != e.view { views.append(e.tree.id(of: responder)) }
            self.init(kind: "touches", views: views, namesViews: true)
        case .engine(.gesture(let e)):
            self.init(kind: "gesture", views: [e.tree.id(of: e.view)], namesViews: true, recognizer: e.recognizer,
                      isTraceOnly: e.state == .failed)
        case .engine(.control(let e)):
            self.init(kind: "control", views: [e.tree.id(of: e.view)], namesViews: true)
        case .engine(.hitTest(let e)):
            self.init(kind: "hitTest", views: e.view.map { [e.tree.id(of: $0)] } ?? [], namesViews: true,
                      isTraceOnly: true)
        case .device, .layout, .warning:
            self.init(kind: event.kind)
        }
    }
}
