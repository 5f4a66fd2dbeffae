import GestureConfig
import GestureCore
import GestureServer
import Logging

/// The layout a driver's engine runs, its revision and the configuration it came from: the
/// part of ``EventServerDelegate`` that the live daemon and a socket replay share
/// (`layout.set`, `view.update`, `reload`). The driver applies the tree to the engine it owns
/// and publishes the `layout` event in its own stream.
final class RunningLayout {
    /// The configuration the process started with: a reload applies the layout and who may
    /// control, and reports the rest as needing a restart.
    let configuration: Configuration
    private(set) var layout: ViewSpec
    /// 1 for the configured layout, one more for every replacement.
    private(set) var revision = 1
    private let logger: Logger

    init(configuration: Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
        layout = configuration.layout
    }

    /// Records `layout` as the next revision (the caller has given it to its engine) and
    /// returns the `layout` event that announces it at `time`.
    func replace(with layout: ViewSpec, reason: String) -> Int {
        self.layout = layout
        revision += 1
        logger.info("layout replaced", metadata: ["revision": "\(revision)", "reason": "\(reason)"])
        return revision
    }

    /// Re-reads the configuration file. A layout that differs from the running one goes to
    /// `replaceLayout` (the delegate's, which applies and announces it); an invalid file
    /// changes nothing.
    func reload(replaceLayout: (ViewSpec, String) -> Void) -> Result<ReloadReport, ConfigurationError> {
        let fresh: Configuration
        do {
            fresh = try ConfigurationLoader.load(path: configuration.file)
        } catch {
            return .failure(error)
        }
        let needsRestart = ReloadReport.changesNeedingRestart(from: configuration, to: fresh)
        let changed = fresh.layout != layout
        if changed { replaceLayout(fresh.layout, "configuration reloaded from \(fresh.file)") }
        return .success(ReloadReport(revision: revision, layoutChanged: changed, socket: fresh.socket,
                                     needsRestart: needsRestart))
    }
}
