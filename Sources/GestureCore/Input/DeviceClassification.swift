/// What kind of input device a `DeviceDescription` describes, how it reports contacts and a
/// human-readable reason, for replay (which refuses what is not a touchscreen) and for `auto`
/// device selection (which picks the first touchscreen).
///
/// The kind is udev's (docs/input.md, "Devices"): what its `input_id` builtin decides as
/// `ID_INPUT_TOUCHSCREEN`, `ID_INPUT_TOUCHPAD` and `ID_INPUT_TABLET` — the properties libinput and every
/// compositor trust. Live, the device's entry in udev's database (`/run/udev/data/c13:MINOR`) is given as
/// `udevProperties` and decides, hwdb and local rules included; otherwise, and for recordings,
/// the same rule is computed from the capabilities, as systemd's
/// `src/udev/udev-builtin-input_id.c` (`test_pointers`) does:
///
/// - an accelerometer (`INPUT_PROP_ACCELEROMETER`, or X/Y/Z axes and no keys) is none of them;
/// - for absolute position (`ABS_X`+`ABS_Y`, and again for `ABS_MT_POSITION_X`+`_Y`): a pen or
///   stylus button (`BTN_TOOL_PEN`, `BTN_STYLUS`) → tablet; else `BTN_TOOL_FINGER` without
///   `INPUT_PROP_DIRECT` → touchpad; else (`ABS_X/Y` only) `BTN_LEFT` → an absolute mouse;
///   else `BTN_TOUCH` or `INPUT_PROP_DIRECT` → touchscreen;
/// - multitouch axes do not count on a device that declares every axis (`ABS_MT_SLOT` and the
///   axis below it: a confused firmware, udev's own exception).
///
/// So the N-Trig digitisers of tablet PCs (protocol A, `BTN_TOUCH`, `BTN_TOOL_DOUBLETAP`, no
/// `INPUT_PROP_DIRECT`) are touchscreens, and the classic eGalax 0eef:0001 controller, which
/// declares pen buttons, is a tablet unless the configuration says otherwise (`device.type`).
public struct DeviceClassification: Hashable, Sendable {
    /// The device's role for gestured.
    public enum Kind: String, Hashable, Sendable {
        /// A direct-touch screen (`ID_INPUT_TOUCHSCREEN`): a candidate for `auto` and for replay.
        case touchscreen
        /// An indirect touch surface (`ID_INPUT_TOUCHPAD`, a laptop touchpad): never picked.
        case touchpad
        /// A pen tablet or pen display (`ID_INPUT_TABLET`): never picked.
        case tablet
        /// Not a touch device at all (keyboard, mouse, joystick, accelerometer …).
        case notTouch
    }

    /// What decided the kind.
    public enum Basis: Hashable, Sendable {
        /// The device's entry in udev's database.
        case udevDatabase
        /// udev's `input_id` rule computed from the capabilities (recordings, or no database).
        case capabilities
        /// The configuration's `device.type`.
        case configuration
    }

    public var kind: Kind
    public var basis: Basis
    /// How contacts are reported; nil for devices without position axes.
    public var contactProtocol: ContactProtocol?
    /// True for a multitouch device with no `BTN_TOUCH` and no `ABS_X/ABS_Y` (the Nexus 4's
    /// `touch_dev`): everything must come from the slots.
    public var isMultitouchOnly: Bool
    /// Why the device got its kind, naming the property or code that decided
    /// ("touchpad: BTN_TOOL_FINGER without INPUT_PROP_DIRECT (udev's input_id rule)").
    public var reason: String

    /// True for the devices `auto` may pick and replay accepts.
    public var isDirectTouch: Bool { kind == .touchscreen }

    public init(kind: Kind, basis: Basis = .capabilities, contactProtocol: ContactProtocol?, isMultitouchOnly: Bool,
                reason: String) {
        (self.kind, self.basis, self.contactProtocol, self.isMultitouchOnly, self.reason) =
            (kind, basis, contactProtocol, isMultitouchOnly, reason)
    }

    /// The udev properties that classify an input device, in the order they win here.
    public static let udevKindProperties: [(property: String, kind: Kind)] = [
        ("ID_INPUT_TOUCHSCREEN", .touchscreen), ("ID_INPUT_TOUCHPAD", .touchpad), ("ID_INPUT_TABLET", .tablet),
    ]

