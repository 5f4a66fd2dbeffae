#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// An open recording file, read a chunk at a time: the module's only reading I/O, so the
/// parsers work on bytes in memory. Only regular files are opened: a FIFO would block the
/// open until a writer came, and a device such as `/dev/zero` never ends (issue 12; the
/// decision is in docs/decisions.md). Closed when released.
final class RecordingFileHandle {
    let path: String
    private let descriptor: Int32

    /// Opens `path` (`open(2)` without blocking on a FIFO, then `fstat(2)`), refusing anything
    /// but a regular file with a message that says what it is.
    init(path: String) throws(RecordingError) {
        let fd = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard fd >= 0 else { throw RecordingFile.failure(path, call: "open") }
        var status = stat()
        guard fstat(fd, &status) == 0 else {
            let error = RecordingFile.failure(path, call: "fstat")
            close(fd)
            throw error
        }
        let kind = status.st_mode & S_IFMT
        guard kind == S_IFREG else {
            close(fd)
            throw RecordingError(file: path, line: nil, message: "cannot read the recording (\(Self.what(kind))); "
                                 + "name a recording file (gestured reads regular files only)")
        }
        self.path = path
        descriptor = fd
    }

    deinit {
        close(descriptor)
    }

    /// Reads up to `buffer.count` bytes (`read(2)`, retrying `EINTR`); 0 at the end of the file.
    func read(into buffer: UnsafeMutableRawBufferPointer) throws(RecordingError) -> Int {
        while true {
            let count = readBytes(descriptor, buffer.baseAddress, buffer.count)
            if count >= 0 { return count }
            if errno != EINTR { throw RecordingFile.failure(path, call: "read") }
        }
    }

    /// What a file that is not a regular one is, for the message.
    private static func what(_ kind: mode_t) -> String {
        let names: [(mode_t, String)] = [
            (S_IFDIR, "a directory"), (S_IFIFO, "a FIFO (named pipe)"),
            (S_IFCHR, "a character device (such as /dev/zero)"), (S_IFBLK, "a block device"), (S_IFSOCK, "a socket"),
        ]
        let name = names.first { $0.0 == kind }?.1 ?? "a special file"
        return "it is \(name), not a regular file"
    }
}

/// read(2) under a name the handle's own `read(into:)` does not hide.
private func readBytes(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
