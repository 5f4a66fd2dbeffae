#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import SystemPackage

/// How a ``DeviceSelector`` picks among the input devices that are there.
extension DeviceSelector {
    /// What this match makes of each entry: the one it picks (at most one) and, for every
    /// other, why not.
    public func verdicts(for entries: [DeviceEntry]) -> [DeviceVerdict] {
        var picked = false
        let target: String? = if case .path(let path) = self { DeviceDirectory.resolve(path) ?? path } else { nil }
        return entries.map { entry in
            func verdict(_ pick: Bool, _ reason: String) -> DeviceVerdict {
                if pick { picked = true }
                return DeviceVerdict(entry: entry, isPicked: pick, reason: reason)
            }
            switch self {
            case .path(let path):
                guard entry.path == target || DeviceDirectory.resolve(entry.path) == target else {
                    return verdict(false, "not \(path)")
                }
                if entry.isPanelCopy { return verdict(false, Self.panelCopyReason) }
                if let error = entry.error { return verdict(false, "not readable: \(error.errno.map(Self.errnoName) ?? "error")") }
                return verdict(true, "it is \(path)")
            case .name(let pattern):
                guard let description = entry.description else {
                    return verdict(false, "not readable: \(entry.error?.errno.map(Self.errnoName) ?? "error")")
                }
                // The copy has the panel's name: without this a name would pick it once the
                // panel is unplugged.
                if entry.isPanelCopy { return verdict(false, Self.panelCopyReason) }
                guard fnmatch(pattern, description.name, 0) == 0 else {
                    return verdict(false, "name does not match \"\(pattern)\"")
                }
                if picked { return verdict(false, "an earlier device matches \"\(pattern)\" too") }
                return verdict(true, "name matches \"\(pattern)\"")
            case .auto:
                guard let classification = entry.classification else {
                    return verdict(false, "not readable: \(entry.error?.errno.map(Self.errnoName) ?? "error")")
                }
                if entry.isPanelCopy { return verdict(false, Self.panelCopyReason) }
                guard classification.isDirectTouch else {
                    return verdict(false, classification.reason + (Self.overrideHint(entry).map { "; " + $0 } ?? ""))
                }
                if picked { return verdict(false, "\(classification.reason), but an earlier touchscreen comes first") }
                return verdict(true, classification.reason)
            }
        }
    }

    /// The entry this match picks, if any.
    public func pick(from entries: [DeviceEntry]) -> DeviceEntry? {
        verdicts(for: entries).first(where: \.isPicked)?.entry
    }

    /// For a device `auto` passes over that could still be a misdescribed touchscreen (a tablet
    /// or another device with absolute axes, never a touchpad): how to make gestured read it.
    /// Nil for touchscreens, touchpads and devices without absolute axes.
    static func overrideHint(_ entry: DeviceEntry) -> String? {
        guard let classification = entry.classification, !classification.isDirectTouch, classification.kind != .touchpad,
              let description = entry.description, !description.absInfo.isEmpty else { return nil }
        return "if it is the touchscreen, select it with device: { path: \"\(entry.path)\", type: \"touchscreen\" }, "
            + "and axes: { x: \"ABS_…\", y: \"ABS_…\" } beside type if its positions come on other axes"
    }

    /// Why a virtual panel is never picked.
    public static let panelCopyReason = "gestured's virtual panel (a copy of a panel, for the touches it forwards): never read"

    static func errnoName(_ code: Errno) -> String {
        switch code {
        case .permissionDenied: "permission denied (EACCES)"
        case .notPermitted: "operation not permitted (EPERM)"
        case .noSuchFileOrDirectory: "gone (ENOENT)"
        case .operationNotSupportedByDevice: "gone (ENODEV)"
        default: String(cString: strerror(code.rawValue)) + " (errno \(code.rawValue))"
        }
    }
}

/// What a ``DeviceSelector`` makes of one device: picked or not, and why.
public struct DeviceVerdict: Hashable, Sendable {
    public var entry: DeviceEntry
    public var isPicked: Bool
    public var reason: String
}
