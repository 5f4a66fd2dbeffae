/// Where a configuration's layout came from, so a reload reads it from the same place.
public enum LayoutSource: Hashable, Sendable, CustomStringConvertible {
    /// Written inline under `layout` in the configuration file (or the file is a bare layout).
    case inline(file: String)
    /// A separate layout file; the path is already resolved against the configuration file's
    /// directory.
    case file(path: String)
    /// Sent as text, for example over the socket; `name` is what problems call it.
    case text(name: String)

    /// The file that holds the layout, as problems name it.
    public var file: String {
        switch self {
        case .inline(let file): file
        case .file(let path): path
        case .text(let name): name
        }
    }

    public var description: String {
        switch self {
        case .inline(let file): "inline in \(file)"
        case .file(let path): path
        case .text(let name): name
        }
    }
}
