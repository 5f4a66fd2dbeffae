#if canImport(Glibc)
import Glibc
#endif
import GestureCore

/// udev's database entry of a device node: the properties udev's rules (its `input_id`
/// builtin, hwdb, local rules) attached to it, which libinput and compositors trust. An input
/// character device (major 13) is `/run/udev/data/c13:MINOR`; its `E:KEY=VALUE` lines are the
/// properties (systemd's `src/libsystemd/sd-device/device-private.c` writes them).
///
/// Wraps `stat(2)` (the node's `st_rdev`) and reads the entry with `open(2)`/`read(2)`; an
/// entry is a few hundred bytes, and one larger than ``maxEntrySize`` is not udev's.
public enum UdevDatabase {
    /// Where udev keeps its database.
    public static let defaultDirectory = "/run/udev/data"
    /// Entries are small; anything bigger is ignored.
    public static let maxEntrySize = 64 * 1024

    /// The properties of the device at `node`, or nil when udev has no entry for it (no udev
    /// running, a container, a node udev has not processed yet).
    public static func properties(ofNode node: String, directory: String = defaultDirectory) -> [String: String]? {
        var info = stat()
        guard stat(node, &info) == 0, (info.st_mode & S_IFMT) == S_IFCHR else { return nil }
        // glibc's major()/minor() macros, which Swift does not import.
        let device = UInt64(info.st_rdev)
        let major = ((device >> 8) & 0xfff) | ((device >> 32) & ~0xfff)
        let minor = (device & 0xff) | ((device >> 12) & ~0xff)
        return properties(major: Int(major), minor: Int(minor), directory: directory)
    }

    /// The properties in the entry of character device `major:minor`.
    public static func properties(major: Int, minor: Int, directory: String = defaultDirectory) -> [String: String]? {
        let path = "\(directory)/c\(major):\(minor)"
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { return nil }
        defer { close(fd) }
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 4096)
        while bytes.count <= maxEntrySize {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            bytes += chunk[..<count]
        }
        guard bytes.count <= maxEntrySize else { return nil }
        return parse(String(decoding: bytes, as: UTF8.self))
    }

    /// The `E:KEY=VALUE` lines of an entry; other lines (tags, links, timestamps) are not
    /// properties.
    public static func parse(_ entry: String) -> [String: String] {
        var properties: [String: String] = [:]
        for line in entry.split(separator: "\n") where line.hasPrefix("E:") {
            guard let equals = line.firstIndex(of: "=") else { continue }
            properties[String(line[line.index(line.startIndex, offsetBy: 2)..<equals])] =
                String(line[line.index(after: equals)...])
        }
        return properties
    }

    /// `description` with the fuzz of each axis that udev's `LIBINPUT_FUZZ_<code>` property
    /// names (two hex digits, `LIBINPUT_FUZZ_35`).
    ///
    /// libinput's udev rule (`90-libinput-fuzz-override.rules`) sets the kernel's fuzz of the
    /// position axes to 0, so the kernel passes every jitter on, and keeps the value in that
    /// property for libinput's own filtering. gestured filters through libmtdev for protocol A
    /// panels, which reads the fuzz from the description: with the property's value, live
    /// input is filtered as the panel's recording (made before the rule) is in replay, and as
    /// libinput filters it. A kiosk with libinput installed has the rule.
    public static func restoringFuzz(_ description: DeviceDescription, from properties: [String: String]?)
        -> DeviceDescription {
        guard let properties else { return description }
        var restored = description
        for (key, value) in properties where key.hasPrefix("LIBINPUT_FUZZ_") {
            guard let code = UInt16(key.dropFirst("LIBINPUT_FUZZ_".count), radix: 16), let fuzz = Int32(value),
                  fuzz >= 0, restored.absInfo[code] != nil else { continue }
            restored.absInfo[code]?.fuzz = fuzz
        }
        return restored
    }
}
