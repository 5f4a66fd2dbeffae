import GestureCore

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
