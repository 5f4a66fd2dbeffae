#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The package's own files, found from this file's location (no Foundation): the root is the
/// nearest directory above it holding `Package.swift`.
public enum PackagePaths {
    public static let root: String = {
        var directory = parent(of: "\(#filePath)")
        while directory.count > 1 {
            if access(directory + "/Package.swift", F_OK) == 0 { return directory }
            directory = parent(of: directory)
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// A recording the project made (`config/recordings/NAME`, from its gesture script).
    public static func recording(_ name: String) -> String { root + "/config/recordings/" + name }

    /// A sample configuration (`config/NAME`).
    public static func config(_ name: String) -> String { root + "/config/" + name }

    static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
