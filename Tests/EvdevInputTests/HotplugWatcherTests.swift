#if canImport(Glibc)
import Glibc
#endif
import EvdevInput
import Testing

/// inotify on a temporary directory standing in for /dev/input: notifications are queued by
/// the time the file system call returns, so the tests read them without waiting.
@Suite("Hotplug watcher")
struct HotplugWatcherTests {
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/gestured-hotplug.XXXXXX".utf8CString)
        let path = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        return path
    }

    @Test func reportsCreatedChangedAndDeletedNodes() throws {
        let directory = Self.temporaryDirectory()
        defer { rmdir(directory) }
        let watcher = try HotplugWatcher(directories: [directory])
        #expect(try watcher.takeChanges().isEmpty)

        let node = directory + "/event7"
        close(open(node, O_CREAT | O_WRONLY, 0o600))
        chmod(node, 0o660)  // what udev does once it has given the node its group
        unlink(node)
        let changes = try watcher.takeChanges()
        #expect(changes.map(\.kind) == [.created, .attributesChanged, .deleted])
        #expect(changes.allSatisfy { $0.path == node })
        #expect(try watcher.takeChanges().isEmpty)
    }

    @Test func aDirectoryThatDoesNotExistYetIsWatchedOnceCreated() throws {
        let parent = Self.temporaryDirectory()
        let directory = parent + "/input"
        defer { rmdir(directory); rmdir(parent) }
        let watcher = try HotplugWatcher(directories: [directory])
        mkdir(directory, 0o755)
        #expect(try watcher.takeChanges() == [HotplugWatcher.Change(directory: directory, name: "", kind: .created)])
        let node = directory + "/event0"
        close(open(node, O_CREAT | O_WRONLY, 0o600))
        unlink(node)
        #expect(try watcher.takeChanges().map(\.kind) == [.created, .deleted])
    }

    @Test func theDescriptorIsReadableOnlyWhileChangesArePending() throws {
        let directory = Self.temporaryDirectory()
        defer { rmdir(directory) }
        let watcher = try HotplugWatcher(directories: [directory])
        var poll = pollfd(fd: watcher.fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
        #expect(Glibc.poll(&poll, 1, 0) == 0)
        mkdir(directory + "/by-id", 0o755)
        #expect(Glibc.poll(&poll, 1, 0) == 1)
        _ = try watcher.takeChanges()
        rmdir(directory + "/by-id")
        _ = try watcher.takeChanges()
        #expect(Glibc.poll(&poll, 1, 0) == 0)
    }
}
