import GestureConfig
import GestureCore
import GestureServer
import Logging

/// One screen's pipeline as the ``ServerHost`` reaches into it between two inputs: the live
/// daemon's ``LiveRunner``, a socket replay's ``ReplayScreen``. Each method that changes the
/// pipeline first hands on what it produced so far, then returns the event it makes (encoded
/// in the daemon's one stream, with the screen's id when there are several) instead of
/// publishing it: the socket server publishes what its owner returns.
protocol HostedPipeline: AnyObject {
    /// What a new layout's recognizers are made with now (``PreparedLayout/Basis``).
    var layoutBasis: PreparedLayout.Basis { get }
    /// What they would be made with on a screen of `rotation` and `size`.
    func basis(rotation: ScreenRotation, size: Size) -> PreparedLayout.Basis
    /// The layout in force.
    var tree: ViewTree { get }
    /// The screen touches that begin now are mapped onto.
    var screen: ScreenGeometry { get }
    func replaceLayout(_ prepared: PreparedLayout, revision: Int, hash: LayoutHash, message: String) -> JSONLinesBatch
    func setScreen(rotation: ScreenRotation, size: Size, message: String, prepared: PreparedLayout?) -> JSONLinesBatch
    func hitTest(_ point: Point) -> HitTestEvent
    /// The stream's `warning`s for `messages`.
    func encodeWarnings(_ messages: [String]) -> JSONLinesBatch
}

extension LiveRunner: HostedPipeline {}

/// What a driver of the ``ServerHost`` (the live daemon, a socket replay) answers itself.
protocol ServerHostDriver: AnyObject {
    /// The input side of `status`: the devices, or the recordings.
    func inputStatus() -> InputStatus
    /// The service manager's `STATUS=` line.
    var statusLine: String { get }
    /// The server's clients changed (``EventServerOwner/serverChanged(_:)``).
    func serverChanged(_ change: ServerChange)
    /// A layout is about to replace screen `screen`'s (a replay's `--wait-layout` waits for one).
    func willReplaceLayout(screen: Int, reason: String)
}

/// The server's owner, implemented once for the live daemon and a socket replay (issue 30:
/// they repeated each other): it carries out the requests that reach into the engines —
/// `layout.set`, `view.update`, `screen.set`, `hitTest`, `reload` — on the screen each names
/// (docs/protocol.md, "Several screens"), keeps each screen's layout and revision
/// (``RunningLayout``), and hands the events they make to the server through the one
/// ``ServerSink``. A request for one screen reaches only that screen's pipeline. What differs
/// between the drivers (their input status, service status and how they react to clients)
/// is the ``ServerHostDriver``'s.
final class ServerHost: EventServerOwner {
    /// The configuration the process started with: a reload compares the file with it.
    let configuration: Configuration
    let screenIDs: [String]
    private let screens: [RunningLayout]
    private let pipelines: [any HostedPipeline]
    private let sink: ServerSink
    private let notifier: ServiceNotifier
    private let logger: Logger
    weak var driver: (any ServerHostDriver)?

    /// - Parameter screens: the screens served, each with its configuration and its pipeline,
    ///   in the configuration's order.
    init(configuration: Configuration, screens: [(configuration: ScreenConfiguration, pipeline: any HostedPipeline)],
         sink: ServerSink, notifier: ServiceNotifier, logger: Logger) {
        precondition(!screens.isEmpty, "a host serves at least one screen")
        self.configuration = configuration
        screenIDs = screens.map(\.configuration.id)
        let named = screens.count > 1
        self.screens = screens.map { RunningLayout(screen: $0.configuration, logger: named ? logger.screen($0.configuration.id) : logger) }
        pipelines = screens.map(\.pipeline)
        self.sink = sink
        self.notifier = notifier
        self.logger = logger
    }

    /// Screen `screen`'s layout revision (`status`).
    func revision(of screen: Int) -> Int { screens[screen].revision }

    // MARK: EventServerOwner

    func currentLayout(screen: Int) -> ViewSpec { screens[screen].layout }

