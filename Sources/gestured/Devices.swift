#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import EvdevInput
import GestureConfig
import GestureCore

/// `gestured devices`: every input device, what it is, and whether the selector picks it.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "List input devices: name, path, properties, and whether gestured would pick each one and why not.",
        discussion: """
            Without options the verdicts are for `device: "auto"` (the first touchscreen as udev classifies it; \
            touchpads are never picked). With --config, for the configured device; with --device, \
            for that path.
            """)

    @Option(help: "Give the verdicts for this configuration's device.")
    var config: String?

    @Option(help: "Give the verdicts for this device path instead.")
    var device: String?

    @Option(help: "The directory of evdev nodes.")
    var directory: String = DeviceDirectory.defaultPath

    func run() throws {
        var match = DeviceSelector.auto
        if let config { match = try loadConfiguration(config).device }
        if let device { match = .path(device) }
        // An empty list must mean "no devices", never "no such directory".
        var status = stat()
        guard !directory.isEmpty, stat(directory, &status) == 0 else {
            let reason = directory.isEmpty ? "the path is empty" : String(cString: strerror(errno))
            throw failure("--directory \(directory): \(reason); name the directory of the evdev nodes "
                + "(\(DeviceDirectory.defaultPath))")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else {
            throw failure("--directory \(directory): not a directory; name the directory of the evdev nodes "
                + "(\(DeviceDirectory.defaultPath))")
        }
        let entries = DeviceDirectory.entries(in: directory)
        var lines: [String] = []
        if entries.isEmpty {
            lines.append("no input devices in \(directory)")
        }
        for verdict in match.verdicts(for: entries) {
            let entry = verdict.entry
            guard let description = entry.description else {
                lines.append("\(entry.path): \(entry.error.map { "\($0)" } ?? "unreadable")")
                lines.append("  \(match == .auto ? "auto" : "picked"): no (\(verdict.reason))")
                continue
            }
            lines.append("\(entry.path): \"\(description.name)\" (bus \(hex(description.bus)) vendor "
                + "\(hex(description.vendor)) product \(hex(description.product)))")
            let properties = description.properties.sorted().map(InputProperty.name)
            lines.append("  properties: " + (properties.isEmpty ? "none" : properties.joined(separator: ", ")))
            if let classification = entry.classification {
                let basis = switch classification.basis {
                case .udevDatabase: "udev's database"
                case .capabilities: "udev's input_id rule over the capabilities (no udev database entry)"
                case .configuration: "the configuration"
                }
                lines.append("  kind: \(kind(classification)) (\(classification.reason))")
                lines.append("  classified by: \(basis)")
            }
            if let x = description.absInfo[AbsCode.mtPositionX] ?? description.absInfo[AbsCode.x],
               let y = description.absInfo[AbsCode.mtPositionY] ?? description.absInfo[AbsCode.y] {
                lines.append("  axes: x \(x.minimum)...\(x.maximum), y \(y.minimum)...\(y.maximum)")
            }
            lines.append("  \(match == .auto ? "auto" : "picked"): \(verdict.isPicked ? "yes" : "no") (\(verdict.reason))")
        }
        try printOutput(lines.joined(separator: "\n") + "\n")
    }

    private func kind(_ classification: DeviceClassification) -> String {
        let base = switch classification.kind {
        case .touchscreen: "touchscreen"
        case .touchpad: "touchpad"
        case .tablet: "tablet"
        case .notTouch: "not a touch device"
        }
        switch classification.contactProtocol {
        case .slots(let count)?: return base + ", multitouch protocol B, \(count) slot\(count == 1 ? "" : "s")"
        case .protocolA?: return base + ", multitouch protocol A (through mtdev)"
        case .singleTouch?: return base + ", single-touch"
        case nil: return base
        }
    }

    private func hex(_ value: UInt16) -> String {
        let digits = String(value, radix: 16)
        return String(repeating: "0", count: max(0, 4 - digits.count)) + digits
    }
}
