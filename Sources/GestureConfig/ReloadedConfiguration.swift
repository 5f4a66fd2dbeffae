/// A configuration read for a reload (``ConfigurationLoader/loadForReload(path:)``): the
/// configuration, and in a file of several screens the screens whose layout alone is invalid,
/// by id, each with its problems: the daemon keeps their running layouts and reloads the rest.
public struct ReloadedConfiguration: Sendable {
    public var configuration: Configuration
    /// Empty for a file of one screen (its problems fail the reload, as ever).
    public var invalidLayouts: [String: ConfigurationError]

    public init(configuration: Configuration, invalidLayouts: [String: ConfigurationError] = [:]) {
        (self.configuration, self.invalidLayouts) = (configuration, invalidLayouts)
    }
}
