import GestureCore

/// Everything the daemon needs from its configuration file (SPEC 12), read and validated:
/// the device, how its positions map onto the screen, the socket, gesture settings and the
/// layout.
public struct Configuration: Hashable, Sendable {
    /// Where the daemon looks when no `--config` is given.
    public static let defaultPath = "/etc/gestured/gestured.json5"

    /// The file this configuration was read from.
    public var file: String
    /// True when the file is a bare layout: every other value is a default, and the screen is
    /// the root view's size.
    public var isBareLayout: Bool
    public var device: DeviceSelector
    /// The `device` section's `type` and `axes`: how to read the device it selects.
    public var deviceOverrides: DeviceOverrides
    /// Grab the device exclusively, so nothing else (a desktop session) also acts on touches.
    public var grab: Bool
    public var screen: ScreenGeometry
    public var socket: SocketConfig
    public var settings: GestureSettings
    public var layout: ViewSpec
    /// Where the layout came from, so a reload reads the same place.
    public var layoutSource: LayoutSource
    /// The web bridge's section (`gestured-web`); `nil` when the file has none. The daemon
    /// does not use it.
    public var web: WebConfig?
    /// The `routing` section (docs/routing.md): touches are routed and the panel gets a
    /// virtual copy. `nil` (no section): no routing, no copy, today's behaviour.
    public var routing: RoutingConfiguration?

    public init(file: String, isBareLayout: Bool = false, device: DeviceSelector = .auto,
                deviceOverrides: DeviceOverrides = .none, grab: Bool = false, screen: ScreenGeometry,
                socket: SocketConfig = SocketConfig(),
                settings: GestureSettings = GestureSettings(), layout: ViewSpec, layoutSource: LayoutSource,
                web: WebConfig? = nil, routing: RoutingConfiguration? = nil) {
        self.file = file
        self.isBareLayout = isBareLayout
        self.device = device
        self.deviceOverrides = deviceOverrides
        self.grab = grab
        self.screen = screen
        self.socket = socket
        self.settings = settings
        self.layout = layout
        self.layoutSource = layoutSource
        self.web = web
        self.routing = routing
    }

    /// A routing rule as `check-config` says it.
    static func describe(_ rule: RoutingRule) -> String {
        switch rule {
        case .claim: "claimed"
        case .forward: "forwarded"
        case .hold(let hold): "held up to \(number(hold.seconds * 1000)) ms"
        }
    }

    /// A few lines for `gestured check-config`: what was read, so the user can see it is what
    /// they meant.
    public var summary: String {
        var views = 0, controls = 0, recognizers = 0
        var stack = [layout]
        while let view = stack.popLast() {
            views += 1
            if view.kind == .control { controls += 1 }
            recognizers += view.recognizers.count
            stack += view.subviews
        }
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        var lines: [String] = []
        if isBareLayout {
            lines.append("\(file): a valid bare layout (every other setting is a default)")
        } else {
            lines.append("\(file): a valid configuration")
        }
        var screenLine = "screen: \(Self.number(screen.size.width)) × \(Self.number(screen.size.height)) points"
        if screen.rotation != .none { screenLine += ", rotated \(screen.rotation.rawValue)°" }
        if screen.calibration != nil { screenLine += ", calibrated" }
        lines.append(screenLine)
        var deviceLine = "device: \(device)"
        if deviceOverrides.type != nil { deviceLine += ", read as a touchscreen" }
        let axes = deviceOverrides.axes
        if axes.namesAxes {
            deviceLine += ", positions from \(AbsCode.name(axes.x?.code ?? AbsCode.x)) and \(AbsCode.name(axes.y?.code ?? AbsCode.y))"
        }
        if axes.x?.range != nil || axes.y?.range != nil { deviceLine += ", axis ranges overridden" }
        if axes.x?.resolution != nil || axes.y?.resolution != nil { deviceLine += ", resolution overridden" }
        lines.append(deviceLine + (grab ? ", grabbed" : ""))
        if let routing {
            lines.append("routing: touches \(Self.describe(routing.defaultRule)) unless a view says otherwise; "
                + "the rest reach the desktop through a virtual copy of the panel")
        }
        if !settings.millimetres.isEmpty {
            lines.append("millimetres: " + settings.millimetres.entries.map { "\($0.key) \(Self.number($0.millimetres)) mm" }
                .joined(separator: ", ") + " (converted with the device's resolution)")
        }
        lines.append("layout: \(layoutSource): \(plural(views, "view")) (\(plural(controls, "control"))), "
            + plural(recognizers, "recognizer"))
        lines.append("socket: \(socket.path)")
        if let web {
            let origins = web.origins.map(\.text).joined(separator: ", ")
            lines.append("web: \(web.listen), origins \(origins.isEmpty ? "none" : origins)"
                + (web.token == nil ? "" : ", layout changes need the token"))
        }
        return lines.joined(separator: "\n")
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
