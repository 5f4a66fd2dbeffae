#if canImport(Glibc)
import Glibc
#endif
import GestureSystem

/// Whether another program holds an evdev device exclusively (`EVIOCGRAB`), and who has it
/// open, for `gestured record` and `gestured devices`: a held device gives every other reader
/// no events at all, silently, as the service with `grab: true` does to `record`.
///
/// evdev tells a grab only to a reader that tries one: `EVIOCGRAB` fails with `EBUSY` while
/// another descriptor holds it (drivers/input/evdev.c, evdev_grab). The probe takes the grab
/// and releases it at once when it is free; an `O_RDONLY` descriptor is enough for both.
/// evdev names no holder, so ``openers(of:)`` lists the processes with the node open
/// (/proc/PID/fd, readable for other users' processes only by root) and their systemd unit.
enum PanelHold {
    /// `EVIOCGRAB`, `_IOW('E', 0x90, int)` in linux/input.h (a macro Swift does not import).
    static let grabRequest: UInt = 0x4004_4590

    /// The probe's answer for one device.
    enum State: Equatable {
        /// Nobody held it (the probe took the grab and gave it back).
        case free
        /// Another descriptor holds it.
        case held
        /// The probe could not tell (the node could not be opened, or the ioctl failed otherwise).
        case unknown(String)
    }

    /// A process with the device open.
    struct Opener: Equatable {
        var pid: Int32
        var command: String
        /// The systemd unit whose control group it is in (`gestured.service`), if any.
        var unit: String?

        var summary: String {
            "pid \(pid) \(command)" + (unit.map { " (\($0))" } ?? "")
        }
    }

    /// Probes the device open on `descriptor`.
    static func probe(descriptor: Int32) -> State {
        if ioctl(descriptor, grabRequest, Int32(1)) == 0 {
            _ = ioctl(descriptor, grabRequest, Int32(0))
            return .free
        }
        let error = errno
        if error == EBUSY { return .held }
        return .unknown(String(cString: strerror(error)))
    }

    /// Opens `path` read-only and probes it.
    static func probe(path: String) -> State {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return .unknown(String(cString: strerror(errno))) }
        defer { close(descriptor) }
        return probe(descriptor: descriptor)
    }

    /// The processes (other than this one) with `path`'s node open, as far as /proc lets this
    /// user see; `complete` is false when some processes' descriptors could not be read.
    static func openers(of path: String) -> (openers: [Opener], complete: Bool) {
        guard let node = resolvedPath(path), let pids = try? directoryEntries("/proc") else { return ([], false) }
        var openers: [Opener] = []
        var complete = true
        let ownPid = getpid()
        for name in pids {
            guard let pid = Int32(name), pid != ownPid else { continue }
            guard let descriptors = try? directoryEntries("/proc/\(pid)/fd") else {
                complete = false
                continue
            }
            let hasNode = descriptors.contains { link("/proc/\(pid)/fd/\($0)") == node }
            if hasNode {
                openers.append(Opener(pid: pid, command: firstLine("/proc/\(pid)/comm") ?? "?", unit: unit(of: pid)))
            }
        }
        return (openers.sorted { $0.pid < $1.pid }, complete)
    }

    /// One sentence for a held device: who has it open, and how to get its events.
    static func heldAdvice(path: String) -> String {
        let (openers, complete) = openers(of: path)
        var text = "held exclusively (EVIOCGRAB) by another program"
        if !openers.isEmpty {
            text += "; open in " + openers.map(\.summary).joined(separator: ", ")
        } else if !complete {
            text += "; run as root to see which (`sudo gestured devices`)"
        }
        let service = openers.contains { $0.unit == "gestured.service" } || (openers.isEmpty && !complete)
        if service {
            text += ". gestured.service takes the panel while it runs with `grab: true`: to record it, "
                + "`sudo systemctl stop gestured.socket gestured.service`, record, then `sudo systemctl start gestured.socket`"
        } else {
            text += ". Stop that program while recording, or make it release the device"
        }
        return text
    }

    private static func link(_ path: String) -> String? {
        var buffer = [CChar](repeating: 0, count: Int(PATH_MAX) + 1)
        let count = readlink(path, &buffer, buffer.count - 1)
        guard count > 0 else { return nil }
        return String(decoding: buffer[..<count].map { UInt8(bitPattern: $0) }, as: UTF8.self)
    }

    private static func firstLine(_ path: String) -> String? {
        guard let file = fopen(path, "r") else { return nil }
        defer { fclose(file) }
        var buffer = [CChar](repeating: 0, count: 512)
        guard fgets(&buffer, Int32(buffer.count), file) != nil else { return nil }
        let line = String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
        return line.hasSuffix("\n") ? String(line.dropLast()) : line
    }

    /// The unit in the unified hierarchy's line of /proc/PID/cgroup (`0::/system.slice/gestured.service`).
    private static func unit(of pid: Int32) -> String? {
        guard let line = firstLine("/proc/\(pid)/cgroup"), line.hasPrefix("0::") else { return nil }
        let last = line.split(separator: "/").last.map(String.init) ?? ""
        return last.hasSuffix(".service") || last.hasSuffix(".scope") ? last : nil
    }
}
