import GestureConfig
import GestureCore
import GestureServer
import Logging

/// The layout one screen's engine runs, its revision and the screen it was configured with:
/// what ``ServerHost`` keeps per screen for `layout.set`, `view.update`, `screen.set` and
/// `reload`. The host applies the tree or the screen to the screen's pipeline, which encodes
/// the `layout` or `screen` event in the daemon's one stream.
final class RunningLayout {
    /// The screen as the configuration the process started with gives it: a reload gives back
    /// its geometry after a `screen.set`.
    let configured: ScreenConfiguration
    private(set) var layout: ViewSpec
    /// 1 for the configured layout, one more for every replacement.
    private(set) var revision = 1
    /// ``layout``'s ``LayoutHash``, made when it is set (not per request: `status` reads it).
    private(set) var hash: LayoutHash
    /// True after `screen.set`, until a reload restores the configured screen.
    var screenIsSet = false
    private let logger: Logger

    init(screen: ScreenConfiguration, logger: Logger) {
        configured = screen
        self.logger = logger
        layout = screen.layout
        hash = LayoutHash(of: screen.layout)
    }

    /// Records `layout` as the next revision (the caller gives it to its engine) and returns
    /// the revision, with the layout it replaced added to `released` (a layout of 10,000 views
    /// is milliseconds of `free`, for the caller to place off its loop).
    func replace(with layout: ViewSpec, reason: String, released: inout ReleasedStorage) -> Int {
        hash = LayoutHash(of: layout)
        var replaced = layout
        swap(&replaced, &self.layout)
        released.add(consume replaced)
        revision += 1
        logger.info("layout replaced", metadata: ["revision": "\(revision)", "reason": "\(reason)"])
        return revision
    }

    /// The size `screen.set` asks for: the current one where it gives none.
    static func size(width: Double?, height: Double?, current: ScreenGeometry) -> Size {
        Size(width: width ?? current.size.width, height: height ?? current.size.height)
    }

    /// The screen `screen.set` asks for: `rotation`, and the current size unless it gives one.
    /// The caller applies it; the change is remembered until a reload.
    func setScreen(rotation: ScreenRotation, width: Double?, height: Double?, current: ScreenGeometry,
                   reason: String) -> (rotation: ScreenRotation, size: Size) {
        screenIsSet = true
        let size = Self.size(width: width, height: height, current: current)
        logger.info("screen set", metadata: [
            "rotation": "\(rotation.degrees)", "width": "\(size.width)", "height": "\(size.height)", "reason": "\(reason)",
        ])
        return (rotation, size)
    }
}
