import GestureConfig
import GestureCore

extension Configuration {
    /// What a replay needs from this configuration.
    public var replaySetup: ReplaySetup {
        ReplaySetup(tree: ViewTree(validated: layout), settings: settings, screen: screen, axes: axes)
    }
}
