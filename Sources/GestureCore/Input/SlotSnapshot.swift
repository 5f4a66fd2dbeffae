/// The true state of one slot, read from the device after `SYN_DROPPED` (libevdev's slot
/// values after its resync), for `ContactTracker.reconcile(with:at:)`.
public struct SlotSnapshot: Hashable, Sendable {
    /// `ABS_MT_TRACKING_ID`; -1 (any negative value) when no contact is in the slot. On a
    /// single-touch device: 0 while `BTN_TOUCH` is down, else -1.
    public var trackingID: Int32
    /// The slot's position values; nil keeps the last known position (libevdev always knows
    /// them, so a live resync gives them all).
    public var position: DevicePosition?
    /// `ABS_MT_TOUCH_MAJOR`; nil keeps the last known value.
    public var touchMajor: Int32?
    /// `ABS_MT_PRESSURE` (`ABS_PRESSURE` on a single-touch device); nil keeps the last known value.
    public var pressure: Int32?
    /// `ABS_MT_TOOL_TYPE` (`MT_TOOL_FINGER` when the device has no such axis).
    public var toolType: Int32

    public init(trackingID: Int32, position: DevicePosition? = nil, touchMajor: Int32? = nil,
                pressure: Int32? = nil, toolType: Int32 = ToolType.finger) {
        (self.trackingID, self.position, self.touchMajor, self.pressure, self.toolType) =
            (trackingID, position, touchMajor, pressure, toolType)
    }

    /// A slot with no contact.
    public static let empty = SlotSnapshot(trackingID: -1)
}
