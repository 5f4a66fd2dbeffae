import GestureCore
import GestureSystem

/// One `eventN` node of the input directory: what libevdev says it is, or why it could not be
/// read.
public struct DeviceEntry: Hashable, Sendable {
    public var path: String
    /// N of `eventN`, the kernel's registration order.
    public var number: Int
    public var description: DeviceDescription?
    public var classification: DeviceClassification?
    /// The node's entry in udev's database (its properties), nil without one.
    public var udevProperties: [String: String]?
    /// Why the node could not be opened or described (permissions, a device that vanished).
    public var error: EvdevError?
    /// Its physical path, nil when it has none or could not be read.
    public var phys: String?

    /// True for a virtual panel, gestured's own copy of a panel (its physical path starts with
    /// ``PanelCopy/physPrefix``, or udev's rule marked it `GESTURED_PANEL_COPY=1`): gestured
    /// never reads it, whatever the selector (it would read back what it forwards).
    public var isPanelCopy: Bool {
        phys?.hasPrefix(PanelCopy.physPrefix) == true || udevProperties?[PanelCopyProperties.marker] == "1"
    }

    /// - Parameter udevProperties: the node's entry in udev's database, which classifies it
    ///   when there is one (docs/input.md, "Devices").
    public init(path: String, number: Int, description: DeviceDescription?, error: EvdevError?,
                udevProperties: [String: String]? = nil, phys: String? = nil) {
        self.path = path
        self.number = number
        self.description = description
        classification = description.map { DeviceClassification($0, udevProperties: udevProperties) }
        self.udevProperties = udevProperties
        self.error = error
        self.phys = phys
    }
}

/// The input devices in `/dev/input` (or another directory, in tests), in event-number order.
public enum DeviceDirectory {
    /// Where the kernel's devtmpfs puts evdev nodes.
    public static let defaultPath = "/dev/input"

    /// Every `eventN` node in `directory`, opened with libevdev to describe it and closed again.
    /// A missing directory (no input device registered yet) is an empty list.
    public static func entries(in directory: String = defaultPath) -> [DeviceEntry] {
        var numbered: [(number: Int, path: String)] = []
        // Missing or unreadable, the directory has no device this process could open.
        for name in (try? directoryEntries(directory)) ?? [] {
            guard name.hasPrefix("event"), let number = Int(name.dropFirst(5)) else { continue }
            numbered.append((number, directory + "/" + name))
        }
        // Numeric order: event10 comes after event9, as the kernel registered them.
        return numbered.sorted { $0.number < $1.number }.map { item in
            do throws(EvdevError) {
                let device = try EvdevDevice(path: item.path)
                return DeviceEntry(path: item.path, number: item.number, description: device.description, error: nil,
                                   udevProperties: device.udevProperties, phys: device.phys)
            } catch {
                return DeviceEntry(path: item.path, number: item.number, description: nil, error: error)
            }
        }
    }

    /// `realpath(3)` of `path` (udev symlinks such as `/dev/input/by-path/…` resolve to the
    /// `eventN` node), or nil when it does not exist.
    public static func resolve(_ path: String) -> String? {
        resolvedPath(path)
    }
}
