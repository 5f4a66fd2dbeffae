/// Everything that goes out on the event stream (docs/events.md): the engine's events, and the
/// events of the edges (device, layout, screen, warning), which carry a human-readable message,
/// and the pipeline's list of contacts.
public enum OutputEvent: Sendable {
    case engine(EngineEvent)
    /// `action`: `added`, `removed`, `resynchronised`.
    case device(time: Timestamp, action: String, name: String, message: String)
    /// `hash`: the layout's ``LayoutHash``, computed by whoever holds the layout's description.
    case layout(time: Timestamp, revision: Int, hash: LayoutHash, message: String)
    /// The screen touches that begin from now on are mapped onto (`screen.set`, a reload).
    case screen(time: Timestamp, screen: ScreenGeometry, message: String)
    case warning(time: Timestamp, message: String)
    /// Every finger down after a frame, only while a subscriber asks (``ContactsEvent``).
    case contacts(ContactsEvent)

    /// The `type` field, used by subscription filters.
    public var kind: String {
        switch self {
        case .engine(.touches): "touches"
        case .engine(.gesture): "gesture"
        case .engine(.control): "control"
        case .engine(.hitTest): "hitTest"
        case .device: "device"
        case .layout: "layout"
        case .screen: "screen"
        case .warning: "warning"
        case .contacts: "contacts"
        }
    }
}
