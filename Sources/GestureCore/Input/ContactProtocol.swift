/// How a touch device reports its contacts (the kernel's Documentation/input/multi-touch-protocol.rst).
public enum ContactProtocol: Hashable, Sendable {
    /// Protocol B: `ABS_MT_SLOT` and `ABS_MT_TRACKING_ID`, `slotCount` slots (1 when the
    /// device sends tracking ids but declares no `ABS_MT_SLOT`).
    case slots(count: Int)
    /// Protocol A: anonymous contacts separated by `SYN_MT_REPORT`; needs mtdev.
    case protocolA
    /// `BTN_TOUCH` + `ABS_X/ABS_Y`: one contact.
    case singleTouch
}
