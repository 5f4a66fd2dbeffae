#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GestureConfig
import GestureCore

/// Writes bytes to a file descriptor, retrying short writes and `EINTR`.
func writeAll(_ bytes: [UInt8], to fd: Int32) {
    bytes.withUnsafeBytes { raw in
        var offset = 0
        while offset < raw.count {
            let written = write(fd, raw.baseAddress! + offset, raw.count - offset)
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}

func printError(_ message: String) {
    writeAll(Array((message + "\n").utf8), to: 2)
}

/// Prints `message` on stderr and returns the error that makes the command exit with status 1
/// (without ArgumentParser's own "Error:" decoration, so problem lines stay machine-readable).
func failure(_ message: String) -> ExitCode {
    printError(message)
    return ExitCode.failure
}

/// Loads a configuration or a bare layout; every problem goes to stderr.
func loadConfiguration(_ path: String) throws -> Configuration {
    do {
        return try ConfigurationLoader.load(path: path)
    } catch {
        throw failure(error.description)
    }
}

/// A `--socket` path must name a file and fit a Unix socket address (107 bytes, unix(7)).
func validateSocketPath(_ path: String) throws {
    if path.isEmpty {
        throw ValidationError("--socket is empty; name the socket file, such as \(SocketConfig.defaultPath)")
    }
    if path.utf8.count > SocketConfig.maximumPathLength {
        throw ValidationError("--socket is \(path.utf8.count) bytes long; a Unix socket's path holds at most "
            + "\(SocketConfig.maximumPathLength) bytes, so use a shorter one")
    }
}
