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
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure(path, call: "read")
            }
            if count == 0 { break }
            bytes.append(contentsOf: chunk[0..<count])
        }
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
