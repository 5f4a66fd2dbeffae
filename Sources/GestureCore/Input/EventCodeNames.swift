// Kernel names of the codes the input stage talks about, for anomaly and error messages
// ("kernel bug: ABS_MT_SLOT 12 is beyond ..."). Names follow input-event-codes.h.

extension AbsCode {
    /// Every `EV_ABS` code input-event-codes.h names, with its name, in code order: the one
    /// table behind ``name(_:)`` and ``code(named:)`` (a configuration's `device.axes` may name
    /// any of them).
    public static let names: [(code: UInt16, name: String)] = [
        (0x00, "ABS_X"), (0x01, "ABS_Y"), (0x02, "ABS_Z"), (0x03, "ABS_RX"), (0x04, "ABS_RY"), (0x05, "ABS_RZ"),
        (0x06, "ABS_THROTTLE"), (0x07, "ABS_RUDDER"), (0x08, "ABS_WHEEL"), (0x09, "ABS_GAS"), (0x0a, "ABS_BRAKE"),
        (0x10, "ABS_HAT0X"), (0x11, "ABS_HAT0Y"), (0x12, "ABS_HAT1X"), (0x13, "ABS_HAT1Y"), (0x14, "ABS_HAT2X"),
        (0x15, "ABS_HAT2Y"), (0x16, "ABS_HAT3X"), (0x17, "ABS_HAT3Y"), (0x18, "ABS_PRESSURE"), (0x19, "ABS_DISTANCE"),
        (0x1a, "ABS_TILT_X"), (0x1b, "ABS_TILT_Y"), (0x1c, "ABS_TOOL_WIDTH"), (0x20, "ABS_VOLUME"),
        (0x21, "ABS_PROFILE"), (0x28, "ABS_MISC"), (0x2f, "ABS_MT_SLOT"), (0x30, "ABS_MT_TOUCH_MAJOR"),
        (0x31, "ABS_MT_TOUCH_MINOR"), (0x32, "ABS_MT_WIDTH_MAJOR"), (0x33, "ABS_MT_WIDTH_MINOR"),
        (0x34, "ABS_MT_ORIENTATION"), (0x35, "ABS_MT_POSITION_X"), (0x36, "ABS_MT_POSITION_Y"),
        (0x37, "ABS_MT_TOOL_TYPE"), (0x38, "ABS_MT_BLOB_ID"), (0x39, "ABS_MT_TRACKING_ID"), (0x3a, "ABS_MT_PRESSURE"),
        (0x3b, "ABS_MT_DISTANCE"), (0x3c, "ABS_MT_TOOL_X"), (0x3d, "ABS_MT_TOOL_Y"),
    ]

    /// The kernel's name for an `EV_ABS` code (`ABS_MT_POSITION_X`), or its hex value.
    public static func name(_ code: UInt16) -> String {
        names.first { $0.code == code }?.name ?? "ABS_0x" + String(code, radix: 16)
    }

    /// The code the kernel names `name` (`"ABS_Z"` → 2); nil for a name it does not have.
    public static func code(named name: String) -> UInt16? {
        names.first { $0.name == name }?.code
    }

    /// True for the per-contact codes of the multitouch protocol (`ABS_MT_TOUCH_MAJOR` …
    /// `ABS_MT_TOOL_Y`, the codes above `ABS_MT_SLOT`).
    public static func isMultitouch(_ code: UInt16) -> Bool {
        code > mtSlot && code <= max
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
