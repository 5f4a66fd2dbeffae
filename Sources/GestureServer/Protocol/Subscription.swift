import GestureCore

/// What a client asked to receive (`subscribe`, docs/protocol.md, "Subscriptions"). Filters combine with
/// "and"; within a filter any entry may match. `views` applies to events that name views (touches, gesture,
/// control, hitTest): one matches when its view or any responder does. `recognizers` applies to
/// gesture events. `device`, `layout`, `screen` and `warning` events name neither and are
/// chosen by `kinds` alone. `contacts` events go to the subscribers that ask for them
/// (``contacts``), and to no other, whatever their filters.
public struct Subscription: Hashable, Sendable {
    /// The event types a subscription may name (docs/events.md).
    public static let knownKinds = ["touches", "gesture", "control", "hitTest", "device", "layout", "screen", "warning",
                                    "contacts"]

    /// `nil`: every kind.
    public var kinds: Set<String>?
    /// `nil`: any view.
    public var views: [Glob]?
    /// `nil`: any recognizer.
    public var recognizers: [Glob]?
    /// Also `hitTest` events and `failed` gesture transitions (docs/events.md, "`hitTest`": emitted only when
    /// asked for). Asking for the `hitTest` kind asks for tracing too.
    public var trace: Bool
    /// Also a `contacts` event after every frame that changed a contact (docs/events.md): the
    /// pipeline lists contacts only while some subscriber asks. Asking for the `contacts` kind
    /// asks for them too.
    public var contacts: Bool

    public init(kinds: Set<String>? = nil, views: [Glob]? = nil, recognizers: [Glob]? = nil, trace: Bool = false,
                contacts: Bool = false) {
        self.kinds = kinds
        self.views = views
        self.recognizers = recognizers
        self.trace = trace || (kinds?.contains("hitTest") ?? false)
        self.contacts = contacts || (kinds?.contains("contacts") ?? false)
    }

    /// Whether an event with this summary goes to the subscriber. `traceAll`: the daemon runs
    /// with `--trace`, so every subscriber gets the trace-only events.
    public func matches(_ event: EventSummary, traceAll: Bool = false) -> Bool {
        if event.isContacts { return contacts }
        if event.isTraceOnly && !trace && !traceAll { return false }
        if let kinds, !kinds.contains(event.kind) { return false }
        if let views, event.namesViews {
            guard event.containsView(where: { view in views.contains { $0.matches(view) } }) else { return false }
        }
        if let recognizers, let recognizer = event.recognizer {
            guard recognizers.contains(where: { $0.matches(recognizer) }) else { return false }
        }
        return true
    }
}
