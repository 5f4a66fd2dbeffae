#if canImport(Glibc)
import Glibc
#endif
import EvdevInput
import GestureCore
import GestureRuntime
import GestureSystem
import SystemPackage

/// A stand-in for an evdev device: raw events written into a pipe, read back when the loop
/// says the pipe is readable. End of file is the device's removal (`-ENODEV`), and an
/// `EV_SYN / SYN_DROPPED` record becomes a resync with the snapshot the test gives, as
/// ``EvdevDevice`` reports libevdev's resync.
final class PipeSource: InputSource {
    let path: String
    let fileDescriptor: FileDescriptor
    let description: DeviceDescription
    private let writeEnd: FileDescriptor
    private var writeOpen = true
    private let snapshot: () -> DeviceSnapshot?
    /// When set, reading fails with this errno once the pipe is empty (an EIO from the driver).
    var failure: Errno?
    /// Its entry in udev's database, as ``EvdevDevice`` reads it at open.
    var udevProperties: [String: String]?
    /// Its physical path.
    var phys: String?
    /// Whether it was grabbed (``EvdevDeviceFinder`` grabs when the configuration says so).
    var isGrabbed = false

    init(path: String = "/dev/input/event-test", description: DeviceDescription,
         snapshot: @escaping () -> DeviceSnapshot? = { nil }) {
        let pipe = try! FileDescriptor.pipe()
        try! pipe.readEnd.makeNonBlockingAndCloseOnExec()
        try! pipe.writeEnd.makeNonBlockingAndCloseOnExec()
        fileDescriptor = pipe.readEnd
        writeEnd = pipe.writeEnd
        self.path = path
        self.description = description
        self.snapshot = snapshot
    }

    deinit {
        fileDescriptor.closeReleasing()
        unplug()
    }

    /// Queues events (a pipe holds 64 KiB: about 4000 of them).
    func write(_ events: [RawEvent]) {
        var records: [Int64] = []
        for event in events {
            records.append(event.time.microseconds)
            records.append(Int64(event.type) | Int64(event.code) << 16 | Int64(UInt32(bitPattern: event.value)) << 32)
        }
        let bytes = records.withUnsafeBytes { Array($0) }
        precondition((try? writeEnd.writeAll(bytes)) == bytes.count, "the pipe is full")
    }

    /// Closes the write end: the reader sees end of file, as a removed device's -ENODEV.
    func unplug() {
        if writeOpen { writeEnd.closeReleasing() }
        writeOpen = false
    }

    func readAvailable(into output: inout [RawEvent]) throws(EvdevError) -> ReadEnd {
        var buffer = [UInt8](repeating: 0, count: 16)
        while true {
            let count: Int?
            do { count = try fileDescriptor.readAvailable(into: &buffer, subject: path) } catch { throw .system(error) }
            guard let count else {
                if let failure { throw .system(SystemError(call: "libevdev_next_event", errno: failure, subject: path)) }
                return .drained
            }
            if count == 0 { return .removed }
            precondition(count == 16, "a pipe of 16-byte records gave \(count) bytes")
            let record = buffer.withUnsafeBytes { ($0.load(as: Int64.self), $0.load(fromByteOffset: 8, as: Int64.self)) }
            let event = RawEvent(time: Timestamp(microseconds: record.0), type: UInt16(truncatingIfNeeded: record.1),
                                 code: UInt16(truncatingIfNeeded: record.1 >> 16),
                                 value: Int32(bitPattern: UInt32(truncatingIfNeeded: record.1 >> 32)))
            if event.type == EventType.syn && event.code == SynCode.dropped {
                // As the device does: the read ends here; what follows is read at the next
                // wake-up (the loop waits level-triggered).
                return .resynchronised(snapshot(), time: event.time)
            }
            output.append(event)
        }
    }
}

/// Hands out pipe sources: the first at once, each later one only after a hotplug
/// notification (a byte written to the change pipe), as a device that is plugged in again.
final class PipeProvider: InputSourceProvider {
    private var sources: [PipeSource]
    /// How many sources were handed out.
    private(set) var opened = 0
    private var notified = false
    private let changeRead: FileDescriptor
    private let changeWrite: FileDescriptor

    init(_ sources: [PipeSource]) {
        self.sources = sources
        let pipe = try! FileDescriptor.pipe()
        try! pipe.readEnd.makeNonBlockingAndCloseOnExec()
        try! pipe.writeEnd.makeNonBlockingAndCloseOnExec()
        changeRead = pipe.readEnd
        changeWrite = pipe.writeEnd
    }

    deinit {
        changeRead.closeReleasing()
        changeWrite.closeReleasing()
    }

    var selectorDescription: String { "the test device" }

    var changeDescriptor: FileDescriptor { changeRead }

    /// A node appeared: what inotify reports.
    func notifyPlugged() {
        precondition((try? changeWrite.writeAll([1])) == 1)
    }

    func takeChanges() throws(EvdevError) -> Bool {
        var byte: [UInt8] = [0]
        var any = false
        do {
            while try changeRead.readAvailable(into: &byte) == 1 { any = true }
        } catch {
            throw .system(error)
        }
        if any { notified = true }
        return any
    }

    func open() throws(EvdevError) -> (any InputSource)? {
        guard opened < sources.count, opened == 0 || notified else { return nil }
        notified = false
        opened += 1
        return sources[opened - 1]
    }
}

/// Keeps what the runner publishes, and stops the loop once `isDone` says so after a batch:
/// its JSON Lines as the event sink, and its records (give ``records`` to the runner's
/// `recordSinks`), each batch's records consumed before its lines are published.
final class RecordingSink: EventSink {
    /// The pipeline's records, as values.
    let records = RecordCollector()
    /// The engine's and the edges' events, in order.
    var events: [OutputEvent] { records.events }
    /// The batches' JSON Lines, as `--stdout` prints them.
    var bytes: [UInt8] = []
    var batches = 0
    var isDone: (RecordingSink) -> Bool = { _ in false }
    var onDone: () -> Void = {}

    func publish(_ output: JSONLinesBatch) {
        bytes += output.bytes
        batches += 1
        if isDone(self) { onDone() }
    }

    /// The `action` of every device event.
    var deviceActions: [String] {
        events.compactMap { if case .device(_, let action, _, _) = $0 { action } else { nil } }
    }

    /// The engine's events as JSON Lines without `seq` (numbering differs by the device events).
    var engineLines: [String] {
        events.compactMap { if case .engine = $0 { Self.line($0) } else { nil } }
    }

    static func line(_ event: OutputEvent) -> String {
        var encoder = EventEncoder()
        return encoder.line(event).replacing("\"seq\":1,", with: "", maxReplacements: 1)
    }
}
