#if canImport(Glibc)
import Glibc
#endif
import GestureSystem
import SystemPackage

/// Why a live input device could not be opened, described or read: a failed call with its
/// errno and device path, or no device matching what the configuration asks for.
public enum EvdevError: Error, Hashable, Sendable, CustomStringConvertible {
    /// A system or libevdev call failed on a device (`open`, `libevdev_new_from_fd`,
    /// `libevdev_next_event`, `libevdev_grab` …).
    case system(SystemError)
    /// No device matches the selector; `detail` says what was seen.
    case noMatchingDevice(selector: String, detail: String)

    /// The udev rule shipped beside the service, named in permission errors.
    public static let udevRule = "systemd/70-gestured-touchscreen.rules"

    /// The errno of a failed call, nil for the other cases.
    public var errno: Errno? {
        if case .system(let error) = self { return error.errno }
        return nil
    }

    /// True when the failure is a permission problem the user can fix.
    public var isPermissionDenied: Bool { errno == .permissionDenied || errno == .notPermitted }

    public var description: String {
        switch self {
        case .system(let error):
            switch error.errno {
            case .permissionDenied, .notPermitted:
                // Input device nodes are root:input 0660 on Debian; a service user outside
                // the group sees EACCES at open().
                return "\(error). The device is not readable by uid \(getuid()): add the user gestured runs as "
                    + "to the `input` group (`usermod -aG input USER`, then start a new session), or install "
                    + "\(Self.udevRule) into /etc/udev/rules.d/ and run `udevadm trigger` so the panel's node "
                    + "gets a group gestured is in."
            case .resourceBusy where error.call == "libevdev_grab":
                return "\(error). Another program has grabbed the device exclusively (a compositor or a second "
                    + "gestured); stop it, or set `grab: false` in the configuration."
            case .noSuchFileOrDirectory where error.call == "open":
                return "\(error). No such device: check the path with `gestured devices`."
            default:
                return error.description
            }
        case .noMatchingDevice(let selector, let detail):
            return "no input device matches \(selector): \(detail). `gestured devices` lists what is there."
        }
    }
}
