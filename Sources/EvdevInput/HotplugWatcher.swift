#if canImport(Glibc)
import Glibc
#endif
import CLinux
import GestureSystem

/// Tells the input loop when device nodes come and go, with inotify on the input directory
/// (`IN_CREATE`, `IN_ATTRIB`, `IN_DELETE`), so a daemon waiting for its panel sleeps until the
/// kernel creates the node instead of polling. `IN_ATTRIB` matters because udev may change a
/// node's group and mode just after it appears; until then open() fails with `EACCES`.
///
/// A directory that does not exist yet (`/dev/input` appears with the first input device) is
/// waited for through its parent, and watched once created.
///
/// Wraps `inotify_init1`, `inotify_add_watch`, `read(2)` of `struct inotify_event` records and
/// `close(2)` (deinit). Not `Sendable`: the input loop owns it.
public final class HotplugWatcher {
    /// One change inotify reported.
    public struct Change: Hashable, Sendable {
        /// What happened to the entry.
        public enum Kind: Hashable, Sendable {
            case created
            case attributesChanged
            case deleted
        }

        public var directory: String
        public var name: String
        public var kind: Kind

        public init(directory: String, name: String, kind: Kind) {
            self.directory = directory
            self.name = name
            self.kind = kind
        }

        public var path: String { directory + "/" + name }
    }

    /// The inotify descriptor: readable when changes are pending.
    public let fileDescriptor: Int32
    private let directories: [String]
    /// Watch descriptor → the directory it watches.
    private var watched: [Int32: String] = [:]
    /// Watch descriptor → the directories waited for in the parent it watches.
    private var waitingFor: [Int32: [String]] = [:]

    private static let directoryMask = UInt32(IN_CREATE | IN_ATTRIB | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM)
    private static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO)

    /// Watches `directories` (`/dev/input`, and the folder of a configured udev symlink).
    public init(directories: [String] = [DeviceDirectory.defaultPath]) throws(SystemError) {
        fileDescriptor = try retryingInterrupts("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) }
        self.directories = directories
        for directory in directories {
            do {
                try watch(directory)
            } catch {
                close(fileDescriptor)
                throw error
            }
        }
    }

    deinit {
        close(fileDescriptor)
    }

    /// Reads every pending notification; empty when there is none.
    public func takeChanges() -> [Change] {
        var changes: [Change] = []
        // Aligned for struct inotify_event; room for many records per read.
        let capacity = 16 * 1024
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while true {
            let count = read(fileDescriptor, buffer, capacity)
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { break }
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let record = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = buffer + offset + MemoryLayout<inotify_event>.size
                let name = String(cString: nameStart.assumingMemoryBound(to: CChar.self))
                offset += MemoryLayout<inotify_event>.size + Int(record.len)
                handle(record, name: record.len > 0 ? name : "", into: &changes)
            }
        }
        return changes
    }

    private func handle(_ record: inotify_event, name: String, into changes: inout [Change]) {
        let mask = record.mask
        if mask & UInt32(IN_IGNORED) != 0 {
            // The directory itself went away (the last input device of a devtmpfs): wait for it
            // to be created again.
            if let directory = watched.removeValue(forKey: record.wd) {
                try? watch(directory)
                changes.append(Change(directory: directory, name: "", kind: .deleted))
            }
            return
        }
        if let waited = waitingFor[record.wd] {
            for directory in waited where Self.basename(directory) == name {
                // Created while we were not looking inside: report its present entries as new.
                try? watch(directory)
                changes.append(Change(directory: directory, name: "", kind: .created))
            }
            if watched[record.wd] == nil { return }
        }
        guard let directory = watched[record.wd], !name.isEmpty else { return }
        let kind: Change.Kind
        if mask & UInt32(IN_CREATE | IN_MOVED_TO) != 0 {
            kind = .created
        } else if mask & UInt32(IN_DELETE | IN_MOVED_FROM) != 0 {
            kind = .deleted
        } else {
            kind = .attributesChanged
        }
        changes.append(Change(directory: directory, name: name, kind: kind))
    }

    /// Watches `directory`, or its parent until it exists.
    private func watch(_ directory: String) throws(SystemError) {
        let wd = inotify_add_watch(fileDescriptor, directory, Self.directoryMask)
        if wd >= 0 {
            watched[wd] = directory
            return
        }
        guard errno == ENOENT else { throw SystemError(call: "inotify_add_watch", errno: errno, subject: directory) }
        let parent = Self.parent(directory)
        let parentWD = try retryingInterrupts("inotify_add_watch", subject: parent) {
            inotify_add_watch(fileDescriptor, parent, Self.parentMask)
        }
        waitingFor[parentWD, default: []].append(directory)
        // It may have been created between the two calls.
        if access(directory, F_OK) == 0 {
            let again = inotify_add_watch(fileDescriptor, directory, Self.directoryMask)
            if again >= 0 { watched[again] = directory }
        }
    }

    static func parent(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    static func basename(_ path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }
}

@available(*, unavailable, message: "a HotplugWatcher belongs to the input loop")
extension HotplugWatcher: Sendable {}