    /// Classifies `description` by udev's database entry when there is one (`udevProperties`,
    /// its `E:` lines), else by udev's `input_id` rule over the capabilities; `override` is
    /// the configuration's `device.type`, which wins over both.
    public init(_ description: DeviceDescription, udevProperties: [String: String]? = nil, override: Kind? = nil) {
        let hasMultitouch = description.absInfo[AbsCode.mtPositionX] != nil
            && description.absInfo[AbsCode.mtPositionY] != nil
        let hasSingleTouchAxes = description.absInfo[AbsCode.x] != nil && description.absInfo[AbsCode.y] != nil
        let hasTouchKey = description.has(type: EventType.key, code: KeyCode.btnTouch)

        let contactProtocol: ContactProtocol?
        if hasMultitouch {
            if let count = description.slotCount {
                contactProtocol = .slots(count: count)
            } else if description.absInfo[AbsCode.mtTrackingID] != nil {
                contactProtocol = .slots(count: 1)
            } else {
                contactProtocol = .protocolA
            }
        } else if hasSingleTouchAxes {
            contactProtocol = .singleTouch
        } else {
            contactProtocol = nil
        }
        self.contactProtocol = contactProtocol
        isMultitouchOnly = hasMultitouch && !hasSingleTouchAxes && !hasTouchKey

        if let override {
            kind = override
            basis = .configuration
            reason = "\(override.rawValue): the configuration's device.type says so"
        } else if let udevProperties, udevProperties["ID_INPUT"] == "1" {
            basis = .udevDatabase
            let decided = Self.udevKindProperties.first { udevProperties[$0.property] == "1" }
            kind = decided?.kind ?? .notTouch
            reason = decided.map { "\($0.kind.rawValue): udev says \($0.property)=1" }
                ?? "not a touch device: udev sets none of ID_INPUT_TOUCHSCREEN, ID_INPUT_TOUCHPAD, ID_INPUT_TABLET"
        } else {
            basis = .capabilities
            (kind, reason) = Self.inputIDRule(description)
        }
        if contactProtocol == nil {
            let said = kind == .notTouch ? "" : " (although \(reason))"
            kind = .notTouch
            reason = "not a touch device: no position axes (ABS_MT_POSITION_X/Y or ABS_X/Y)" + said
        }
    }

    /// udev's `input_id` builtin over the capabilities (the type's doc), with the reason.
    static func inputIDRule(_ d: DeviceDescription) -> (Kind, String) {
        let rule = "(udev's input_id rule)"
        func key(_ code: UInt16) -> Bool { d.has(type: EventType.key, code: code) }
        let hasKeys = !(d.codes[EventType.key]?.isEmpty ?? true)
        let hasAbs = d.absInfo[AbsCode.x] != nil && d.absInfo[AbsCode.y] != nil
        if d.has(property: InputProperty.accelerometer) || (!hasKeys && hasAbs && d.absInfo[AbsCode.z] != nil) {
            return (.notTouch, "not a touch device: an accelerometer \(rule)")
        }
        var hasMultitouch = d.absInfo[AbsCode.mtPositionX] != nil && d.absInfo[AbsCode.mtPositionY] != nil
        if hasMultitouch && d.absInfo[AbsCode.mtSlot] != nil && d.absInfo[AbsCode.mtSlot - 1] != nil {
            hasMultitouch = false // it declares every axis: its multitouch axes mean nothing
        }
        guard hasAbs || hasMultitouch else {
            return (.notTouch, "not a touch device: no absolute position \(rule)")
        }
        let pen = key(KeyCode.btnToolPen) ? "BTN_TOOL_PEN" : key(KeyCode.btnStylus) ? "BTN_STYLUS" : nil
        let direct = d.has(property: InputProperty.direct)
        if let pen {
            return (.tablet, "tablet: \(pen) is declared \(rule)")
        }
        if key(KeyCode.btnToolFinger) && !direct {
            return (.touchpad, "touchpad: BTN_TOOL_FINGER without INPUT_PROP_DIRECT \(rule)")
        }
        if hasAbs && key(KeyCode.btnLeft) && !hasMultitouch {
            return (.notTouch, "not a touch device: BTN_LEFT with absolute position, an absolute mouse \(rule)")
        }
        if direct {
            return (.touchscreen, "touchscreen: INPUT_PROP_DIRECT with absolute position \(rule)")
        }
        if key(KeyCode.btnTouch) {
            return (.touchscreen, "touchscreen: BTN_TOUCH with absolute position \(rule)")
        }
        return (.notTouch, "not a touch device: absolute position without BTN_TOUCH or INPUT_PROP_DIRECT \(rule)")
    }
}
