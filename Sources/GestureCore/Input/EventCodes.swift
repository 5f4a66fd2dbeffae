// Event types and codes from the kernel's include/uapi/linux/input-event-codes.h.
// The pure core cannot import the C header, so the values it needs are repeated here.

/// Kernel event types (`EV_*`).
public enum EventType {
    public static let syn: UInt16 = 0x00
    public static let key: UInt16 = 0x01
    public static let rel: UInt16 = 0x02
    public static let abs: UInt16 = 0x03
    public static let msc: UInt16 = 0x04
    public static let sw: UInt16 = 0x05
    public static let led: UInt16 = 0x11
    public static let snd: UInt16 = 0x12
    public static let rep: UInt16 = 0x14
    public static let ff: UInt16 = 0x15
    public static let max: UInt16 = 0x1f
}

/// `EV_SYN` codes.
public enum SynCode {
    public static let report: UInt16 = 0
    public static let config: UInt16 = 1
    public static let mtReport: UInt16 = 2
    public static let dropped: UInt16 = 3
}

/// `EV_ABS` codes used by touchscreens.
public enum AbsCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
    public static let z: UInt16 = 0x02
    public static let rx: UInt16 = 0x03
    public static let ry: UInt16 = 0x04
    public static let rz: UInt16 = 0x05
    public static let throttle: UInt16 = 0x06
    public static let rudder: UInt16 = 0x07
    public static let wheel: UInt16 = 0x08
    public static let gas: UInt16 = 0x09
    public static let brake: UInt16 = 0x0a
    public static let pressure: UInt16 = 0x18
    public static let mtSlot: UInt16 = 0x2f
    public static let mtTouchMajor: UInt16 = 0x30
    public static let mtTouchMinor: UInt16 = 0x31
    public static let mtWidthMajor: UInt16 = 0x32
    public static let mtWidthMinor: UInt16 = 0x33
    public static let mtOrientation: UInt16 = 0x34
    public static let mtPositionX: UInt16 = 0x35
    public static let mtPositionY: UInt16 = 0x36
    public static let mtToolType: UInt16 = 0x37
    public static let mtBlobID: UInt16 = 0x38
    public static let mtTrackingID: UInt16 = 0x39
    public static let mtPressure: UInt16 = 0x3a
    public static let mtDistance: UInt16 = 0x3b
    public static let mtToolX: UInt16 = 0x3c
    public static let mtToolY: UInt16 = 0x3d
    public static let max: UInt16 = 0x3f
}

/// `EV_KEY` codes used by touch devices.
public enum KeyCode {
    public static let btn1: UInt16 = 0x101
    public static let btnLeft: UInt16 = 0x110
    public static let btnTrigger: UInt16 = 0x120
    public static let btnA: UInt16 = 0x130
    public static let btnRight: UInt16 = 0x111
    public static let btnMiddle: UInt16 = 0x112
    public static let btnToolPen: UInt16 = 0x140
    public static let btnToolRubber: UInt16 = 0x141
    public static let btnToolFinger: UInt16 = 0x145
    public static let btnTouch: UInt16 = 0x14a
    public static let btnStylus: UInt16 = 0x14b
    public static let btnToolDoubletap: UInt16 = 0x14d
    public static let btnToolTripletap: UInt16 = 0x14e
    public static let btnToolQuadtap: UInt16 = 0x14f
    public static let btnToolQuinttap: UInt16 = 0x148
}

/// `EV_REL` codes (their presence marks a pointer device).
public enum RelCode {
    public static let x: UInt16 = 0x00
    public static let y: UInt16 = 0x01
}

/// `EV_MSC` codes.
public enum MscCode {
    public static let scan: UInt16 = 0x04
    public static let timestamp: UInt16 = 0x05
}

/// `MT_TOOL_*` values of `ABS_MT_TOOL_TYPE`.
public enum ToolType {
    public static let finger: Int32 = 0
    public static let pen: Int32 = 1
    public static let palm: Int32 = 2
}

/// `INPUT_PROP_*` bit numbers.
public enum InputProperty {
    public static let pointer: UInt16 = 0x00
    public static let direct: UInt16 = 0x01
    public static let buttonpad: UInt16 = 0x02
    public static let semiMT: UInt16 = 0x03
    public static let topButtonpad: UInt16 = 0x04
    public static let pointingStick: UInt16 = 0x05
    public static let accelerometer: UInt16 = 0x06
}
