#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the tests find their files, from `#filePath` alone (no Foundation): the package root
/// is the nearest directory above this file holding `Package.swift`.
enum TestPaths {
    /// This package's own small fixtures.
    static let fixtures: String = packageRoot + "/Tests/Fixtures/recordings"

    static func fixture(_ name: String) -> String { fixtures + "/" + name }

    static let packageRoot: String = {
        var directory = parent(of: "\(#filePath)")
        while directory.count > 1 {
            if exists(directory + "/Package.swift") { return directory }
            directory = parent(of: directory)
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    private static func parent(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }
}
