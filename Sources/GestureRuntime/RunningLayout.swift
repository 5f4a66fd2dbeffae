import GestureConfig
import GestureCore
import GestureServer
import Logging

/// The layout a driver's engine runs, its revision and the configuration it came from: the
/// part of ``EventServerOwner`` that the live daemon and a socket replay share
/// (`layout.set`, `view.update`, `screen.set`, `reload`). The driver applies the tree or the
/// screen to the engine it owns and encodes the `layout` or `screen` event in its own stream.
final class RunningLayout {
    /// The configuration the process started with: a reload applies the layout and who may
    /// control, and reports the rest as needing a restart.
    let configuration: Configuration
    private(set) var layout: ViewSpec
    /// 1 for the configured layout, one more for every replacement.
    private(set) var revision = 1
    /// True after `screen.set`, until a reload restores the configured screen.
    private(set) var screenIsSet = false
    private let logger: Logger

    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        layout = configuration.layout
    }

    /// Records `layout` as the next revision (the caller gives it to its engine) and returns
    /// the revision, with the layout it replaced added to `released` (a layout of 10,000 views
    /// is milliseconds of `free`, for the caller to place off its loop).
    func replace(with layout: ViewSpec, reason: String, released: inout ReleasedStorage) -> Int {
        var replaced = layout
        swap(&replaced, &self.layout)
        released.add(consume replaced)
        revision += 1
        logger.info("layout replaced", metadata: ["revision": "\(revision)", "reason": "\(reason)"])
        return revision
    }

    /// The screen `screen.set` asks for: `rotation`, and the current size unless it gives one.
    /// The caller applies it; the change is remembered until a reload.
    /// The size `screen.set` asks for: the current one where it gives none.
    static func size(width: Double?, height: Double?, current: ScreenGeometry) -> Size {
        Size(width: width ?? current.size.width, height: height ?? current.size.height)
    }

    func setScreen(rotation: ScreenRotation, width: Double?, height: Double?, current: ScreenGeometry,
                   reason: String) -> (rotation: ScreenRotation, size: Size) {
        screenIsSet = true
        let size = Self.size(width: width, height: height, current: current)
        logger.info("screen set", metadata: [
            "rotation": "\(rotation.degrees)", "width": "\(size.width)", "height": "\(size.height)", "reason": "\(reason)",
        ])
        return (rotation, size)
    }

    /// Reads the configuration file, and prepares its layout for `basis` when it differs from
    /// the running one: the part of a reload that runs off the loop.
    func reloadWork(basis: PreparedLayout.Basis) -> @Sendable () -> ReloadPreparation {
        let file = configuration.file, running = layout, revision = revision
        return {
            let loaded = Result { () throws(ConfigurationError) in try ConfigurationLoader.load(path: file) }
            var prepared: PreparedLayout?
            if case .success(let fresh) = loaded, fresh.layout != running {
                prepared = PreparedLayout(tree: ViewTree(validated: fresh.layout), basis: basis)
            }
            return ReloadPreparation(revision: revision, basis: basis, configuration: loaded, layout: prepared)
        }
    }

    /// Re-reads the configuration file (SIGHUP, `reload`), telling the service manager
    /// (`RELOADING=1`, then `READY=1` with `status`) and the log: with what ``reloadWork(basis:)``
    /// made for the running layout (`prepared`), or here. A layout that differs from the
    /// running one goes to `replaceLayout` (the owner's, which applies it and returns its
    /// encoded `layout` event); an invalid file changes nothing.
    /// A screen set at run time (`screen.set`) lasts until a reload: a valid reload gives it
    /// back to the configuration the process started with (`restoreScreen`, the owner's, which
    /// applies it and returns its `screen` event).
    func reload(origin: String, prepared: ReloadPreparation?, notifier: ServiceNotifier, status: () -> String,
                replaceLayout: (ViewSpec, PreparedLayout?, String) -> LayoutReplacement,
                restoreScreen: (ScreenGeometry, String) -> EncodedEvents) -> ReloadOutcome {
        notifier.reloading()
        defer { notifier.ready(status: status()) }
        let fresh: Configuration
        do throws(ConfigurationError) {
            if let prepared { fresh = try prepared.configuration.get() } else { fresh = try ConfigurationLoader.load(path: configuration.file) }
        } catch {
            logger.error("the new configuration is invalid; the running one is kept", metadata: [
                "origin": "\(origin)", "problems": "\(error.description)",
            ])
            return ReloadOutcome(result: .failure(error))
        }
        let needsRestart = ReloadReport.changesNeedingRestart(from: configuration, to: fresh)
        // Compared off the loop when prepared there (10,000 views are a long comparison).
        let changed = prepared.map { $0.layout != nil } ?? (fresh.layout != layout)
        var events = EncodedEvents()
        if changed {
            events = replaceLayout(fresh.layout, prepared?.layout, "configuration reloaded from \(fresh.file)").events
        }
        if screenIsSet {
            screenIsSet = false
            events.append(contentsOf: restoreScreen(configuration.screen, "screen restored from the configuration by a reload"))
        }
        logger.info("configuration reloaded", metadata: [
            "origin": "\(origin)", "revision": "\(revision)", "layoutChanged": "\(changed)",
        ])
        for note in needsRestart {
            logger.notice("a configuration change takes effect only after a restart", metadata: ["change": "\(note)"])
        }
        return ReloadOutcome(result: .success(ReloadReport(revision: revision, layoutChanged: changed, socket: fresh.socket,
                                                           needsRestart: needsRestart)),
                             events: events)
    }
}
