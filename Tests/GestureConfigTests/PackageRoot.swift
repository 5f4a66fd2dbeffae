import FoundationEssentials

/// Files of the package (samples in config/, fixtures in Tests/Fixtures) by path from the
/// package root, found by walking up from this source file to the directory with
/// Package.swift, so tests do not depend on the working directory.
enum PackageRoot {
    static let path: String = {
        var directory = String(#filePath)
        while let slash = directory.lastIndex(of: "/") {
            directory = String(directory[..<slash])
            if FileManager.default.fileExists(atPath: directory + "/Package.swift") { return directory }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// The absolute path of `relative` (such as "config/lobby.json5").
    static func file(_ relative: String) -> String { path + "/" + relative }

    /// The `.json5` files in a directory of the package, as paths relative to the root, sorted.
    static func json5Files(in relative: String) -> [String] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: file(relative))) ?? []
        return names.filter { $0.hasSuffix(".json5") }.sorted().map { "\(relative)/\($0)" }
    }

    /// `text` with the package root removed from paths, so messages read as in the repository.
    static func relative(_ text: String) -> String { text.replacing(path + "/", with: "") }
}
