import GestureSystem
import SystemPackage

/// Why the virtual panel could not be made or written, each with its cause and the fix: gestured
/// then goes on without a copy and keeps serving its own clients (docs/routing.md, "When there
/// is no copy").
public enum VirtualPanelError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The panel declares something uinput refuses (too many slots, an axis range it rejects).
    case cannotCopy(panel: String, problems: [String])
    /// `/dev/uinput` could not be opened, or the kernel refused to create the device.
    case creation(SystemError)
    /// A write to the copy failed (it was destroyed under gestured, the kernel refused).
    case write(SystemError)

    /// The node libevdev opens.
    public static let uinputPath = "/dev/uinput"
    /// The file the package installs to load the uinput module at boot.
    public static let modulesLoadFile = "/usr/lib/modules-load.d/gestured.conf"

    public var errno: Errno? {
        switch self {
        case .cannotCopy: nil
        case .creation(let error), .write(let error): error.errno
        }
    }

    public var description: String {
        switch self {
        case .cannotCopy(let panel, let problems):
            return "the panel \"\(panel)\" cannot be copied through uinput: \(problems.joined(separator: "; ")). "
                + "Touches are not forwarded to the desktop; if the panel must reach it, set grab: false"
        case .creation(let error):
            switch error.errno {
            case .noSuchFileOrDirectory, .operationNotSupportedByDevice, .noSuchAddressOrDevice:
                return "\(error). There is no \(Self.uinputPath): load the uinput module (`modprobe uinput`; the "
                    + "package loads it at boot through \(Self.modulesLoadFile))"
            case .permissionDenied:
                return "\(error). \(Self.uinputPath) is not writable by the user gestured runs as: install "
                    + "\(EvdevError.udevRule) (it gives \(Self.uinputPath) to the gestured-uinput group, which the "
                    + "service's SupplementaryGroups has) and run `udevadm trigger --sysname-match=uinput`"
            case .notPermitted:
                return "\(error). The sandbox refused \(Self.uinputPath): the service needs "
                    + "`DeviceAllow=\(Self.uinputPath) rw` (the package's gestured.service has it)"
            case .invalidArgument:
                return "\(error). The kernel refused the copy's description (an axis or slot count uinput does not "
                    + "take; the kernel log says which)"
            default:
                return error.description
            }
        case .write(let error):
            return "\(error). The copy no longer takes events; touches are not forwarded until the panel is opened again"
        }
    }
}
