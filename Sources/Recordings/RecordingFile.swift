#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// Writing whole recording files (`gestured record`'s evemu output).
enum RecordingFile {
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

    static func failure(_ path: String, call: String) -> RecordingError {
        let code = errno
        return RecordingError(file: path, line: nil, message: "\(call) failed: \(String(cString: strerror(code))) (errno \(code))")
    }
}
