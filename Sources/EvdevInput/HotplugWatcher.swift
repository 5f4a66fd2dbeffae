import CLinux
import GestureSystem
import SystemPackage

/// Tells the input loop when device nodes come and go, with inotify on the input directory
/// (`IN_CREATE`, `IN_ATTRIB`, `IN_DELETE`), so a daemon waiting for its panel sleeps until the
/// kernel creates the node instead of polling. `IN_ATTRIB` matters because udev may change a
/// node's group and mode just after it appears; until then open() fails with `EACCES`.
///
/// A directory that does not exist yet (`/dev/input` appears with the first input device) is
/// waited for through its parent, and watched once created.
///
/// The inotify calls are GestureSystem's ``Inotify``. Not `Sendable`: the input loop owns it.
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
            (self.directory, self.name, self.kind) = (directory, name, kind)
        }

        public var path: String { directory + "/" + name }
    }

    /// The inotify descriptor: readable when changes are pending.
    public var fileDescriptor: FileDescriptor { inotify.descriptor }
    private let inotify: Inotify
    private let directories: [String]
    /// Watch descriptor → the directory it watches.
    private var watched: [Int32: String] = [:]
    /// Watch descriptor → the directories waited for in the parent it watches.
    private var waitingFor: [Int32: [String]] = [:]

    private static let directoryMask = UInt32(IN_CREATE | IN_ATTRIB | IN_DELETE | IN_MOVED_TO | IN_MOVED_FROM)
    private static let parentMask = UInt32(IN_CREATE | IN_MOVED_TO)

    /// Watches `directories` (`/dev/input`, and the folder of a configured udev symlink).
    public init(directories: [String] = [DeviceDirectory.defaultPath]) throws(SystemError) {
        inotify = try Inotify()
        self.directories = directories
        for directory in directories {
            try watch(directory)
        }
    }

    /// Reads every pending notification; empty when there is none.
    public func takeChanges() throws(SystemError) -> [Change] {
        var changes: [Change] = []
        for record in try inotify.takeRecords() {
            handle(record, into: &changes)
        }
        return changes
    }

    private func handle(_ record: Inotify.Record, into changes: inout [Change]) {
        let mask = record.mask
        let name = record.name
        if mask & UInt32(IN_IGNORED) != 0 {
            // The directory itself went away (the last input device of a devtmpfs): wait for it
            // to be created again.
            if let directory = watched.removeValue(forKey: record.watch) {
                try? watch(directory)
                changes.append(Change(directory: directory, name: "", kind: .deleted))
            }
            return
        }
        if let waited = waitingFor[record.watch] {
            for directory in waited where Self.basename(directory) == name {
                // Created while we were not looking inside: report its present entries as new.
                try? watch(directory)
                changes.append(Change(directory: directory, name: "", kind: .created))
            }
            if watched[record.watch] == nil { return }
        }
        guard let directory = watched[record.watch], !name.isEmpty else { return }
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
        do {
            watched[try inotify.addWatch(directory, mask: Self.directoryMask)] = directory
            return
        } catch where error.errno == .noSuchFileOrDirectory {
            // Not there yet: wait for it in its parent.
        }
        let parent = Self.parent(directory)
        waitingFor[try inotify.addWatch(parent, mask: Self.parentMask), default: []].append(directory)
        // It may have been created between the two calls; if it went again, the parent's
        // watch reports its next creation.
        if pathExists(directory), let again = try? inotify.addWatch(directory, mask: Self.directoryMask) {
            watched[again] = directory
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
