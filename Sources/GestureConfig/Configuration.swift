import GestureCore

/// Everything the daemon needs from its configuration file (docs/configuration.md), read and validated:
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
    /// The screens, each with its panel and layout: one, ``ScreenConfiguration/mainID``, for a
    /// file without `screens`; 1…8 with `screens` (``ConfigurationLimits/screens``).
    public var screens: [ScreenConfiguration]
    /// True when the file has a `screens` section: with more than one screen, events and
    /// replies name their screen.
    public var hasScreensSection: Bool
    /// Grab the device exclusively, so nothing else (a desktop session) also acts on touches.
    public var grab: Bool
    public var socket: SocketConfig
    public var settings: GestureSettings

    /// True when events carry `screen`: there is more than one screen.
    public var isMultiScreen: Bool { screens.count > 1 }

    /// The first screen's device (the only one's, without `screens`).
    public var device: DeviceSelector { get { screens[0].device } set { screens[0].device = newValue } }
    /// The first screen's `type` and `axes`.
    public var deviceOverrides: DeviceOverrides { get { screens[0].deviceOverrides } set { screens[0].deviceOverrides = newValue } }
    /// The first screen's geometry.
    public var screen: ScreenGeometry { get { screens[0].screen } set { screens[0].screen = newValue } }
    /// The first screen's layout.
    public var layout: ViewSpec { get { screens[0].layout } set { screens[0].layout = newValue } }
    /// Where the first screen's layout came from, so a reload reads the same place.
    public var layoutSource: LayoutSource { get { screens[0].layoutSource } set { screens[0].layoutSource = newValue } }
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
        self.init(file: file,
                  screens: [ScreenConfiguration(device: device, deviceOverrides: deviceOverrides, screen: screen,
                                                layout: layout, layoutSource: layoutSource)],
                  grab: grab, socket: socket, settings: settings, web: web, routing: routing)
        self.isBareLayout = isBareLayout
        hasScreensSection = false
    }

    /// A configuration of several screens (`screens`): `screens` has 1…8 entries, ids unique.
    public init(file: String, screens: [ScreenConfiguration], grab: Bool = false, socket: SocketConfig = SocketConfig(),
                settings: GestureSettings = GestureSettings(), web: WebConfig? = nil,
                routing: RoutingConfiguration? = nil) {
        precondition(!screens.isEmpty, "a configuration has at least one screen")
        self.file = file
        isBareLayout = false
        self.screens = screens
        hasScreensSection = true
        self.grab = grab
        self.socket = socket
        self.settings = settings
        self.web = web
        self.routing = routing
    }

    /// The screen with `id`, nil when there is none.
    public func screen(id: String) -> ScreenConfiguration? {
        screens.first { $0.id == id }
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
        var lines: [String] = []
        if isBareLayout {
            lines.append("\(file): a valid bare layout (every other setting is a default)")
        } else {
            lines.append("\(file): a valid configuration")
        }
        if hasScreensSection {
            lines.append("\(screens.count) screen\(screens.count == 1 ? "" : "s"): "
                + screens.map(\.id).joined(separator: ", "))
            for screen in screens {
                lines.append("screen \"\(screen.id)\":")
                lines += Self.summary(of: screen, grab: grab).map { "  " + $0 }
            }
        } else {
            lines += Self.summary(of: screens[0], grab: grab).dropLast()
        }
        if let routing {
            lines.append("routing: touches \(Self.describe(routing.defaultRule)) unless a view says otherwise; "
                + "the rest reach the desktop through a virtual copy of the panel")
        }
        if !settings.millimetres.isEmpty {
            lines.append("millimetres: " + settings.millimetres.entries.map { "\($0.key) \(Self.number($0.millimetres)) mm" }
                .joined(separator: ", ") + " (converted with the device's resolution)")
        }
        // Without `screens`, the layout line comes where it always did.
        if !hasScreensSection, let layout = Self.summary(of: screens[0], grab: grab).last { lines.append(layout) }
        lines.append("socket: \(socket.path)")
        if let web {
            let origins = web.origins.map(\.text).joined(separator: ", ")
            lines.append("web: \(web.listen), origins \(origins.isEmpty ? "none" : origins)"
                + (web.token == nil ? "" : ", layout changes need the token"))
        }
        return lines.joined(separator: "\n")
    }

    /// A screen's lines of ``summary``: its geometry, its device and (last) its layout.
    private static func summary(of configured: ScreenConfiguration, grab: Bool) -> [String] {
        var views = 0, controls = 0, recognizers = 0
        var stack = [configured.layout]
        while let view = stack.popLast() {
            views += 1
            if view.kind == .control { controls += 1 }
            recognizers += view.recognizers.count
            stack += view.subviews
        }
        func plural(_ count: Int, _ noun: String) -> String { "\(count) \(noun)\(count == 1 ? "" : "s")" }
        let screen = configured.screen
        var lines: [String] = []
        var screenLine = "screen: \(number(screen.size.width)) × \(number(screen.size.height)) points"
        if screen.rotation != .none { screenLine += ", rotated \(screen.rotation.rawValue)°" }
        if screen.calibration != nil { screenLine += ", calibrated" }
        if let output = configured.output { screenLine += ", output \(output)" }
        lines.append(screenLine)
        var deviceLine = "device: \(configured.device)"
        let overrides = configured.deviceOverrides
        if overrides.type != nil { deviceLine += ", read as a touchscreen" }
        let axes = overrides.axes
        if axes.namesAxes {
            deviceLine += ", positions from \(AbsCode.name(axes.x?.code ?? AbsCode.x)) and \(AbsCode.name(axes.y?.code ?? AbsCode.y))"
        }
        if axes.x?.range != nil || axes.y?.range != nil { deviceLine += ", axis ranges overridden" }
        if axes.x?.resolution != nil || axes.y?.resolution != nil { deviceLine += ", resolution overridden" }
        lines.append(deviceLine + (grab ? ", grabbed" : ""))
        lines.append("layout: \(configured.layoutSource): \(plural(views, "view")) (\(plural(controls, "control"))), "
            + plural(recognizers, "recognizer"))
        return lines
    }

    private static func number(_ value: Double) -> String {
        value == value.rounded() && abs(value) < 1e15 ? String(Int(value)) : String(value)
    }
}
