import GestureCore

/// One item read from a live device, in the order the kernel delivered it.
public enum DeviceReading: Hashable, Sendable {
    /// An event as the kernel stamped it (`CLOCK_MONOTONIC`).
    case event(RawEvent)
    /// The kernel dropped events (`SYN_DROPPED`) and libevdev resynchronised; `snapshot` is the
    /// device's true state afterwards, or nil when the device has no slots to report
    /// (protocol A: the contacts can only be cancelled). `time` is the `SYN_DROPPED`'s.
    /// Indirect: the snapshot's arrays inline made every reading's copy and destruction go
    /// through the enum's value witnesses (33 readings a 10-finger frame); boxed, the rare
    /// resynchronisation pays an allocation and an event costs a tag test.
    indirect case resynchronised(DeviceSnapshot?, time: Timestamp)
}

/// Why a read stopped.
public enum ReadEnd: Hashable, Sendable {
    /// Everything available was read (`-EAGAIN`); wait until the descriptor is readable again.
    case drained
    /// The device is gone (`-ENODEV`, or end of file): close it and wait for it to return.
    case removed
}
