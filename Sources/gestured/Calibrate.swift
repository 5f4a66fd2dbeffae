#if canImport(Glibc)
import Glibc
#endif
import CommandLineParsing
import EvdevInput
import GestureConfig
import GestureCore
import GestureSystem
import Recordings
import SystemPackage

/// `gestured calibrate`: shows targets one at a time, reads the panel's raw touches, refuses
/// misclicks, fits libinput's calibration matrix by least squares and writes it as a udev rule
/// that libinput and gestured both read (docs/command-line.md, "gestured calibrate"). The
/// mathematics is ``CalibrationFit`` and ``CalibrationSession`` (pure, in GestureConfig).
struct Calibrate: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "calibrate",
        abstract: "Calibrate a touch panel: touch the targets; writes LIBINPUT_CALIBRATION_MATRIX as a udev rule.",
        discussion: """
            Shows --points targets (4: the corners inset by 1/8, as xinput_calibrator; 5 adds the \
            centre; up to 9) one at a time: on standard error (where to touch, in pixels) and, with \
            --page, on a full-screen page served at http://127.0.0.1:PORT/. Reads the \
            panel's own coordinates (before any calibration), ignores double taps and refuses \
            misclicks (a touch further than --misclick pixels from where the others put it: the \
            target is shown again), then fits the matrix [a b c d e f] that maps the panel's \
            normalised coordinates onto the screen's by least squares, prints each point's \
            residual error and the RMS, and writes a udev rule setting \
            ENV{LIBINPUT_CALIBRATION_MATRIX} for the panel, matched as gestured map matches it \
            (to standard output with --print, the default, or to --write-rule FILE). The touches \
            come from the panel of --config's screen (--screen ID with several), --device, the \
            only panel, or the first panel touched; or from an evemu recording (--from-recording). \
            Exit status 0 when a matrix was written, 1 otherwise.
            """)

    static var arguments: [Argument<Self>] {
        [.option("config", \.config, help: "Take the screen's size and panel from this configuration."),
         .option("screen", \.screen, valueName: "id", help: "With a configuration of several screens: the screen to calibrate."),
         .option("size", \.size, valueName: "WxH", help: "The screen in pixels, without --config (such as 1920x1080)."),
         .option("points", \.points, parsing: .unconditional,
                 help: "How many targets (\(CalibrationFit.pointCount.lowerBound) to \(CalibrationFit.pointCount.upperBound))."),
         .option("misclick", \.misclick, valueName: "pixels", parsing: .unconditional,
                 help: "Refuse a touch this far from where the others put it (\(CalibrationFit.misclickPixels.lowerBound) to "
                     + "\(CalibrationFit.misclickPixels.upperBound))."),
         .option("write-rule", \.writeRule, valueName: "file", help: "Write the udev rule to this .rules file."),
         .flag("print", \.print, help: "Print the udev rule on standard output (the default)."),
         .option("from-recording", \.fromRecording, valueName: "file",
                 help: "Take the touches from this evemu recording instead of the live panel."),
         .option("device", \.device, valueName: "path", help: "The panel to calibrate (an evdev node)."),
         .option("timeout", \.timeout, valueName: "seconds", parsing: .unconditional,
                 help: "How long to wait for each target's touch (1 to \(Map.maximumTimeout))."),
         .option("page", \.page, valueName: "port", parsing: .unconditional,
                 help: "Also show the targets on a full-screen page at http://127.0.0.1:PORT/ (\(CalibratePage.ports.lowerBound) to "
                     + "\(CalibratePage.ports.upperBound))."),
         .flag("grab", \.grab, help: "Take the panel from the desktop while calibrating (EVIOCGRAB), so touches are not clicks."),
         .option("directory", \.directory, help: "The directory of evdev nodes.")]
    }

    var config: String?
    var screen: String?
    var size: String?
    var points = CalibrationFit.pointCount.lowerBound
    var misclick = CalibrationFit.defaultMisclickPixels
    var writeRule: String?
    var print = false
    var fromRecording: String?
    var device: String?
    var timeout = 60
    var page: Int?
    var grab = false
    var directory = DeviceDirectory.defaultPath

    /// Where the rule goes: after `gestured map`'s `61-gestured-screens.rules`, so its matrix wins.
    static let suggestedPath = "/etc/udev/rules.d/62-gestured-calibration.rules"

    func validate() throws(ValidationError) {
        guard CalibrationFit.pointCount.contains(points) else {
            throw ValidationError("--points is \(points); use \(CalibrationFit.pointCount.lowerBound) to "
                + "\(CalibrationFit.pointCount.upperBound) targets")
        }
        guard CalibrationFit.misclickPixels.contains(misclick) else {
            throw ValidationError("--misclick is \(misclick); use \(CalibrationFit.misclickPixels.lowerBound) to "
                + "\(CalibrationFit.misclickPixels.upperBound) pixels")
        }
        guard (1...Map.maximumTimeout).contains(timeout) else {
            throw ValidationError("--timeout is \(timeout); use 1 to \(Map.maximumTimeout) seconds per target")
        }
        switch (config, size) {
        case (nil, nil): throw ValidationError("give the screen: --config FILE (its screen) or --size WxH (such as 1920x1080)")
        case (_?, _?): throw ValidationError("--config and --size both give the screen; give one of them")
        case (nil, let size?): _ = try Self.parseSize(size)
        case (_?, nil): break
        }
        if screen != nil, config == nil { throw ValidationError("--screen names a screen of --config; give --config too") }
        if writeRule != nil, print { throw ValidationError("--write-rule and --print both say where the rule goes; give one of them") }
        if let writeRule {
            guard writeRule.hasSuffix(".rules"), writeRule.utf8.count > ".rules".utf8.count else {
                throw ValidationError("--write-rule \(writeRule): udev reads only files whose names end in .rules; "
                    + "use \(Self.suggestedPath)")
            }
        }
        if let page {
            guard CalibratePage.ports.contains(page) else {
                throw ValidationError("--page is \(page); use a port from \(CalibratePage.ports.lowerBound) to "
                    + "\(CalibratePage.ports.upperBound)")
            }
            if fromRecording != nil {
                throw ValidationError("--page shows the targets of a live panel; a recording's touches need none (leave out --page)")
            }
        }
        if fromRecording != nil, device != nil {
            throw ValidationError("--from-recording and --device both say where the touches come from; give one of them")
        }
        if let fromRecording, fromRecording.isEmpty { throw ValidationError("--from-recording is empty; name the recording") }
    }

    /// `WxH`, each side 1 to ``CalibrationFit/screenSide``'s upper bound.
    static func parseSize(_ text: String) throws(ValidationError) -> (width: Double, height: Double) {
        let parts = text.split(separator: "x", omittingEmptySubsequences: false)
        let limit = Int(CalibrationFit.screenSide.upperBound)
        guard parts.count == 2, let width = Int(parts[0]), let height = Int(parts[1]),
              (1...limit).contains(width), (1...limit).contains(height) else {
            throw ValidationError("--size \(text): use WIDTHxHEIGHT in pixels, each 1 to \(limit), such as 1920x1080")
        }
        return (Double(width), Double(height))
    }

    /// The screen being calibrated: its size, id, output, and what the configuration says of it.
    struct Target {
        var width: Double
        var height: Double
        var id: String?
        var output: String?
        var rotation: ScreenRotation = .none
        var configuredCalibration: CalibrationMatrix?
        var selector: DeviceSelector?
        /// The configuration's `device.axes`: gestured reads the panel through them.
        var axes: AxisOverrides = .none
    }

    func run() throws {
        let target = try resolveTarget()
        var session = CalibrationSession(pointCount: points, width: target.width, height: target.height, misclickPixels: misclick)
        // The panel, and every panel it must be told apart from (as `gestured map` chooses the keys).
        let identities: [PanelIdentity]
        let name: String
        var pageServer: CalibratePage?
        var liveReader: CalibrateLive?
        if let fromRecording {
            // Streamed, as gestured replay reads it: memory does not grow with the recording.
            var stream: RecordingStream
            do {
                stream = try RecordingReader.open(path: fromRecording)
            } catch {
                throw failure("gestured calibrate: \(error)")
            }
            guard let description = stream.description else {
                throw failure("gestured calibrate: \(fromRecording): the recording has no device description (its axis "
                    + "ranges are needed to normalise the touches); record with gestured record or evemu-record")
            }
            var reader = try touchReader(description, target)
            announce(session, page: nil)
            do {
                while session.current != nil, let event = try stream.next() {
                    if let touch = reader.take(event) { take(touch, &session, page: nil) }
                }
            } catch {
                throw failure("gestured calibrate: \(error)")
            }
            identities = [PanelIdentity(description: description, udevProperties: stream.udevProperties, phys: nil)]
            name = description.name
        } else {
            let panel = try choosePanel(target)
            guard let description = panel.entry.description else {
                throw failure("gestured calibrate: \(panel.entry.path) cannot be read")
            }
            let reader = try touchReader(description, target)
            let live = try CalibrateLive(path: panel.entry.path, grab: grab)
            var shown: CalibratePage?
            if let page {
                do {
                    shown = try CalibratePage(port: page, loop: live.loop)
                } catch {
                    throw failure("gestured calibrate: --page \(page): \(error); choose another port")
                }
                printError("gestured calibrate: the targets are shown at http://127.0.0.1:\(page)/ (open it full screen on the kiosk)")
            }
            do {
                try live.read(&session, reader: reader, timeoutSeconds: timeout) { session, touch in
                    take(touch, &session, page: shown)
                } announce: { session in
                    announce(session, page: shown)
                }
            } catch {
                shown?.show(.stopped(reason: "nothing was written; see gestured calibrate's messages"))
                if shown != nil { live.serveBriefly() }
                throw error
            }
            pageServer = shown
            liveReader = live
            identities = panel.identities
            name = description.name
        }
        guard session.current == nil else {
            throw failure("gestured calibrate: \(session.samples.count) of \(session.targets.count) targets were touched; "
                + "nothing was written")
        }
        let fit: CalibrationFit.Result
        switch session.result() {
        case .success(let result): fit = result
        case .failure(let problem):
            pageServer?.show(.stopped(reason: "\(problem)"))
            if pageServer != nil { liveReader?.serveBriefly() }
            throw failure("gestured calibrate: \(problem); nothing was written")
        }
        pageServer?.show(.finished(matrix: Self.rounded(fit.matrix), rmsPixels: fit.rmsPixels))
        report(fit, target)
        try writeRule(fit.matrix, target: target, identities: identities, name: name)
        // The page asks five times a second: long enough for it to show the result.
        if pageServer != nil { liveReader?.serveBriefly() }
    }

    private func touchReader(_ description: DeviceDescription, _ target: Target) throws -> CalibrationTouchReader {
        if target.axes != .none {
            printError("gestured calibrate: the panel is read through the configuration's device.axes, as gestured reads "
                + "it; libinput reads the axes the panel declares, so the matrix is right for gestured and not for the "
                + "desktop (put it in screen.calibration if the desktop does not use the panel)")
        }
        switch CalibrationTouchReader.make(for: description, axes: target.axes) {
        case .success(let reader): return reader
        case .failure(let problem): throw failure("gestured calibrate: \(problem)")
        }
    }

    /// The prompt for the current target.
    private func announce(_ session: CalibrationSession, page: CalibratePage?) {
        guard let index = session.current else { return }
        let point = session.targets[index]
        printError("gestured calibrate: touch target \(index + 1) of \(session.targets.count) at ("
            + "\(Int((point.u * session.width).rounded())), \(Int((point.v * session.height).rounded()))) px")
        page?.show(.target(index: index, count: session.targets.count, point: point))
    }

    private func take(_ touch: CalibrationTouchReader.Touch, _ session: inout CalibrationSession, page: CalibratePage?) {
        switch touch {
        case .multiple:
            printError("gestured calibrate: more than one finger was down; touch the target with one finger")
        case .single(let point, let time):
            let index = session.current ?? 0
            switch session.touch(point, at: time) {
            case .accepted:
                printError("gestured calibrate: target \(index + 1): touched at (\(CalibrationSession.rounded(point.u)), "
                    + "\(CalibrationSession.rounded(point.v))) of the panel")
                announce(session, page: page)
            case .ignored(let reason):
                printError("gestured calibrate: ignored: \(reason)")
            case .refused(let reason):
                printError("gestured calibrate: target \(index + 1): misclick refused, \(reason); touch it again")
                announce(session, page: page)
            case .complete:
                break
            }
        }
    }

    /// The residuals, on standard error.
    private func report(_ fit: CalibrationFit.Result, _ target: Target) {
        printError("gestured calibrate: the matrix: \(fit.matrix.values.map(MapUdevRule.number).joined(separator: " "))")
        for (index, residual) in fit.residuals.enumerated() {
            printError("  target \(index + 1) at (\(Int((residual.target.u * target.width).rounded())), "
                + "\(Int((residual.target.v * target.height).rounded()))) px: residual \(Self.fixed(residual.pixels, 2)) px, "
                + "\(Self.fixed(residual.normalised, 5)) normalised")
        }
        printError("  RMS: \(Self.fixed(fit.rmsPixels, 2)) px, \(Self.fixed(fit.rmsNormalised, 5)) normalised")
    }

    /// `value` with `digits` decimals.
    static func fixed(_ value: Double, _ digits: Int) -> String {
        guard value.isFinite else { return "\(value)" }
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale), fraction = String(scaled % Int64(scale))
        return (value < 0 && scaled != 0 ? "-" : "") + "\(whole)." + String(repeating: "0", count: digits - fraction.count) + fraction
    }

    /// The matrix's coefficients rounded to 6 decimals (a millionth of the panel: far below a
    /// pixel), so the rule reads well and reads back the same.
    static func rounded(_ matrix: CalibrationMatrix) -> [Double] {
        matrix.values.map { value in
            let rounded = (value * 1_000_000).rounded() / 1_000_000
            return rounded == 0 ? 0 : rounded
        }
    }

    /// The rule, matched as `gestured map` matches the panel, printed or written whole.
    /// `identities[0]` is the panel calibrated, the others the panels plugged in beside it.
    private func writeRule(_ matrix: CalibrationMatrix, target: Target, identities: [PanelIdentity], name: String) throws {
        let values = Self.rounded(matrix)
        let match: PanelMatch
        switch PanelMatch.choose(for: 0, among: identities) {
        case .success(let chosen): match = chosen
        case .failure(let ambiguity): throw failure("gestured calibrate: the panel cannot be matched in a rule: \(ambiguity)")
        }
        let screen = MapScreen(id: target.id ?? "", output: nil, calibration: values)
        let line: String
        switch MapUdevRule.line(screen, match, setsScreen: target.id != nil) {
        case .success(let rule): line = rule
        case .failure(let problem): throw failure("gestured calibrate: the panel cannot be matched in a rule: \(problem.message)")
        }
        let text = "# gestured calibrate: the calibration of \(MapFragment.quoted(name)) (docs/configuration.md, "
            + "\"Calibrating a panel: gestured calibrate\"); matched by \(match.reason).\n"
            + "# Install as \(Self.suggestedPath), then: udevadm control --reload && udevadm trigger --subsystem-match=input\n"
            + line + "\n"
        if let writeRule {
            do {
                try WholeFileWriter.writeWhole([(writeRule, text)])
            } catch {
                throw failure("gestured calibrate: \(error); nothing was written")
            }
            printError("gestured calibrate: wrote \(writeRule)")
        } else {
            try printOutput(text)
        }
        printError("gestured calibrate: to apply it: sudo udevadm control --reload && sudo udevadm trigger "
            + "--subsystem-match=input, then restart gestured (systemctl restart gestured) and the desktop session")
        if let configured = target.configuredCalibration {
            printError("gestured calibrate: the configuration's screen.calibration [\(configured.values.map(MapUdevRule.number).joined(separator: ", "))] "
                + "takes precedence over udev's in gestured: replace it with calibration: [\(values.map(MapUdevRule.number).joined(separator: ", "))] "
                + "or remove it")
        }
        if target.rotation != .none {
            printError("gestured calibrate: the matrix maps the panel onto the screen as it is mounted (libinput has no "
                + "rotation of its own); gestured applies screen.rotation \(target.rotation.rawValue) after it, so set "
                + "rotation: 0 in the configuration")
        }
    }

    private func resolveTarget() throws -> Target {
        if let size {
            let (width, height) = try Self.parseSize(size)
            return Target(width: width, height: height)
        }
        guard let config else { throw failure("gestured calibrate: give --config or --size") }
        let configuration = try loadConfiguration(config)
        let chosen: ScreenConfiguration
        if let screen {
            guard let found = configuration.screens.first(where: { $0.id == screen }) else {
                throw failure("gestured calibrate: --screen \(screen): \(config) has the screens "
                    + configuration.screens.map { "\"\($0.id)\"" }.joined(separator: ", "))
            }
            chosen = found
        } else {
            guard configuration.screens.count == 1, let only = configuration.screens.first else {
                throw failure("gestured calibrate: \(config) has \(configuration.screens.count) screens; name one with --screen ("
                    + configuration.screens.map(\.id).joined(separator: ", ") + ")")
            }
            chosen = only
        }
        let geometry = chosen.screen
        return Target(width: geometry.size.width, height: geometry.size.height,
                      id: configuration.hasScreensSection ? chosen.id : nil, output: chosen.output,
                      rotation: geometry.rotation, configuredCalibration: geometry.calibration, selector: chosen.device,
                      axes: chosen.deviceOverrides.axes)
    }

    /// The panel: --device, the configuration's screen's, the only one, or the first touched
    /// (as `gestured map` binds a screen).
    private func choosePanel(_ target: Target) throws -> (entry: DeviceEntry, identities: [PanelIdentity]) {
        let entries = DeviceDirectory.entries(in: directory)
        let panels = entries.filter { $0.classification?.kind == .touchscreen && !$0.isPanelCopy }
        func identified(_ entry: DeviceEntry) throws -> (entry: DeviceEntry, identities: [PanelIdentity]) {
            guard let identity = PanelIdentity(entry) else {
                throw failure("gestured calibrate: \(entry.path) cannot be read"
                    + (entry.error.map { " (\($0))" } ?? "") + "; see gestured devices")
            }
            let others = panels.filter { $0.path != entry.path }.compactMap(PanelIdentity.init)
            return (entry, [identity] + others)
        }
        if let device {
            let resolved = DeviceDirectory.resolve(device) ?? device
            guard let entry = entries.first(where: { $0.path == resolved || $0.path == device }) else {
                throw failure("gestured calibrate: --device \(device) is not an evdev node of \(directory); see gestured devices")
            }
            return try identified(entry)
        }
        if let selector = target.selector, config != nil {
            guard let entry = selector.pick(from: entries) else {
                throw failure("gestured calibrate: no device of \(directory) matches the screen's device; see gestured devices")
            }
            return try identified(entry)
        }
        guard !panels.isEmpty else {
            throw failure("gestured calibrate: no touch panel in \(directory); plug it in, and see gestured devices")
        }
        if panels.count == 1 { return try identified(panels[0]) }
        printError("gestured calibrate: \(panels.count) touch panels; touch the screen to calibrate")
        let session = try MapSession(panels: panels, grab: false)
        let touched = try session.bind([MapScreen(id: "calibrate")], timeoutSeconds: timeout)
        guard case .touched(let index)? = touched.first else {
            throw failure("gestured calibrate: no panel was touched; name it with --device")
        }
        return try identified(panels[index])
    }
}
