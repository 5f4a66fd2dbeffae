import GestureConfig
import GestureCore

/// Whoever owns the engine and the event stream (the live daemon, a socket replay): the
/// server hands it the requests that reach into the engine and tells it what happened to the
/// clients. Called on the event loop's thread, between input frames, so a layout change is
/// atomic with respect to the input.
///
/// **No call back into the server** from any of these methods: what the server must publish
/// comes back as the return value (events encoded in the owner's one stream, with its `seq`),
/// and the server publishes it once the method has returned.
public protocol EventServerOwner: AnyObject {
    /// The screens' ids, in the configuration's order: one for a daemon of one screen. The
    /// requests for one screen's layout or state name it by id (docs/protocol.md, "Several
    /// screens"); the methods below take its index in this list.
    var screenIDs: [String] { get }

    /// The layout screen `screen` runs now (`view.update` changes one view of it).
    func currentLayout(screen: Int) -> ViewSpec

    /// Replaces screen `screen`'s layout with a validated one: touches already down keep their
    /// views and recognizers (`Engine.replaceLayout`). `prepared` is the layout compiled and its
    /// recognizers made already (off the loop, for ``layoutBasis(screen:)``); `nil` does it here.
    /// Returns the new revision and the `layout` event that announces it, with what was let
    /// go of (``EncodedEvents/released``: the replaced layout) for the server to release off
    /// the loop. No other screen's layout, touches or recognizers change.
    func replaceLayout(screen: Int, _ layout: ViewSpec, prepared: PreparedLayout?, reason: String) -> LayoutReplacement

    /// What a new layout's recognizers are made with now on screen `screen`
    /// (`PreparedLayout.Basis`): the server prepares a layout for it on its worker thread.
    func layoutBasis(screen: Int) -> PreparedLayout.Basis

    /// Sets screen `screen`'s panel rotation and, when given, its size in points for touches
    /// that begin from now on (`screen.set`): touches already down keep their mapping. The
    /// change lasts until a reload. Returns the screen now in force and the `screen` event that
    /// announces it.
    /// `prepared` is the layout in force made for that screen off the loop (``screenWork(screen:rotation:width:height:)``);
    /// `nil`, or one made for another layout or basis, is made here.
    func setScreen(screen: Int, rotation: ScreenRotation, width: Double?, height: Double?, reason: String,
                   prepared: PreparedLayout?) -> ScreenReplacement

    /// Making screen `screen`'s layout in force again for what `screen.set` asks for, to run on
    /// the worker thread: `nil` when its recognizers would not change (a rotation of a screen
    /// whose settings are in points).
    func screenWork(screen: Int, rotation: ScreenRotation, width: Double?, height: Double?) -> (@Sendable () -> PreparedLayout)?

    /// The revision of screen `screen`'s layout in force: one more for every replacement. Work
    /// made off the loop for an older revision is made again.
    func layoutRevision(screen: Int) -> Int

    /// What a reload does that needs neither the loop nor the engine, to run on the worker
    /// thread: reading, validating and compiling the configuration file, and preparing each
    /// screen's layout for its basis when it differs from the one in force.
    func reloadWork() -> @Sendable () -> ReloadPreparation

    /// Re-reads the configuration (SIGHUP, `reload`) with what ``reloadWork()`` made for the
    /// revisions and bases in force (`nil`: all of it here). On success each screen's changed
    /// layout is applied as ``replaceLayout(screen:_:prepared:reason:)`` does; an invalid
    /// configuration changes nothing (with several screens, a screen whose layout alone is
    /// invalid keeps its own, and the others reload).
    func reload(origin: String, prepared: ReloadPreparation?) -> ReloadOutcome

    /// Hit-tests a point of screen `screen`'s current layout, with its trace, without a touch.
    func hitTest(screen: Int, _ point: Point) -> HitTestEvent

    /// What `status` reports about the input side (and `hello`, its screens).
    func inputStatus() -> InputStatus

    /// The events that tell subscribers about `notices` (a `warning` per client dropped).
    func announce(_ notices: [ServerNotice]) -> EncodedEvents

    /// Something about the clients changed that the owner may act on, not by calling the
    /// server but by arming a timer, updating the service status or switching tracing. It
    /// may come during any call into the server (a client dropped while events are published).
    func serverChanged(_ change: ServerChange)
}