    func layoutBasis(screen: Int) -> PreparedLayout.Basis { pipelines[screen].layoutBasis }

    func layoutRevision(screen: Int) -> Int { screens[screen].revision }

    func replaceLayout(screen: Int, _ layout: ViewSpec, prepared: PreparedLayout?, reason: String) -> LayoutReplacement {
        driver?.willReplaceLayout(screen: screen, reason: reason)
        var replaced = ReleasedStorage()
        let revision = screens[screen].replace(with: layout, reason: reason, released: &replaced)
        let pipeline = pipelines[screen]
        var output = pipeline.replaceLayout(prepared ?? PreparedLayout(tree: ViewTree(validated: layout), basis: pipeline.layoutBasis),
                                            revision: revision, hash: screens[screen].hash, message: "layout replaced: \(reason)")
        var events = sink.forServer(&output)
        events.released.add(contentsOf: replaced)
        return LayoutReplacement(revision: revision, events: events)
    }

    func setScreen(screen: Int, rotation: ScreenRotation, width: Double?, height: Double?, reason: String,
                   prepared: PreparedLayout?) -> ScreenReplacement {
        let pipeline = pipelines[screen]
        let wanted = screens[screen].setScreen(rotation: rotation, width: width, height: height, current: pipeline.screen,
                                               reason: reason)
        let events = applyScreen(screen, rotation: wanted.rotation, size: wanted.size, message: "screen set: \(reason)",
                                 prepared: prepared)
        return ScreenReplacement(screen: pipeline.screen, events: events)
    }

    func screenWork(screen: Int, rotation: ScreenRotation, width: Double?, height: Double?) -> (@Sendable () -> PreparedLayout)? {
        // Read in place: a copy of a replay's pipeline would share, and then copy, the arena's slots.
        let pipeline = pipelines[screen]
        let basis = pipeline.basis(rotation: rotation, size: RunningLayout.size(width: width, height: height, current: pipeline.screen))
        guard basis != pipeline.layoutBasis else { return nil }
        let tree = pipeline.tree
        return { PreparedLayout(tree: tree, basis: basis) }
    }

    /// Screen `screen`'s pipeline takes the screen and announces it in the stream.
    private func applyScreen(_ screen: Int, rotation: ScreenRotation, size: Size, message: String,
                             prepared: PreparedLayout? = nil) -> EncodedEvents {
        var output = pipelines[screen].setScreen(rotation: rotation, size: size, message: message, prepared: prepared)
        return sink.forServer(&output)
    }

    func hitTest(screen: Int, _ point: Point) -> HitTestEvent {
        pipelines[screen].hitTest(point)
    }

    func inputStatus() -> InputStatus {
        var status = driver?.inputStatus() ?? InputStatus(source: "none", device: nil, path: nil, layoutRevision: screens[0].revision,
                                                          activeTouches: 0, frames: 0, time: 0, screen: pipelines[0].screen)
        // The first screen's, beside its revision (docs/protocol.md, "status").
        status.layoutHash = screens[0].hash
        return status
    }

    func announce(_ notices: [ServerNotice]) -> EncodedEvents {
        var output = pipelines[0].encodeWarnings(notices.map(\.message))
        return sink.forServer(&output)
    }

    func serverChanged(_ change: ServerChange) {
        driver?.serverChanged(change)
    }

    // MARK: Reloading

    /// Reads the configuration file and prepares each screen's layout for its basis where it
    /// differs from the running one: the part of a reload that runs off the loop.
    func reloadWork() -> @Sendable () -> ReloadPreparation {
        let file = configuration.file, ids = screenIDs
        let running = screens.map(\.layout), revisions = screens.map(\.revision), bases = pipelines.map(\.layoutBasis)
        return {
            let loaded = Result { () throws(ConfigurationError) in try ConfigurationLoader.loadForReload(path: file) }
            var layouts = [PreparedLayout?](repeating: nil, count: ids.count)
            var invalid: [String: ConfigurationError] = [:]
            if case .success(let fresh) = loaded {
                invalid = fresh.invalidLayouts
                for (index, id) in ids.enumerated() where invalid[id] == nil {
                    guard let screen = fresh.configuration.screen(id: id), screen.layout != running[index] else { continue }
                    layouts[index] = PreparedLayout(tree: ViewTree(validated: screen.layout), basis: bases[index])
                }
            }
            return ReloadPreparation(revisions: revisions, bases: bases, configuration: loaded.map(\.configuration),
                                     layouts: layouts, invalidLayouts: invalid)
        }
    }

