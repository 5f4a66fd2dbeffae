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

    /// The udev rule's file name: the Debian package installs it in /usr/lib/udev/rules.d;
    /// in the source tree it is systemd/70-gestured-touchscreen.rules.
    public static let udevRuleName = "70-gestured-touchscreen.rules"
    /// The group the rule gives the panel's node, and that gestured.service has in
    /// SupplementaryGroups=: the panel only, not every keyboard and reader as `input` would.
    public static let panelGroup = "gestured-panel"

    /// The rule as the reader finds it: the installed file when the package put one there (or
    /// the operator's copy in /etc/udev/rules.d), else the source tree's.
    public static var udevRule: String {
        for directory in ["/etc/udev/rules.d", "/usr/lib/udev/rules.d", "/lib/udev/rules.d"] {
            let path = directory + "/" + udevRuleName
            if access(path, F_OK) == 0 { return path }
        }
        return "systemd/" + udevRuleName
    }

    /// Whether the rule is installed (then the advice is to join its group, not to install it).
    public static var udevRuleIsInstalled: Bool { udevRule.hasPrefix("/") }

    /// What someone who may not open a device node should run: `command` (the command line
    /// that failed) as root, or join the panel's group.
    public static var permissionAdvice: String { permissionAdvice(command: "gestured …") }

    public static func permissionAdvice(command: String) -> String {
        let join = "run it as root (`sudo \(command)`), or join the \(panelGroup) group "
            + "(`sudo usermod -aG \(panelGroup) $USER`, then log in again)"
        if udevRuleIsInstalled {
            return join + "; \(udevRule) gives the touchscreen's node to that group"
        }
        return join + " after installing \(udevRule) into /etc/udev/rules.d/ and running "
            + "`udevadm control --reload && udevadm trigger --subsystem-match=input`, which gives the touchscreen's "
            + "node to that group"
    }

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
                // Input device nodes are root:input 0660 on Debian, the panel root:gestured-panel
                // under the package's rule; a user outside the group sees EACCES at open().
                return "\(error). The device is not readable by uid \(getuid()): " + Self.permissionAdvice + "."
            case .resourceBusy where error.call == "libevdev_grab":
                return "\(error). Another program has grabbed the device exclusively (gestured.service with "
                    + "`grab: true`, a compositor or a second gestured); `gestured devices` names it. Stop it "
                    + "(`sudo systemctl stop gestured`, and start it again after), or set `grab: false` in its configuration."
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
