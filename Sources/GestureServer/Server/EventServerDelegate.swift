import GestureConfig
import GestureCore

/// Whoever owns the engine (the live runner, a socket replay) and so carries out the
/// requests that reach into it. Called on the event loop's thread, between input frames, so
/// a layout change is atomic with respect to the input.
public protocol EventServerDelegate: AnyObject {
    /// The layout the engine runs now (`view.update` changes one view of it).
    var currentLayout: ViewSpec { get }

    /// Replaces the layout with a validated one: touches already down keep their views and
    /// recognizers (`Engine.replaceLayout`). Publishes the `layout` event (with the input
    /// time) through the server and returns the new revision.
    func replaceLayout(_ layout: ViewSpec, reason: String) -> Int

    /// Hit-tests a point of the current layout, with its trace, without a touch.
    func hitTest(_ point: Point) -> HitTestEvent

    /// What `status` reports about the input side.
    func inputStatus() -> InputStatus

    /// Re-reads the configuration (SIGHUP, `reload`). On success the new layout is applied as
    /// ``replaceLayout(_:reason:)`` does; an invalid configuration changes nothing.
    func reload() -> Result<ReloadReport, ConfigurationError>

    /// Some subscriber asks for hit-test traces and failed transitions, or none does any more:
    /// the engine's `tracing` should be on while either this or the daemon's `--trace` is.
    func tracingDemandChanged(_ wanted: Bool)
}
