/// What subscription filters look at in an event (docs/protocol.md, "Subscriptions": its kind, the views it
/// is about, its recognizer, whether it is trace-only), worked out once per event for every subscriber.
/// It refers to the event's tree instead of copying ids, so making one allocates nothing.
public struct EventSummary: Sendable {
    /// The views an event names.
    public enum Views: Sendable {
        /// `device`, `layout`, `screen` and `warning` events name no view.
        case none
        /// The event's view in its tree (`nil`: a hit test that found nothing) and, for
        /// touches, the responders it travels to.
        case tree(ViewTree, view: ViewIndex?, responders: Bool)
        /// Ids given as such (tests, tools).
        case ids([String])
    }

    public var kind: String
    public var views: Views
    public var recognizer: String?
    public var isTraceOnly: Bool
    /// A `contacts` event: only for subscribers that ask for contacts, whatever their kinds.
    public var isContacts: Bool

    public init(kind: String, views: Views = .none, recognizer: String? = nil, isTraceOnly: Bool = false,
                isContacts: Bool = false) {
        (self.kind, self.views, self.recognizer, self.isTraceOnly, self.isContacts) =
            (kind, views, recognizer, isTraceOnly, isContacts)
    }

    public init(_ event: OutputEvent) {
        switch event {
        case .engine(let event): self.init(event)
        case .device, .layout, .screen, .warning: self.init(kind: event.kind)
        case .contacts: self.init(kind: event.kind, isContacts: true)
        }
    }

    public init(_ event: EngineEvent) {
        switch event {
        case .touches(let e):
            self.init(kind: "touches", views: .tree(e.tree, view: e.view, responders: true))
        case .gesture(let e):
            self.init(kind: "gesture", views: .tree(e.tree, view: e.view, responders: false), recognizer: e.recognizer,
                      isTraceOnly: e.state == .failed)
        case .control(let e):
            self.init(kind: "control", views: .tree(e.tree, view: e.view, responders: false))
        case .hitTest(let e):
            self.init(kind: "hitTest", views: .tree(e.tree, view: e.view, responders: false), isTraceOnly: true)
        }
    }

    /// True for the events that are about views, even when they name none (a hit test that
    /// found nothing).
    public var namesViews: Bool {
        if case .none = views { false } else { true }
    }

    /// Whether the event's view, or one of its responders, satisfies `predicate`.
    public func containsView(where predicate: (String) -> Bool) -> Bool {
        switch views {
        case .none:
            return false
        case .ids(let ids):
            return ids.contains(where: predicate)
        case .tree(let tree, let view, let responders):
            guard let view else { return false }
            if !responders { return predicate(tree.id(of: view)) }
            return ResponderChain(from: view, in: tree).contains { predicate(tree.id(of: $0)) }
        }
    }
}
