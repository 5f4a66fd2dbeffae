import CLinux
#if canImport(Glibc)
import Glibc
#endif
import SystemPackage

/// An inotify instance (inotify(7)): inotify_init1(2), inotify_add_watch(2) and read(2) of
/// `struct inotify_event` records. Non-blocking: the event loop says when it is readable.
public final class Inotify {
    /// One record: the watch it belongs to, what happened, and the entry's name (empty for
    /// the watched directory itself).
    public struct Record: Sendable {
        public var watch: Int32
        public var mask: UInt32
        public var name: String
    }

    /// Readable when records are pending.
    public let descriptor: FileDescriptor

    /// inotify_init1(2), non-blocking and close-on-exec.
    public init() throws(SystemError) {
        descriptor = FileDescriptor(rawValue: try systemCall("inotify_init1") { inotify_init1(Int32(IN_NONBLOCK | IN_CLOEXEC)) })
    }

    deinit {
        descriptor.closeReleasing()
    }

    /// inotify_add_watch(2): the watch descriptor for `path`.
    public func addWatch(_ path: String, mask: UInt32) throws(SystemError) -> Int32 {
        let fd = descriptor.rawValue
        return try systemCall("inotify_add_watch", subject: path) { inotify_add_watch(fd, path, mask) }
    }

    /// Reads every pending record (until `EAGAIN`).
    public func takeRecords() throws(SystemError) -> [Record] {
        var records: [Record] = []
        // Aligned for struct inotify_event; room for many records per read.
        let capacity = 16 * 1024
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: MemoryLayout<inotify_event>.alignment)
        defer { buffer.deallocate() }
        while let count = try descriptor.readAvailable(into: buffer, subject: "inotify"), count > 0 {
            var offset = 0
            while offset + MemoryLayout<inotify_event>.size <= count {
                let event = buffer.load(fromByteOffset: offset, as: inotify_event.self)
                let nameStart = offset + MemoryLayout<inotify_event>.size
                let nameBytes = buffer[nameStart..<min(nameStart + Int(event.len), count)]
                offset = nameStart + Int(event.len)
                // The name is NUL-padded to an alignment boundary.
                let name = String(decoding: nameBytes.prefix { $0 != 0 }, as: UTF8.self)
                records.append(Record(watch: event.wd, mask: event.mask, name: name))
            }
        }
        return records
    }
}
