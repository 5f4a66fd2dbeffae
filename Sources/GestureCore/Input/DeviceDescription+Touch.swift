extension DeviceDescription {
    /// True when positions come from `ABS_MT_POSITION_X/Y` rather than `ABS_X/ABS_Y`.
    ///
    /// A description with neither axis (an Android `getevent` capture has no description, and
    /// the caller supplies ranges from the configuration) counts as multitouch: Android
    /// touchscreens all report multitouch positions.
    public var reportsMultitouchPositions: Bool {
        absInfo[AbsCode.mtPositionX] != nil || absInfo[AbsCode.x] == nil
    }

    /// The number of slots of a protocol B device (`ABS_MT_SLOT`'s maximum + 1); nil when the
    /// device declares no `ABS_MT_SLOT`.
    public var slotCount: Int? {
        guard let slot = absInfo[AbsCode.mtSlot], slot.maximum >= 0 else { return nil }
        return Int(slot.maximum) + 1
    }
}
