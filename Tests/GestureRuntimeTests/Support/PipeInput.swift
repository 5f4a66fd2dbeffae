#if canImport(Glibc)
import Glibc
#endif
import EvdevInput
import GestureCore
import GestureRuntime
import GestureSystem

/// A stand-in for an evdev device: raw events written into a pipe, read back when the loop
/// says the pipe is readable. End of file is the device's removal (`-ENODEV`), and an
/// `EV_SYN / SYN_DROPPED` record becomes a resync with the snapshot the test gives, as
/// ``EvdevDevice`` reports libevdev's resync.
final class PipeSource: InputSource {
    let path: String
    let fileDescriptor: Int32
    let description: DeviceDescription
    private let writeEnd: Int32
    private var writeOpen = true
    private let snapshot: () -> DeviceSnapshot?
    /// When set, reading fails with this errno once the pipe is empty (an EIO from the driver).
    var failure: Int32?

    init(path: String = "/dev/input/event-test", description: DeviceDescription,
         snapshot: @escaping () -> DeviceSnapshot? = { nil }) {
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        for fd in fds { _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
        fileDescriptor = fds[0]
        writeEnd = fds[1]
        self.path = path
        self.description = description
        self.snapshot = snapshot
    }

    deinit {
        close(fileDescriptor)
        unplug()
    }

    /// Queues events (a pipe holds 64 KiB: about 4000 of them).
    func write(_ events: [RawEvent]) {
        var records: [Int64] = []
        for event in events {
            records.append(event.time.microseconds)
            records.append(Int64(event.type) | Int64(event.code) << 16 | Int64(UInt32(bitPattern: event.value)) << 32)
        }
        let size = records.count * 8
        let written = records.withUnsafeBytes { Glibc.write(writeEnd, $0.baseAddress, size) }
        precondition(written == size, "the pipe is full")
    }

    /// Closes the write end: the reader sees end of file, as a removed device's -ENODEV.
    func unplug() {
        if writeOpen { close(writeEnd) }
        writeOpen = false
    }

    func readAvailable(into output: inout [DeviceReading]) throws(EvdevError) -> ReadEnd {
        var record: (Int64, Int64) = (0, 0)
        while true {
            let count = read(fileDescriptor, &record, 16)
            if count == 0 { return .removed }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == EAGAIN {
                    if let failure { throw .system(SystemError(call: "libevdev_next_event", errno: failure, subject: path)) }
                    return .drained
                }
                throw .system(SystemError(call: "read", errno: errno, subject: path))
            }
            let event = RawEvent(time: Timestamp(microseconds: record.0), type: UInt16(truncatingIfNeeded: record.1),
                                 code: UInt16(truncatingIfNeeded: record.1 >> 16),
                                 value: Int32(bitPattern: UInt32(truncatingIfNeeded: record.1 >> 32)))
            if event.type == EventType.syn && event.code == SynCode.dropped {
                output.append(.resynchronised(snapshot(), time: event.time))
            } else {
                output.append(.event(event))
            }
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
    private let changeRead: Int32
    private let changeWrite: Int32

    init(_ sources: [PipeSource]) {
        self.sources = sources
        var fds: [Int32] = [0, 0]
        precondition(pipe(&fds) == 0)
        for fd in fds { _ = fcntl(fd, F_SETFL, O_NONBLOCK) }
        changeRead = fds[0]
        changeWrite = fds[1]
    }

    deinit {
        close(changeRead)
        close(changeWrite)
    }

    var selectorDescription: String { "the test device" }

    var changeDescriptor: Int32 { changeRead }

    /// A node appeared: what inotify reports.
    func notifyPlugged() {
        var byte: UInt8 = 1
        _ = write(changeWrite, &byte, 1)
    }

    func takeChanges() -> Bool {
        var byte: UInt8 = 0
        var any = false
        while read(changeRead, &byte, 1) == 1 { any = true }
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

/// Keeps what the runner publishes, and stops the loop once `isDone` says so after a batch.
final class RecordingSink: EventSink {
    var events: [OutputEvent] = []
    /// The batches' JSON Lines, as `--stdout` prints them.
    var bytes: [UInt8] = []
    var batches = 0
    var isDone: (RecordingSink) -> Bool = { _ in false }
    var onDone: () -> Void = {}

    func publish(_ output: PipelineOutput) {
        events += output.events
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
