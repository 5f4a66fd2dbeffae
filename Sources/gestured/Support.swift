import CommandLineParsing
import GestureConfig
import GestureCore
import GestureSystem
import SystemPackage

/// Where a command writes a stream (the events on stdout, a recording): the first failed write
/// (a full disk, a closed pipe or descriptor) is kept and nothing more is written, so the
/// command can fail at the end instead of exiting 0 with data lost.
final class OutputWriter {
    let descriptor: FileDescriptor
    /// For messages: "standard output", or the file's path.
    let name: String
    private(set) var failure: SystemError?

    init(_ descriptor: FileDescriptor, name: String) {
        (self.descriptor, self.name) = (descriptor, name)
    }

    /// Standard output, for the events of `replay` and `run --stdout` and for `tail`.
    static func standardOutput() -> OutputWriter { OutputWriter(.standardOutput, name: "standard output") }

    /// A file created, or emptied, for a command's output, readable by all (`record -o`,
    /// `replay --panel`); one that cannot be opened fails the command, naming the option.
    static func creating(_ path: String, for option: String) throws -> OutputWriter {
        do {
            let file = try FileDescriptor.open(path: path, .writeOnly, options: [.create, .truncate, .closeOnExec],
                                               permissions: [.ownerReadWrite, .groupRead, .otherRead])
            return OutputWriter(file, name: path)
        } catch {
            throw gestured.failure("gestured: \(error); choose a writable path for \(option)")
        }
    }

    func write(_ bytes: [UInt8]) {
        guard failure == nil, !bytes.isEmpty else { return }
        do {
            try descriptor.writeAll(bytes, subject: name)
        } catch {
            failure = error
        }
    }

    /// Throws the exit of a command whose output was lost, naming why.
    func checkWritten() throws {
        if let failure { throw gestured.failure("gestured: the output was not written completely: \(failure)") }
    }
}

/// Writes `text` on standard output; a failed write fails the command.
func printOutput(_ text: String) throws {
    let output = OutputWriter.standardOutput()
    output.write(Array(text.utf8))
    try output.checkWritten()
}

func printError(_ message: String) {
    // Standard error is the last place a message can go; a failure to write it has no other.
    _ = try? FileDescriptor.standardError.writeAll(Array((message + "\n").utf8), subject: "standard error")
}

/// A command that failed and has said why on stderr: the process exits with `status` (1 unless
/// the command says otherwise, e.g. 78 for `run`'s configuration errors), and nothing is added
/// to the message (no "Error:"), so problem lines stay machine-readable.
struct CommandFailure: Error {
    var status: Int32 = 1
}

/// Prints `message` on stderr and returns the error that makes the command exit with status 1.
func failure(_ message: String) -> CommandFailure {
    printError(message)
    return CommandFailure()
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
func validateSocketPath(_ path: String) throws(ValidationError) {
    if path.isEmpty {
        throw ValidationError("--socket is empty; name the socket file, such as \(SocketConfig.defaultPath)")
    }
    if path.utf8.count > SocketConfig.maximumPathLength {
        throw ValidationError("--socket is \(path.utf8.count) bytes long; a Unix socket's path holds at most "
            + "\(SocketConfig.maximumPathLength) bytes, so use a shorter one")
    }
}
