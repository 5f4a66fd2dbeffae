#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Where the integration tests find things.
enum Paths {
    /// The package root: the nearest directory above this file with Package.swift.
    static let packageRoot: String = {
        var directory = String(#filePath)
        while let slash = directory.lastIndex(of: "/") {
            directory = String(directory[..<slash])
            if access(directory + "/Package.swift", F_OK) == 0 { return directory }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()

    /// The gestured binary built next to this test bundle (`$GESTURED_BINARY` overrides).
    static let gestured: String = {
        if let override = ProcessInfo.processInfo.environment["GESTURED_BINARY"], !override.isEmpty { return override }
        var buffer = [CChar](repeating: 0, count: 4096)
        let count = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        if count > 0 {
            let executable = String(decoding: buffer[0..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
            var directory = String(executable[..<executable.lastIndex(of: "/")!])
            // The bundle may be a directory (…/gesturedPackageTests.xctest/…) on some layouts.
            while !directory.isEmpty {
                if access(directory + "/gestured", X_OK) == 0 { return directory + "/gestured" }
                guard let slash = directory.lastIndex(of: "/") else { break }
                directory = String(directory[..<slash])
            }
        }
        return packageRoot + "/.build/debug/gestured"
    }()

    /// A fresh directory under /tmp, traversable by other users (the permission tests connect
    /// as `nobody`); removed by ``TemporaryDirectory/remove()``.
    static func temporaryDirectory() -> TemporaryDirectory {
        var template = Array("/tmp/gestured-test-XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        chmod(path, 0o755)
        return TemporaryDirectory(path: path)
    }
}

/// A directory for one test's sockets, configurations and recordings.
struct TemporaryDirectory {
    let path: String

    func file(_ name: String) -> String { path + "/" + name }

    @discardableResult
    func write(_ name: String, _ text: String) -> String {
        let target = file(name)
        _ = FileManager.default.createFile(atPath: target, contents: Data(text.utf8))
        chmod(target, 0o644)
        return target
    }

    func remove() {
        try? FileManager.default.removeItem(atPath: path)
    }
}

/// Seconds from now on `CLOCK_MONOTONIC`, for bounded waits.
struct Deadline {
    let end: Double

    init(_ seconds: Double) { end = Deadline.now() + seconds }

    static func now() -> Double {
        var spec = timespec()
        clock_gettime(CLOCK_MONOTONIC, &spec)
        return Double(spec.tv_sec) + Double(spec.tv_nsec) / 1e9
    }

    /// Milliseconds left, for poll(2); 0 once passed.
    var pollMilliseconds: Int32 { Int32(max(0, min((end - Deadline.now()) * 1000, 60_000))) }
    var hasPassed: Bool { Deadline.now() >= end }
}

/// A child process (the real gestured, or a tool around it) with its stderr captured.
final class ChildProcess {
    let pid: pid_t
    private let stderrFD: Int32
    private(set) var stderr: [UInt8] = []
    private(set) var exitStatus: Int32?

    /// Spawns `arguments[0]` (a path, or a name looked up in PATH) with the test's environment
    /// minus systemd's variables, plus `environment`.
    init(_ arguments: [String], environment: [String: String] = [:]) throws {
        // A socket pair, not a pipe: SOCK_CLOEXEC is atomic, so a child that another test
        // spawns at the same moment cannot inherit our end and hold off the end of file.
        var pair: [Int32] = [0, 0]
        guard socketpair(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0, &pair) == 0 else {
            throw TestFailure("socketpair: \(String(cString: strerror(errno)))")
        }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_adddup2(&actions, pair[1], 2)

        var variables = ProcessInfo.processInfo.environment
        for key in ["NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "LISTEN_FDS", "LISTEN_PID", "LISTEN_FDNAMES",
                    "JOURNAL_STREAM"] {
            variables.removeValue(forKey: key)
        }
        variables.merge(environment) { _, new in new }
        let argv = arguments.map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let result = posix_spawnp(&pid, arguments[0], &actions, nil, argv, envp)
        close(pair[1])
        guard result == 0 else {
            close(pair[0])
            throw TestFailure("cannot start \(arguments[0]): \(String(cString: strerror(result)))")
        }
        self.pid = pid
        stderrFD = pair[0]
    }

    deinit {
        if exitStatus == nil {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
        close(stderrFD)
    }

    var stderrText: String { String(decoding: stderr, as: UTF8.self) }

    func signal(_ signal: Int32) {
        kill(pid, signal)
    }

    /// Reads stderr until it contains `text`; false when the deadline passes or the process
    /// ends first.
    func waitForStderr(containing text: String, timeout: Double = 10) -> Bool {
        let deadline = Deadline(timeout)
        while !stderrText.contains(text) {
            guard readStderr(until: deadline) else { return stderrText.contains(text) }
        }
        return true
    }

    /// Waits for the process to exit (its stderr closes) and returns its exit status; a
    /// process still running at the deadline is killed and the test fails.
    @discardableResult
    func waitForExit(timeout: Double = 10) -> Int32 {
        if let exitStatus { return exitStatus }
        let deadline = Deadline(timeout)
        while readStderr(until: deadline) {}
        if !deadline.hasPassed || stderrClosed {
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exitStatus = (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
        } else {
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            exitStatus = -1
            Issue.record("\(pid) did not exit within \(timeout) s; stderr:\n\(stderrText)")
        }
        return exitStatus!
    }

    private var stderrClosed = false

    /// Reads what stderr has; false at its end or at the deadline.
    private func readStderr(until deadline: Deadline) -> Bool {
        guard !stderrClosed else { return false }
        var poller = pollfd(fd: stderrFD, events: Int16(POLLIN), revents: 0)
        let ready = poll(&poller, 1, deadline.pollMilliseconds)
        if ready <= 0 { return ready < 0 && errno == EINTR }
        var chunk = [UInt8](repeating: 0, count: 65536)
        let count = read(stderrFD, &chunk, chunk.count)
        if count <= 0 {
            stderrClosed = true
            return false
        }
        stderr += chunk[0..<count]
        return true
    }
}

/// A test's own error with a message.
struct TestFailure: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
