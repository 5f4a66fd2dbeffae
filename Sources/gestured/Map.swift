#if canImport(Glibc)
import Glibc
#endif
import CommandLineParsing
import EvdevInput
import GestureCore
import GestureSystem
import SystemPackage

/// `gestured map`: asks the installer to touch each screen in turn, binds the panel touched to
/// it, and writes the binding as a configuration fragment (and a udev rule): the step that
/// integrators of a kiosk with several panels get stuck on (docs/configuration.md, "Binding
/// panels to screens: `gestured map`").
struct Map: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "map",
        abstract: "Bind touch panels to screens: touch each screen when asked; prints the configuration fragment.",
        discussion: """
            Lists the touch panels (never gestured's own virtual copies), then for each screen (the \
            configuration's screens, or --screens) asks on standard error for a touch on that screen \
            and binds the first panel that gets a new contact; a panel already bound is ignored with a \
            message, a screen not touched within --timeout is reported and the others kept. Prints the \
            screens fragment, each panel matched by the most stable identity that tells the panels \
            apart (ID_PATH, else its serial, else vendor, product and phys), and why. With \
            --udev-rule, also writes a udev rule that gives each panel GESTURED_SCREEN, and the \
            screen's WL_OUTPUT and LIBINPUT_CALIBRATION_MATRIX when the configuration has them. Files \
            are written whole (a temporary file renamed), and not at all when mapping is stopped \
            (Ctrl-C). Exit status 0 when every screen was bound, 1 otherwise (the bound ones are still \
            written). A panel that gestured run holds (grab: true) sends it no events: stop gestured \
            first.
            """)

    static var arguments: [Argument<Self>] {
        [.option("config", \.config, help: "Take the screens (ids, outputs, calibrations) from this configuration."),
         .option("screens", \.screens, valueName: "id,…", help: "The screens to bind, in order, without --config."),
         .option("timeout", \.timeout, valueName: "seconds", parsing: .unconditional,
                 help: "How long to wait for each screen's touch (1 to \(maximumTimeout))."),
         .option("udev-rule", \.udevRule, valueName: "file", help: "Also write the udev rule to this .rules file."),
         .option("output", \.output, valueName: "file", help: "Write the fragment to this file instead of standard output."),
         .flag("grab", \.grab, help: "Take the panels from the desktop while mapping (EVIOCGRAB), so touches are not clicks."),
         .option("directory", \.directory, help: "The directory of evdev nodes.")]
    }

    /// The longest wait for one screen's touch, in seconds (docs/limits.md).
    static let maximumTimeout = 3600

    var config: String?
    var screens: [String] = []
    var timeout = 30
    var udevRule: String?
    var output: String?
    var grab = false
    var directory = DeviceDirectory.defaultPath

    func validate() throws(ValidationError) {
        guard (1...Self.maximumTimeout).contains(timeout) else {
            throw ValidationError("--timeout is \(timeout); use 1 to \(Self.maximumTimeout) seconds per screen")
        }
        switch (config, screens.isEmpty) {
        case (nil, true):
            throw ValidationError("name the screens: --config FILE (its screens) or --screens left,right")
        case (_?, false):
            throw ValidationError("--config and --screens both name the screens; give one of them")
        case (nil, false):
            _ = try MapScreen.list(screenIDs)
        case (_?, true):
            break
        }
        if let output, output.isEmpty { throw ValidationError("--output is empty; name the file for the fragment") }
        if let udevRule {
            guard udevRule.hasSuffix(".rules"), udevRule.utf8.count > ".rules".utf8.count else {
                throw ValidationError("--udev-rule \(udevRule): udev reads only files whose names end in .rules; "
                    + "use \(MapUdevRule.suggestedPath)")
            }
            if udevRule == output { throw ValidationError("--udev-rule and --output name the same file; use two") }
        }
    }

    /// `--screens`, split at commas.
    private var screenIDs: [String] {
        screens.flatMap { $0.split(separator: ",", omittingEmptySubsequences: false).map(String.init) }
    }

    func run() throws {
        let wanted: [MapScreen]
        if let config {
            switch MapScreen.read(configuration: config) {
            case .success(let read): wanted = read
            case .failure(let problems):
                for line in problems.lines { printError(line) }
                throw CommandFailure()
            }
        } else {
            wanted = try MapScreen.list(screenIDs)
        }
        let listed = try listPanels()
        let panels = listed.map(\.entry)
        let identities = listed.map(\.identity)
        let session = try MapSession(panels: panels, grab: grab)
        let touched = try session.bind(wanted, timeoutSeconds: timeout)
        if session.interrupted {
            throw failure("gestured map: stopped before every screen was touched; nothing was written")
        }
        let bindings = zip(wanted, touched).map { screen, panel -> MapBinding in
            switch panel {
            case .touched(let index):
                let entry = panels[index]
                let name = entry.description?.name ?? ""
                switch PanelMatch.choose(for: index, among: identities) {
                case .success(let match): return MapBinding(screen: screen, outcome: .bound(path: entry.path, name: name, match: match))
                case .failure(let ambiguity):
                    let others = ambiguity.others.map { panels[$0].path }.joined(separator: ", ")
                    return MapBinding(screen: screen, outcome: .ambiguous(
                        path: entry.path, name: name, reason: "\(ambiguity) (\(others))"))
                }
            case .none(let reason):
                return MapBinding(screen: screen, outcome: .unbound(reason: reason))
            }
        }
        try write(bindings)
    }

    /// The direct-touch panels of ``directory``, listed on standard error; gestured's own copies
    /// (``DeviceEntry/isPanelCopy``) are left out, as `gestured devices` and `auto` leave them.
    private func listPanels() throws -> [(entry: DeviceEntry, identity: PanelIdentity)] {
        var status = stat()
        guard !directory.isEmpty, stat(directory, &status) == 0, status.st_mode & S_IFMT == S_IFDIR else {
            throw failure("gestured map: --directory \(directory): not a directory; name the directory of the evdev "
                + "nodes (\(DeviceDirectory.defaultPath))")
        }
        let entries = DeviceDirectory.entries(in: directory)
        let panels = entries.compactMap { entry -> (entry: DeviceEntry, identity: PanelIdentity)? in
            guard entry.classification?.kind == .touchscreen, !entry.isPanelCopy, let identity = PanelIdentity(entry) else {
                return nil
            }
            return (entry, identity)
        }
        let copies = entries.filter(\.isPanelCopy).count
        guard !panels.isEmpty else {
            throw failure("gestured map: no touch panel in \(directory)"
                + (copies > 0 ? " (only gestured's own virtual copies, which are never bound)" : "")
                + "; plug the panels in, and see `gestured devices` for what there is")
        }
        printError("gestured map: \(panels.count) touch panel\(panels.count == 1 ? "" : "s")"
            + (copies > 0 ? " (gestured's \(copies) virtual cop\(copies == 1 ? "y" : "ies") left out)" : "") + ":")
        for (panel, identity) in panels {
            printError("  \(panel.path) \(MapFragment.quoted(panel.description?.name ?? "")) \(identity.vendorProduct), "
                + "ID_PATH \(identity.idPath.map(MapFragment.quoted) ?? "none"), "
                + "serial \(identity.serial.map(MapFragment.quoted) ?? "none"), "
                + "phys \(identity.phys.map(MapFragment.quoted) ?? "none")")
        }
        return panels
    }

    /// Prints or writes the fragment, writes the rule, and fails (status 1) when a screen is
    /// left unbound or out of the rule. Nothing is written when no screen was bound.
    private func write(_ bindings: [MapBinding]) throws {
        let unbound = bindings.filter {
            if case .bound = $0.outcome { false } else { true }
        }
        guard unbound.count < bindings.count else {
            throw failure("gestured map: no screen was bound; nothing was written")
        }
        var files: [(path: String, text: String)] = []
        let fragment = MapFragment.text(bindings)
        if let output { files.append((output, fragment)) }
        var ruleProblems: [MapUdevRule.Problem] = []
        if let udevRule {
            let rule = MapUdevRule.text(bindings)
            ruleProblems = rule.problems
            files.append((udevRule, rule.text))
        }
        do {
            try WholeFileWriter.writeWhole(files)
        } catch {
            throw failure("gestured map: \(error); nothing was written")
        }
        if output == nil { try printOutput(fragment) }
        for binding in bindings {
            switch binding.outcome {
            case .bound(let path, _, let match):
                printError("gestured map: screen \"\(binding.screen.id)\": \(path), \(match.reason)")
            case .ambiguous(let path, _, let reason):
                printError("gestured map: screen \"\(binding.screen.id)\" not bound: \(path) was touched, but \(reason)")
            case .unbound(let reason):
                printError("gestured map: screen \"\(binding.screen.id)\" not bound: \(reason)")
            }
        }
        for problem in ruleProblems {
            printError("gestured map: screen \"\(problem.screen)\" is not in the udev rule: \(problem.message)")
        }
        if !unbound.isEmpty {
            printError("gestured map: to bind the rest, run gestured map --screens "
                + unbound.map(\.screen.id).joined(separator: ",") + " and merge its output")
        }
        if !unbound.isEmpty || !ruleProblems.isEmpty { throw CommandFailure() }
    }
}
