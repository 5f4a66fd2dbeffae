import GestureCore

/// Why a read stopped. The events read are in the caller's array, in the order the kernel
/// delivered them (`CLOCK_MONOTONIC` stamps); what else happened comes here, after them, so a
/// frame's 33 events cost nothing beyond their copy (an enum per event, with the snapshot's
/// case beside them, was copied and destroyed through its value witnesses).
public enum ReadEnd: Hashable, Sendable {
    /// Everything available was read (`-EAGAIN`); wait until the descriptor is readable again.
    case drained
    /// The device is gone (`-ENODEV`, or end of file): close it and wait for it to return.
    case removed
    /// The kernel dropped events (`SYN_DROPPED`) after the events read, and what it still
    /// queued was thrown away; `snapshot` is the device's true state afterwards, or nil when
    /// the device has no slots to report (protocol A: the contacts can only be cancelled).
    /// `time` is the `SYN_DROPPED`'s. Wait until the descriptor is readable again.
    case resynchronised(DeviceSnapshot?, time: Timestamp)
}
