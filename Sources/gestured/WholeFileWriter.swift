#if canImport(Glibc)
import Glibc
#endif
import GestureSystem
import SystemPackage

/// Writes a command's files whole or not at all (`gestured map`'s fragment and rule,
/// `gestured synth --output`): each to a temporary file beside it
/// (`.NAME.PID.tmp`, so the rename stays in one file system), and only when every one is
/// written are they renamed over their paths (rename(2) replaces atomically). A failure
/// removes the temporary files; nothing half-written is left where the kiosk reads it.
enum WholeFileWriter {
    static func writeWhole(_ files: [(path: String, text: String)]) throws(SystemError) {
        var written: [(temporary: String, path: String)] = []
        do throws(SystemError) {
            for file in files {
                let temporary = temporaryPath(for: file.path)
                let fd = try FileDescriptor.open(path: temporary, .writeOnly,
                                                 options: [.create, .exclusiveCreate, .closeOnExec],
                                                 permissions: [.ownerReadWrite, .groupRead, .otherRead])
                written.append((temporary, file.path))
                do {
                    try fd.writeAll(Array(file.text.utf8), subject: temporary)
                    try systemCall("fsync", subject: temporary) { fsync(fd.rawValue) }
                } catch {
                    fd.closeReleasing()
                    throw error
                }
                try fd.closeAfterWriting(subject: temporary)
            }
            for file in written {
                try systemCall("rename", subject: file.path) { rename(file.temporary, file.path) }
            }
        } catch {
            for file in written { unlink(file.temporary) }
            throw error
        }
    }

    /// `DIR/.NAME.PID.tmp` for `DIR/NAME`.
    static func temporaryPath(for path: String) -> String {
        let slash = path.lastIndex(of: "/")
        let directory = slash.map { String(path[...$0]) } ?? ""
        let name = slash.map { String(path[path.index(after: $0)...]) } ?? path
        return "\(directory).\(name).\(getpid()).tmp"
    }
}
