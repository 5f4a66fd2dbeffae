#if canImport(Glibc)
import Glibc
#endif

/// Writes the metrics file for node-exporter's textfile collector atomically: the text goes
/// to a temporary file in the same directory (a name not ending in `.prom`, which the
/// collector skips), is flushed, and is renamed over `gestured.prom`, so the collector reads
/// the old file or the new one, never half of one (Debian's README.textfile).
enum TextfileWriter {
    static let fileName = "gestured.prom"

    /// `nil`, or the sentence that says what failed.
    static func write(_ text: String, directory: String) -> String? {
        let final = "\(directory)/\(fileName)"
        let temporary = "\(directory)/.\(fileName).\(getpid()).tmp"
        let fd = open(temporary, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { return "cannot create \(temporary): \(String(cString: strerror(errno)))" }
        let bytes = Array(text.utf8)
        var done = 0
        while done < bytes.count {
            let count = bytes[done...].withUnsafeBytes { Glibc.write(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else {
                let reason = String(cString: strerror(errno))
                close(fd)
                unlink(temporary)
                return "cannot write \(temporary): \(reason)"
            }
            done += count
        }
        fsync(fd)
        close(fd)
        guard rename(temporary, final) == 0 else {
            let reason = String(cString: strerror(errno))
            unlink(temporary)
            return "cannot rename \(temporary) to \(final): \(reason)"
        }
        return nil
    }
}
