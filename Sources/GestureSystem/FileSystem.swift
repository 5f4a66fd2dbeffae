#if canImport(Glibc)
import Glibc
#endif

/// access(2) with `F_OK`: whether anything exists at `path`.
public func pathExists(_ path: String) -> Bool {
    access(path, F_OK) == 0
}

/// The names in a directory (opendir(3), readdir(3), closedir(3)), without `.` and `..`.
public func directoryEntries(_ path: String) throws(SystemError) -> [String] {
    guard let handle = opendir(path) else { throw SystemError(call: "opendir", errno: SystemError.currentErrno, subject: path) }
    defer { closedir(handle) }
    var names: [String] = []
    while let entry = readdir(handle) {
        let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
            String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
        }
        if name != "." && name != ".." { names.append(name) }
    }
    return names
}

/// realpath(3): `path` with every symlink resolved (a udev link such as
/// `/dev/input/by-path/…` to its `eventN` node); `nil` when it does not exist.
public func resolvedPath(_ path: String) -> String? {
    guard let resolved = realpath(path, nil) else { return nil }
    defer { free(resolved) }
    return String(cString: resolved)
}
