/// Something the input stage ignored because it cannot happen on a correct device or caller;
/// its description says who is at fault ("kernel bug:", "client bug:"), for the caller to log.
public enum InputAnomaly: Hashable, Sendable, CustomStringConvertible {
    /// `ABS_MT_SLOT` selected a slot the device does not declare; that slot's events are ignored.
    case slotOutOfRange(time: Timestamp, slot: Int32, slotCount: Int)
    /// A slot with no contact changed position: there is no touch to move.
    case valuesWithoutContact(time: Timestamp, slot: Int)
    /// A contact began with a tracking id that another slot's contact still has; it is ignored.
    case duplicateTrackingID(time: Timestamp, slot: Int, trackingID: Int32, otherSlot: Int)
    /// `SYN_MT_REPORT` reached the tracker: protocol A needs `ProtocolAConverter` first.
    case protocolAEvent(time: Timestamp)
    /// Input ended with events after the last `SYN_REPORT`; they were discarded unapplied.
    case partialFrameDiscarded(time: Timestamp, events: Int)

    public var description: String {
        switch self {
        case .slotOutOfRange(let time, let slot, let count):
            "kernel bug: ABS_MT_SLOT \(slot) at \(time.microseconds) µs is beyond the \(count) declared slots; "
                + "its events are ignored"
        case .valuesWithoutContact(let time, let slot):
            "kernel bug: slot \(slot) changed position at \(time.microseconds) µs with no contact in it; ignored"
        case .duplicateTrackingID(let time, let slot, let trackingID, let otherSlot):
            "kernel bug: tracking id \(trackingID) began in slot \(slot) at \(time.microseconds) µs "
                + "while slot \(otherSlot) still has it; the slot is ignored until its tracking id changes"
        case .protocolAEvent(let time):
            "client bug: SYN_MT_REPORT at \(time.microseconds) µs reached the contact tracker; "
                + "protocol A devices must go through ProtocolAConverter (mtdev) first"
        case .partialFrameDiscarded(let time, let events):
            "input ended at \(time.microseconds) µs with \(events) events after the last SYN_REPORT; "
                + "they were discarded, never half-applied"
        }
    }
}
