#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The external corpus of real touchscreen recordings (other people's panels, kept outside the
/// repository): where it is, and whether the tests over it run.
///
/// The directory is `$GESTURED_RECORDINGS`, else `shared/recordings` beside the package root
/// (a checkout with the corpus next to it), else beside one of the root's parents (a git
/// worktree one level deeper). Without it the corpus tests are skipped with a note saying
/// where they looked, and every other test runs on the project's own recordings; under CI
/// (`CI=true`) a missing corpus fails the run instead, so CI always runs them.
public enum RecordingCorpus {
    /// The corpus directory, whether or not it exists.
    public static let directory: String = {
        if let value = getenv("GESTURED_RECORDINGS").map({ String(cString: $0) }), !value.isEmpty {
            return value
        }
        var parent = PackagePaths.parent(of: PackagePaths.root)
        while true {
            let candidate = parent + "/shared/recordings"
            if isDirectory(candidate) { return candidate }
            if parent == "/" || parent == "." { break }
            parent = PackagePaths.parent(of: parent)
        }
        return PackagePaths.parent(of: PackagePaths.root) + "/shared/recordings"
    }()

    /// True when the corpus directory exists.
    public static let isPresent: Bool = isDirectory(directory)

    /// True under CI (`CI=true`, as CI services and `.ci/run` set it): the corpus must be there.
    public static let isRequired: Bool = {
        guard let value = getenv("CI").map({ String(cString: $0) }) else { return false }
        return value == "true" || value == "1"
    }()

    /// Whether the corpus tests run: when the corpus is there, and under CI even when it is
    /// not, so that they fail rather than pass unseen.
    public static let testsRun: Bool = isPresent || isRequired

    /// The one line a skipped corpus test shows.
    public static var skipNote: String {
        "no recording corpus at \(directory): set GESTURED_RECORDINGS to run the tests over real recordings"
    }

    /// The message of the failure under CI.
    public static var missingUnderCI: String {
        "CI=true but there is no recording corpus at \(directory); CI must run the tests over real recordings (set GESTURED_RECORDINGS)"
    }

    /// The path of a corpus file.
    public static func path(_ name: String) -> String { directory + "/" + name }

    private static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }
}
