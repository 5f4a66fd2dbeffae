import GestureConfig
import GestureCore

extension Configuration {
    /// What a pipeline (live or replay) needs from this configuration.
    public var pipelineSetup: PipelineSetup {
        PipelineSetup(tree: ViewTree(validated: layout), settings: settings, screen: screen, device: deviceOverrides,
                      routing: routing)
    }
}
