#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Reading and writing whole recording files: the module's only I/O, wrapped here so the
/// parsers work on bytes in memory.
enum RecordingFile {
    /// Reads a whole file (`open(2)`, `read(2)`, retrying `EINTR`).
    static func readBytes(path: String) throws(RecordingError) -> [UInt8] {
        let fd = open(path, O_RDONLY | O_CLOEXEC)
        guard fd >= 0 else { throw failure(path, call: "open") }
        defer { close(fd) }
        // Read straight into the array, sized from fstat(2) (growing if the file grows, or for
        // files that report no size, such as pipes).
        var status = stat()
        let expected = fstat(fd, &status) == 0 ? max(Int(status.st_size), 0) : 0
        var bytes = [UInt8](repeating: 0, count: max(expected + 1, 64 * 1024))
        var length = 0
        while true {
            if length == bytes.count { bytes.append(contentsOf: repeatElement(0, count: bytes.count)) }
            let count = bytes.withUnsafeMutableBytes { read(fd, $0.baseAddress! + length, $0.count - length) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, call: "read")
            }
            if count == 0 { break }
            length += count
        }
        bytes.removeLast(bytes.count - length)
        return bytes
    }

    /// Writes a whole file, replacing it (`open(2)` with `O_TRUNC`, `write(2)`).
    static func writeBytes(_ bytes: [UInt8], path: String) throws(RecordingError) {
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw failure(path, call: "open") }
        defer { close(fd) }
        var offset = 0
        while offset < bytes.count {
            let count = bytes.withUnsafeBytes { write(fd, $0.baseAddress! + offset, $0.count - offset) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, call: "write")
            }
            offset += count
        }
    }

    private static func failure(_ path: String, call: String) -> RecordingError {
        let code = errno
        return RecordingError(file: path, line: nil, message: "\(call) failed: \(String(cString: strerror(code))) (errno \(code))")
    }
}
