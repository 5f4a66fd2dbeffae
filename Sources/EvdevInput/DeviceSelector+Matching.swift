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
            case .identity(let identity):
                guard entry.description != nil else {
                    return verdict(false, "not readable: \(entry.error?.errno.map(Self.errnoName) ?? "error")")
                }
                if entry.isPanelCopy { return verdict(false, Self.panelCopyReason) }
                if let mismatch = identity.mismatch(entry) { return verdict(false, mismatch) }
                // Two matches are an error (``ambiguity(in:)``), never "the first".
                if picked { return verdict(false, "matches \(identity) too; add a key that tells the two apart") }
                return verdict(true, "its \(identity) match")
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

extension DeviceSelector {
    /// For an identity that more than one readable device matches: the message that names them
    /// (and the keys that would tell them apart); nil otherwise. Hotplug order is arbitrary, so
    /// gestured never guesses between two panels an identity cannot tell apart.
    public func ambiguity(in entries: [DeviceEntry]) -> String? {
        guard case .identity(let identity) = self else { return nil }
        let matches = entries.filter { $0.description != nil && !$0.isPanelCopy && identity.mismatch($0) == nil }
        guard matches.count > 1 else { return nil }
        let named = matches.map { "\($0.path) (\(DeviceIdentity.keys(of: $0)))" }.joined(separator: " and ")
        return "\(identity) matches \(matches.count) devices: \(named); add the key whose values differ (idPath, serial "
            + "or phys) so that it matches one"
    }
}

extension DeviceIdentity {
    /// The udev serial of an entry: `ID_SERIAL_SHORT`, or `ID_SERIAL` when there is no short one.
    static func serial(of entry: DeviceEntry) -> String? {
        entry.udevProperties?["ID_SERIAL_SHORT"] ?? entry.udevProperties?["ID_SERIAL"]
    }

    /// The vendor id: udev's `ID_VENDOR_ID`, else the input id's.
    static func vendor(of entry: DeviceEntry) -> UInt16? {
        entry.udevProperties?["ID_VENDOR_ID"].flatMap { UInt16($0, radix: 16) } ?? entry.description?.vendor
    }

    /// The product id: udev's `ID_MODEL_ID`, else the input id's.
    static func product(of entry: DeviceEntry) -> UInt16? {
        entry.udevProperties?["ID_MODEL_ID"].flatMap { UInt16($0, radix: 16) } ?? entry.description?.product
    }

    /// Why `entry` does not match (the first key that differs), nil when every key given matches.
    public func mismatch(_ entry: DeviceEntry) -> String? {
        if let idPath {
            let found = entry.udevProperties?["ID_PATH"]
            if found != idPath { return "idPath is \(found.map { "\"\($0)\"" } ?? "unknown (no udev ID_PATH)"), not \"\(idPath)\"" }
        }
        if let serial {
            let found = Self.serial(of: entry)
            if found != serial { return "serial is \(found.map { "\"\($0)\"" } ?? "unknown (no udev ID_SERIAL)"), not \"\(serial)\"" }
        }
        if let vendor {
            let found = Self.vendor(of: entry)
            if found != vendor { return "vendor is \(found.map(Self.hex) ?? "unknown"), not \(Self.hex(vendor))" }
        }
        if let product {
            let found = Self.product(of: entry)
            if found != product { return "product is \(found.map(Self.hex) ?? "unknown"), not \(Self.hex(product))" }
        }
        if let phys {
            if entry.phys != phys { return "phys is \(entry.phys.map { "\"\($0)\"" } ?? "empty"), not \"\(phys)\"" }
        }
        if let name {
            let found = entry.description?.name ?? ""
            if fnmatch(name, found, 0) != 0 { return "name \"\(found)\" does not match \"\(name)\"" }
        }
        return nil
    }

    /// What an entry's identity is, every key (for messages and `gestured devices`).
    public static func keys(of entry: DeviceEntry) -> String {
        var parts: [String] = []
        if let idPath = entry.udevProperties?["ID_PATH"] { parts.append("idPath \"\(idPath)\"") }
        if let serial = serial(of: entry) { parts.append("serial \"\(serial)\"") }
        if let vendor = vendor(of: entry) { parts.append("vendor \(hex(vendor))") }
        if let product = product(of: entry) { parts.append("product \(hex(product))") }
        if let phys = entry.phys, !phys.isEmpty { parts.append("phys \"\(phys)\"") }
        return parts.joined(separator: ", ")
    }
}

/// What a ``DeviceSelector`` makes of one device: picked or not, and why.
public struct DeviceVerdict: Hashable, Sendable {
    public var entry: DeviceEntry
    public var isPicked: Bool
    public var reason: String
}
