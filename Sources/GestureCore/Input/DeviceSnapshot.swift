/// The true state of every slot of a device at one moment, which `ContactTracker` takes after
/// `SYN_DROPPED` to cancel the contacts whose state was lost and continue the others.
public struct DeviceSnapshot: Hashable, Sendable {
    /// The slot that `ABS_MT_*` events address next (`ABS_MT_SLOT`'s current value).
    public var currentSlot: Int
    /// One entry per slot, in slot order; slots beyond the end count as empty.
    public var slots: [SlotSnapshot]

    public init(currentSlot: Int = 0, slots: [SlotSnapshot]) {
        (self.currentSlot, self.slots) = (currentSlot, slots)
    }
}