/// The `layout` event of a replaced layout and the revision it made.
public struct LayoutReplacement: Sendable {
    public var revision: Int
    public var events: EncodedEvents

    public init(revision: Int, events: EncodedEvents) {
        (self.revision, self.events) = (revision, events)
    }
}

/// The screen after `screen.set` and the `screen` event that announces it.
public struct ScreenReplacement: Sendable {
    public var screen: ScreenGeometry
    public var events: EncodedEvents

    public init(screen: ScreenGeometry, events: EncodedEvents) {
        (self.screen, self.events) = (screen, events)
    }
}

/// A configuration file read off the loop for a reload, for the layouts of `revisions` and
/// for `bases` (one each per screen, in the owner's order): the configuration, or what is
/// wrong with it, and each screen's layout prepared when it differs from the one in force.
public struct ReloadPreparation: Sendable {
    public var revisions: [Int]
    public var bases: [PreparedLayout.Basis]
    public var configuration: Result<Configuration, ConfigurationError>
    /// Per screen of the owner: `nil` when the file's layout is the one in force (or the file
    /// has no such screen, or its layout is invalid).
    public var layouts: [PreparedLayout?]
    /// With several screens, the screens whose layout alone is invalid (by id): they keep their
    /// own, the others reload (``ConfigurationLoader/loadForReload(path:)``).
    public var invalidLayouts: [String: ConfigurationError]

    public init(revisions: [Int], bases: [PreparedLayout.Basis], configuration: Result<Configuration, ConfigurationError>,
                layouts: [PreparedLayout?], invalidLayouts: [String: ConfigurationError] = [:]) {
        (self.revisions, self.bases, self.configuration, self.layouts, self.invalidLayouts) =
            (revisions, bases, configuration, layouts, invalidLayouts)
    }
}

/// What a reload did, and the events it publishes (the `layout` event of a changed layout).
public struct ReloadOutcome: Sendable {
    public var result: Result<ReloadReport, ConfigurationError>
    public var events: EncodedEvents

    public init(result: Result<ReloadReport, ConfigurationError>, events: EncodedEvents = EncodedEvents()) {
        (self.result, self.events) = (result, events)
    }
}

/// Something the server did that belongs in the event stream, which only the owner writes.
public enum ServerNotice: Hashable, Sendable {
    /// A client did not read fast enough and was dropped (`slow_consumer`).
    case droppedSlowConsumer(client: Int, peer: String)
    /// More clients dropped at once than are named one by one.
    case droppedSlowConsumers(count: Int)

    /// The sentence of the `warning` event.
    public var message: String {
        switch self {
        case .droppedSlowConsumer(let client, let peer):
            "dropped client \(client) (\(peer)): it did not read its events fast enough"
        case .droppedSlowConsumers(let count):
            "dropped \(count) more clients: they did not read their events fast enough"
        }
    }

    /// Clients named one by one when many are dropped at once; the rest are counted in one
    /// notice. Each becomes a `warning` for every subscriber: a crowd that never reads,
    /// dropped together, made hundreds of warnings for each of hundreds of subscribers in
    /// one turn.
    public static let namedAtOnce = 3

    /// `notices` with those past ``namedAtOnce`` counted in one.
    public static func coalesced(_ notices: [ServerNotice]) -> [ServerNotice] {
        guard notices.count > namedAtOnce else { return notices }
        var dropped = 0
        for notice in notices[namedAtOnce...] {
            switch notice {
            case .droppedSlowConsumer: dropped += 1
            case .droppedSlowConsumers(let count): dropped += count
            }
        }
        return Array(notices.prefix(namedAtOnce)) + [.droppedSlowConsumers(count: dropped)]
    }
}

/// A change in the server's clients that its owner may act on.
public enum ServerChange: Hashable, Sendable {
    /// The number of subscribed clients (a replay waits for N of them; the service status
    /// names them).
    case subscribers(Int)
    /// Some subscriber asks for hit-test traces and failed transitions, or none does any more.
    case tracingDemand(Bool)
    /// Some subscriber asks for `contacts` events, or none does any more.
    case contactsDemand(Bool)
    /// A client's backlog shrank below the low-water mark, or a client left: a replay that
    /// waits for its readers may go on.
    case drained
    /// After ``EventServer/shutdown(reason:message:)``, every connection is closed.
    case closed
}
