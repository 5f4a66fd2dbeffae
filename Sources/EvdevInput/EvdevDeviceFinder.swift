import GestureCore
import GestureSystem
import SystemPackage

/// Finds the configured device among the evdev nodes, opens it (and grabs it when asked), and
/// watches the input directory so the loop looks again when nodes come and go.
public final class EvdevDeviceFinder: InputSourceProvider {
    public let match: DeviceSelector
    public let grab: Bool
    public let directory: String
    private let watcher: HotplugWatcher
    /// The nodes other screens read now (several screens, docs/configuration.md "Screens"):
    /// never opened for this one.
    public var takenPaths: () -> Set<String> = { [] }
    /// What the last ``open()`` passed over (see ``InputSourceProvider/passedOver``).
    public private(set) var passedOver: [String] = []

    /// - Parameters:
    ///   - match: which device.
    ///   - grab: take it exclusively once opened (`grab: true`).
    ///   - directory: where the nodes are (`/dev/input`; a temporary folder in tests).
    public init(match: DeviceSelector, grab: Bool, directory: String = DeviceDirectory.defaultPath) throws(EvdevError) {
        self.match = match
        self.grab = grab
        self.directory = directory
        var directories = [directory]
        if case .path(let path) = match {
            // A udev symlink (by-path, by-id) lives in a subfolder that udev fills after the
            // node appears: watch it too, so its creation wakes the loop.
            let folder = HotplugWatcher.parent(path)
            if folder != directory && !directories.contains(folder) { directories.append(folder) }
        }
        do {
            watcher = try HotplugWatcher(directories: directories)
        } catch {
            throw .system(error)
        }
    }

    public var selectorDescription: String { match.description }

    public var changeDescriptor: FileDescriptor { watcher.fileDescriptor }

    public func takeChanges() throws(EvdevError) -> Bool {
        do {
            return !(try watcher.takeChanges()).isEmpty
        } catch {
            throw .system(error)
        }
    }

    /// Opens the matching device; nil when none is there. A path that exists but cannot be
    /// opened is an error (permissions); for `auto` and names, unreadable nodes only matter when
    /// nothing readable matched, and then the first permission error is thrown.
    public func open() throws(EvdevError) -> (any InputSource)? {
        let device: EvdevDevice
        switch match {
        case .path(let path):
            guard let resolved = DeviceDirectory.resolve(path) else { return nil }
            do {
                device = try EvdevDevice(path: resolved)
            } catch where error.errno == .noSuchFileOrDirectory || error.errno == .operationNotSupportedByDevice {
                return nil
            }
            if device.phys?.hasPrefix(PanelCopy.physPrefix) == true || device.udevProperties?[PanelCopyProperties.marker] == "1" {
                throw .noMatchingDevice(selector: path, detail: DeviceSelector.panelCopyReason)
            }
        case .auto, .name, .identity:
            // Devices another screen reads are not there for this one.
            let taken = takenPaths()
            let entries = DeviceDirectory.entries(in: directory).filter { !taken.contains($0.path) }
            if let ambiguity = match.ambiguity(in: entries) {
                throw .noMatchingDevice(selector: match.description, detail: ambiguity)
            }
            let verdicts = match.verdicts(for: entries)
            passedOver = match == .auto
                ? verdicts.filter { DeviceSelector.overrideHint($0.entry) != nil }
                    .map { "\($0.entry.path) \"\($0.entry.description?.name ?? "")\": \($0.reason)" }
                : []
            guard let entry = verdicts.first(where: \.isPicked)?.entry else {
                if let denied = entries.first(where: { $0.error?.isPermissionDenied == true }), let error = denied.error {
                    throw error
                }
                return nil
            }
            do {
                device = try EvdevDevice(path: entry.path)
            } catch where error.errno == .noSuchFileOrDirectory || error.errno == .operationNotSupportedByDevice {
                return nil  // gone between listing and opening
            }
        }
        if grab { try device.grab() }
        return device
    }
}

@available(*, unavailable, message: "an EvdevDeviceFinder belongs to the input loop")
extension EvdevDeviceFinder: Sendable {}
