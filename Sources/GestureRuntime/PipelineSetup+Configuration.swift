import GestureConfig
import GestureCore

extension Configuration {
    /// What a pipeline (live or replay) needs from this configuration.
    public var pipelineSetup: PipelineSetup {
        PipelineSetup(tree: ViewTree(validated: layout), settings: settings, screen: screen, device: deviceOverrides,
                      routing: routing)
    }

    /// What the pipeline of `screen` (one of ``screens``) needs.
    public func pipelineSetup(of screen: ScreenConfiguration) -> PipelineSetup {
        PipelineSetup(tree: ViewTree(validated: screen.layout), settings: settings, screen: screen.screen,
                      device: screen.deviceOverrides, routing: routing)
    }
}
