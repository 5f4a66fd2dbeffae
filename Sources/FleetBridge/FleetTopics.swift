/// The topics of one kiosk, all under `<prefix>/<node>/` (docs/fleet.md, "Topics").
public struct FleetTopics: Hashable, Sendable {
    public let base: String

    public init(prefix: String, node: String) {
        base = "\(prefix)/\(node)"
    }

    /// `online` / `offline`, retained; the broker publishes `offline` as the last will.
    public var availability: String { "\(base)/availability" }
    /// The layout in force, retained.
    public var layout: String { "\(base)/layout" }
    /// Health, retained, every `health.interval` seconds.
    public var health: String { "\(base)/health" }
    /// Requests for the daemon (reload, layout.set, view.update, screen.set).
    public var command: String { "\(base)/command" }
    /// The daemon's answer to each command.
    public var commandResult: String { "\(base)/command/result" }

    /// The events of one view: its gestures and, for a control, its control events.
    public func view(_ id: String) -> String { "\(base)/view/\(Self.level(id))" }

    /// A view id as one topic level and as part of Home Assistant's ids: characters other
    /// than letters, digits, `_` and `-` (a `/`, `+` or `#` in an id would change the topic's
    /// meaning) become `_`.
    public static func level(_ id: String) -> String {
        String(id.map { FleetSettingsReader.isIDCharacter($0) ? $0 : "_" })
    }
}
