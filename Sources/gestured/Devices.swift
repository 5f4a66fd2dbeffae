#if canImport(Glibc)
import Glibc
#endif
import CommandLineParsing
import EvdevInput
import GestureConfig
import GestureCore

/// `gestured devices`: every input device, what it is, and whether the selector picks it.
struct Devices: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "devices",
        abstract: "List input devices: name, path, properties, and whether gestured would pick each one and why not.",
        discussion: """
            For every device: what it is and what decided it (udev's database, or udev's input_id rule \
            over its capabilities), the position axes gestured reads, the calibration matrix it applies \
            and where that comes from, and whether `device: "auto"` (the first touchscreen) picks it and \
            why not. With --config, the configuration's device.type, device.axes and screen.calibration \
            apply, and a line says whether the configured device is this one; with --device, whether \
            that path is. A device another program holds exclusively (EVIOCGRAB, as gestured.service \
            does with grab: true) says so and who has it open. A device that cannot be opened for lack \
            of rights is listed as such, the command says what to run, and exits with status 1.
            """)

    static var arguments: [Argument<Self>] {
        [.option("config", \.config, help: "Give the verdicts for this configuration's device."),
         .option("device", \.device, help: "Give the verdicts for this device path instead."),
         .option("directory", \.directory, help: "The directory of evdev nodes.")]
    }

    var config: String?
    var device: String?
    var directory = DeviceDirectory.defaultPath

    func run() throws {
        var match = DeviceSelector.auto
        var overrides = DeviceOverrides.none
        var calibration: CalibrationMatrix?
        /// With `screens`: every screen, to say which panel each gets and why.
        var screens: [ScreenConfiguration] = []
        if let config {
            let configuration = try loadConfiguration(config)
            if configuration.hasScreensSection { screens = configuration.screens }
            match = configuration.device
            overrides = configuration.deviceOverrides
            calibration = configuration.screen.calibration
        }
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
        let autoVerdicts = DeviceSelector.auto.verdicts(for: entries)
        let verdicts = match == .auto ? autoVerdicts : match.verdicts(for: entries)
        let screenVerdicts = screens.map { $0.device.verdicts(for: entries) }
        var unreadable: [String] = []
        for (index, (auto, verdict)) in zip(autoVerdicts, verdicts).enumerated() {
            let entry = verdict.entry
            guard let description = entry.description else {
                if let error = entry.error, error.isPermissionDenied {
                    // The advice once, after the list, not once per device.
                    unreadable.append(entry.path)
                    lines.append("\(entry.path): not readable by uid \(getuid()) (\(error.errno.map { "\($0)" } ?? "permission denied"))")
                } else {
                    lines.append("\(entry.path): \(entry.error.map { "\($0)" } ?? "unreadable")")
                }
                lines.append("  auto: no (\(auto.reason))")
                if match != .auto { lines.append("  configured device: no (\(verdict.reason))") }
                continue
            }
            // The configuration's type and axes are for the device it selects.
            let applied = verdict.isPicked ? overrides : .none
            lines.append("\(entry.path): \"\(description.name)\" (bus \(hex(description.bus)) vendor "
                + "\(hex(description.vendor)) product \(hex(description.product)))")
            if entry.isPanelCopy {
                lines.append("  gestured's copy: yes, the virtual panel gestured writes forwarded touches to (phys "
                    + "\"\(entry.phys ?? "")\"); never read")
            }
            let properties = description.properties.sorted().map(InputProperty.name)
            lines.append("  properties: " + (properties.isEmpty ? "none" : properties.joined(separator: ", ")))
            let classification = applied.classify(description, udevProperties: entry.udevProperties)
            let basis = switch classification.basis {
            case .udevDatabase: "udev's database (/run/udev/data)"
            case .capabilities: "udev's input_id rule over the capabilities (no udev database entry)"
            case .configuration: "the configuration's device.type"
            }
            lines.append("  kind: \(kind(classification)) (\(classification.reason))")
            lines.append("  classified by: \(basis)")
            lines.append("  axes: " + axes(description, applied.axes))
            let used = DeviceCalibration(configured: calibration, udevProperties: entry.udevProperties)
            lines.append("  calibration: \(used.summary)" + (used.ignoredUdevValue.map { "; \($0)" } ?? ""))
            lines.append("  auto: \(auto.isPicked ? "yes" : "no") (\(auto.reason))")
            if !entry.isPanelCopy, PanelHold.probe(path: entry.path) == .held {
                lines.append("  held: " + PanelHold.heldAdvice(path: entry.path))
            }
            if match != .auto && screens.isEmpty {
                lines.append("  configured device: \(verdict.isPicked ? "yes" : "no") (\(verdict.reason))")
            }
            if !screens.isEmpty {
                // What the screens' selectors match on (docs/configuration.md, "Screens").
                lines.append("  identity: " + DeviceIdentity.keys(of: entry))
                for (screen, verdicts) in zip(screens, screenVerdicts) {
                    let screenVerdict = verdicts[index]
                    lines.append("  screen \(screen.id): \(screenVerdict.isPicked ? "yes" : "no") (\(screenVerdict.reason))")
                }
            }
        }
        // Which panel each screen gets, and why (the daemon starts each screen on that panel).
        for (screen, verdicts) in zip(screens, screenVerdicts) {
            if let ambiguity = screen.device.ambiguity(in: entries) {
                lines.append("screen \(screen.id): no panel: \(ambiguity)")
            } else if let picked = verdicts.first(where: \.isPicked) {
                lines.append("screen \(screen.id): \(picked.entry.path) \"\(picked.entry.description?.name ?? "")\" "
                    + "(\(picked.reason))")
            } else {
                lines.append("screen \(screen.id): no panel yet (none matches \(screen.device)); it waits for it")
            }
        }
        try printOutput(lines.joined(separator: "\n") + "\n")
        if !unreadable.isEmpty {
            throw failure("gestured devices: \(unreadable.count) of \(entries.count) devices could not be opened by uid "
                + "\(getuid()), so the list is incomplete: "
                + EvdevError.permissionAdvice(command: (["gestured"] + CommandLine.arguments.dropFirst()).joined(separator: " ")) + ".")
        }
    }

    /// The position axes gestured reads, with their ranges and resolutions, and why those.
    private func axes(_ description: DeviceDescription, _ overrides: AxisOverrides) -> String {
        let remap: AxisRemap
        do {
            remap = try AxisRemap(description, overrides: overrides)
        } catch {
            return "unusable: \(error)"
        }
        let read = remap.description
        let multitouch = read.reportsMultitouchPositions
        let targets = multitouch ? (AbsCode.mtPositionX, AbsCode.mtPositionY) : (AbsCode.x, AbsCode.y)
        guard read.absInfo[targets.0] != nil || read.absInfo[targets.1] != nil else { return "none" }
        func axis(_ label: String, source: UInt16, target: UInt16) -> String {
            guard let info = read.absInfo[target] else { return "\(label) none (\(AbsCode.name(source)) is not declared)" }
            let resolution = info.resolution > 0 ? "\(info.resolution) units/mm" : "no resolution"
            return "\(label) \(AbsCode.name(source)) \(info.minimum)...\(info.maximum) (\(resolution))"
        }
        let configured = overrides == .none ? "" : " (the configuration's device.axes)"
        return axis("x", source: remap.positionCodes.x, target: targets.0) + ", "
            + axis("y", source: remap.positionCodes.y, target: targets.1) + configured
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
