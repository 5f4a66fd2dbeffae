import GestureCore

/// One screen of the configuration (docs/configuration.md, "Screens"): its id, its panel, how
/// the panel's positions map onto it, and its layout. A file without `screens` is one screen,
/// ``ScreenConfiguration/mainID``.
public struct ScreenConfiguration: Hashable, Sendable {
    /// The id of the one screen of a file without `screens`.
    public static let mainID = "main"

    public var id: String
    public var device: DeviceSelector
    /// The `device` section's `type` and `axes`: how to read the device it selects.
    public var deviceOverrides: DeviceOverrides
    public var screen: ScreenGeometry
    public var layout: ViewSpec
    /// Where the layout came from, so a reload reads the same place.
    public var layoutSource: LayoutSource
    /// The display output the desktop knows this screen by (`WL_OUTPUT`, an xrandr name), for
    /// `gestured map --udev-rule`; the daemon does not use it.
    public var output: String?

    public init(id: String = mainID, device: DeviceSelector = .auto, deviceOverrides: DeviceOverrides = .none,
                screen: ScreenGeometry, layout: ViewSpec, layoutSource: LayoutSource, output: String? = nil) {
        (self.id, self.device, self.deviceOverrides, self.screen, self.layout, self.layoutSource, self.output) =
            (id, device, deviceOverrides, screen, layout, layoutSource, output)
    }
}

/// The ranges of the configuration's own values (docs/limits.md, "Configuration").
public enum ConfigurationLimits {
    /// Screens in one daemon: a kiosk has a few panels; each screen is a pipeline, an inotify
    /// watch and a timer on the one loop.
    public static let screens = 1...8
    /// A screen id's length: it is written into every event of a daemon with several screens.
    public static let screenIDLength = 1...32
    /// The longest identity value (idPath, serial, phys, output): udev's and the kernel's
    /// strings are far shorter; the bound keeps messages and the devices list readable.
    public static let identityLength = 255

    /// A screen id's characters: A–Z a–z 0–9 - _ (it is written into JSON and command lines
    /// unquoted by shells).
    public static func isScreenIDCharacter(_ byte: UInt8) -> Bool {
        (byte >= 0x30 && byte <= 0x39) || (byte >= 0x41 && byte <= 0x5A) || (byte >= 0x61 && byte <= 0x7A)
            || byte == 0x2D || byte == 0x5F
    }

    /// Why `id` is not a screen id; nil when it is one.
    public static func screenIDProblem(_ id: String) -> String? {
        let count = id.utf8.count
        if !screenIDLength.contains(count) {
            return "a screen id has \(screenIDLength.lowerBound) to \(screenIDLength.upperBound) characters; \"\(id)\" has \(count)"
        }
        if !id.utf8.allSatisfy(isScreenIDCharacter) {
            return "\"\(id)\" is not a screen id; use only A–Z a–z 0–9 - _"
        }
        return nil
    }
}
