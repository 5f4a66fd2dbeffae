// Kernel names of the codes the input stage talks about, for anomaly and error messages
// ("kernel bug: ABS_MT_SLOT 12 is beyond ..."). Names follow input-event-codes.h.

extension AbsCode {
    /// The kernel's name for an `EV_ABS` code (`ABS_MT_POSITION_X`), or its hex value.
    public static func name(_ code: UInt16) -> String {
        switch code {
        case x: "ABS_X"
        case y: "ABS_Y"
        case pressure: "ABS_PRESSURE"
        case mtSlot: "ABS_MT_SLOT"
        case mtTouchMajor: "ABS_MT_TOUCH_MAJOR"
        case mtTouchMinor: "ABS_MT_TOUCH_MINOR"
        case mtWidthMajor: "ABS_MT_WIDTH_MAJOR"
        case mtWidthMinor: "ABS_MT_WIDTH_MINOR"
        case mtOrientation: "ABS_MT_ORIENTATION"
        case mtPositionX: "ABS_MT_POSITION_X"
        case mtPositionY: "ABS_MT_POSITION_Y"
        case mtToolType: "ABS_MT_TOOL_TYPE"
        case mtBlobID: "ABS_MT_BLOB_ID"
        case mtTrackingID: "ABS_MT_TRACKING_ID"
        case mtPressure: "ABS_MT_PRESSURE"
        case mtDistance: "ABS_MT_DISTANCE"
        case mtToolX: "ABS_MT_TOOL_X"
        case mtToolY: "ABS_MT_TOOL_Y"
        default: "ABS_0x" + String(code, radix: 16)
        }
    }
}

extension KeyCode {
    /// The kernel's name for an `EV_KEY` code (`BTN_TOUCH`), or its hex value.
    public static func name(_ code: UInt16) -> String {
        switch code {
        case btnLeft: "BTN_LEFT"
        case btnRight: "BTN_RIGHT"
        case btnMiddle: "BTN_MIDDLE"
        case btnToolPen: "BTN_TOOL_PEN"
        case btnToolRubber: "BTN_TOOL_RUBBER"
        case btnToolFinger: "BTN_TOOL_FINGER"
        case btnTouch: "BTN_TOUCH"
        case btnStylus: "BTN_STYLUS"
        case btnToolDoubletap: "BTN_TOOL_DOUBLETAP"
        case btnToolTripletap: "BTN_TOOL_TRIPLETAP"
        case btnToolQuadtap: "BTN_TOOL_QUADTAP"
        case btnToolQuinttap: "BTN_TOOL_QUINTTAP"
        default: "KEY_0x" + String(code, radix: 16)
        }
    }
}

extension InputProperty {
    /// The kernel's name for an `INPUT_PROP_*` bit (`INPUT_PROP_BUTTONPAD`), or its number.
    public static func name(_ property: UInt16) -> String {
        switch property {
        case pointer: "INPUT_PROP_POINTER"
        case direct: "INPUT_PROP_DIRECT"
        case buttonpad: "INPUT_PROP_BUTTONPAD"
        case semiMT: "INPUT_PROP_SEMI_MT"
        case topButtonpad: "INPUT_PROP_TOPBUTTONPAD"
        case pointingStick: "INPUT_PROP_POINTING_STICK"
        case accelerometer: "INPUT_PROP_ACCELEROMETER"
        default: "INPUT_PROP_" + String(property)
        }
    }
}