    /// Re-reads the configuration file (SIGHUP, `reload`), telling the service manager
    /// (`RELOADING=1`, then `READY=1` with the status line) and the log: with what
    /// ``reloadWork()`` made for the running layouts (`prepared`), or here. Each screen's
    /// layout that differs from its running one replaces it; a screen `screen.set` changed gets
    /// its configured geometry back; a screen whose layout alone is invalid (several screens)
    /// keeps its layout and the reply says why, naming it; any other problem changes nothing.
    func reload(origin: String, prepared: ReloadPreparation?) -> ReloadOutcome {
        notifier.reloading()
        defer { notifier.ready(status: driver?.statusLine ?? "") }
        let fresh: Configuration
        let invalid: [String: ConfigurationError]
        do throws(ConfigurationError) {
            if let prepared {
                fresh = try prepared.configuration.get()
                invalid = prepared.invalidLayouts
            } else {
                let loaded = try ConfigurationLoader.loadForReload(path: configuration.file)
                fresh = loaded.configuration
                invalid = loaded.invalidLayouts
            }
        } catch {
            logger.error("the new configuration is invalid; the running one is kept", metadata: [
                "origin": "\(origin)", "problems": "\(error.description)",
            ])
            return ReloadOutcome(result: .failure(error))
        }
        let needsRestart = ReloadReport.changesNeedingRestart(from: configuration, to: fresh)
        var events = EncodedEvents()
        var reports: [ScreenReload] = []
        for index in screens.indices {
            let id = screenIDs[index], running = screens[index]
            var changed = false
            var kept: ScreenReload.KeptLayout?
            if let error = invalid[id] {
                let count = error.problems.count
                kept = .init(message: "screen \(id) keeps its layout (revision \(running.revision)): the file's layout for it has "
                    + "\(count) problem\(count == 1 ? "" : "s"): " + error.problems.map(\.description).joined(separator: "; "),
                             problems: error.layoutProblems)
                logger.error("a screen's new layout is invalid; it keeps its running one, the other screens reload", metadata: [
                    "origin": "\(origin)", "screen": "\(id)", "problems": "\(error.description)",
                ])
            } else if let screen = fresh.screen(id: id) {
                // Compared off the loop when prepared there (10,000 views are a long comparison).
                changed = prepared.map { $0.layouts[index] != nil } ?? (screen.layout != running.layout)
                if changed {
                    events.append(contentsOf: replaceLayout(screen: index, screen.layout, prepared: prepared?.layouts[index],
                                                            reason: "configuration reloaded from \(fresh.file)").events)
                }
            }
            if running.screenIsSet {
                running.screenIsSet = false
                let configured = running.configured.screen
                events.append(contentsOf: applyScreen(index, rotation: configured.rotation, size: configured.size,
                                                      message: "screen restored from the configuration by a reload"))
            }
            reports.append(ScreenReload(id: id, revision: running.revision, layoutChanged: changed, keptLayout: kept))
        }
        let changed = reports.contains(where: \.layoutChanged)
        logger.info("configuration reloaded", metadata: [
            "origin": "\(origin)", "revision": "\(screens[0].revision)", "layoutChanged": "\(changed)",
        ])
        for note in needsRestart {
            logger.notice("a configuration change takes effect only after a restart", metadata: ["change": "\(note)"])
        }
        let report = ReloadReport(revision: screens[0].revision, layoutChanged: changed, socket: fresh.socket,
                                  needsRestart: needsRestart, screens: screens.count > 1 ? reports : [])
        return ReloadOutcome(result: .success(report), events: events)
    }
}

@available(*, unavailable, message: "a ServerHost lives on its event loop's thread")
extension ServerHost: Sendable {}
