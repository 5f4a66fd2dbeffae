#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reading a configuration or layout file whole: the module's only I/O. Only regular files of
/// at most ``maximumSize`` bytes are read, so a FIFO, a device or a huge file named by mistake
/// gets an answer that says what it is instead of a stall or a misleading error.
enum ConfigurationFile {
    /// The largest configuration or layout file (docs/limits.md): far above any real layout
    /// (the sample lobby layout is 3 KB), low enough to read and check in well under a second.
    static let maximumSize = 8 << 20

    /// Why a file could not be read, and what to do about it.
    struct ReadFailure: Error {
        var cause: String
        var advice: String
        var message: String { "cannot read the file (\(cause)); \(advice)" }
    }

    /// The UTF-8 text of the regular file at `path` (`open(2)` without blocking on a FIFO,
    /// `fstat(2)`, `read(2)` retrying `EINTR`).
    static func readText(_ path: String) -> Result<String, ReadFailure> {
        if path.isEmpty { return .failure(ReadFailure(cause: "the path is empty", advice: "name a file")) }
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { return .failure(openFailure(errno)) }
        defer { close(fd) }
        var status = stat()
        guard fstat(fd, &status) == 0 else { return .failure(ReadFailure(cause: describe(errno), advice: "check the path")) }
        let type = status.st_mode & S_IFMT
        guard type == S_IFREG else { return .failure(notRegular(type)) }
        guard Int(status.st_size) <= maximumSize else {
            return .failure(ReadFailure(cause: "it is \(Int(status.st_size)) bytes, more than the \(maximumSize >> 20) MiB "
                + "a configuration or layout file may have", advice: "split the layout or remove what is unused"))
        }
        // One byte more than the limit, so a file that grew since fstat is still caught.
        var bytes = [UInt8](repeating: 0, count: min(Int(status.st_size), maximumSize) + 1)
        var length = 0
        while length < bytes.count {
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + length, $0.count - length) }
            if count < 0 {
                if errno == EINTR || errno == EAGAIN { continue }
                return .failure(ReadFailure(cause: describe(errno), advice: "check the file"))
            }
            if count == 0 { break }
            length += count
        }
        guard length <= maximumSize else {
            return .failure(ReadFailure(cause: "it is more than the \(maximumSize >> 20) MiB a configuration or layout "
                + "file may have", advice: "split the layout or remove what is unused"))
        }
        bytes.removeLast(bytes.count - length)
        guard let text = String(validating: bytes, as: UTF8.self) else {
            return .failure(ReadFailure(cause: "it is not UTF-8 text", advice: "save it as UTF-8"))
        }
        return .success(text)
    }

    private static func openFailure(_ code: Int32) -> ReadFailure {
        switch code {
        case ENOENT: ReadFailure(cause: "no such file", advice: "check the path")
        case ENOTDIR: ReadFailure(cause: "a part of the path is not a directory", advice: "check the path")
        case EACCES: ReadFailure(cause: "permission denied", advice: "make it readable by the user the daemon runs as")
        case EISDIR: ReadFailure(cause: "it is a directory", advice: "name a file")
        case ENAMETOOLONG: ReadFailure(cause: "the path is too long", advice: "check the path")
        case ELOOP: ReadFailure(cause: "too many symbolic links", advice: "check the path")
        default: ReadFailure(cause: describe(code), advice: "check the path")
        }
    }

    private static func notRegular(_ type: mode_t) -> ReadFailure {
        let what: String
        switch type {
        case S_IFDIR: return ReadFailure(cause: "it is a directory", advice: "name a file")
        case S_IFIFO: what = "it is a FIFO (named pipe), not a regular file"
        case S_IFCHR: what = "it is a character device (such as /dev/null), not a regular file"
        case S_IFBLK: what = "it is a block device, not a regular file"
        case S_IFSOCK: what = "it is a socket, not a regular file"
        default: what = "it is not a regular file"
        }
        return ReadFailure(cause: what, advice: "name a configuration or layout file")
    }

    private static func describe(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}
