/// What kind of input device a `DeviceDescription` describes, how it reports contacts and a
/// human-readable reason, for replay (which refuses touchpad recordings) and for `auto` device
/// selection (which picks the first touchscreen).
///
/// The rule (SPEC 6, in the spirit of libinput's `evdev_configure_device`): no position axes →
/// not a touch device; `INPUT_PROP_DIRECT` → touchscreen; otherwise any pointer sign
/// (`INPUT_PROP_POINTER`, `INPUT_PROP_BUTTONPAD`, `INPUT_PROP_TOPBUTTONPAD`,
/// `INPUT_PROP_SEMI_MT`, `BTN_LEFT/RIGHT/MIDDLE`, `BTN_TOOL_DOUBLETAP` … `QUINTTAP`, `REL_X/Y`)
/// → touchpad; otherwise multitouch position axes → touchscreen. Beyond SPEC 6, a device with
/// `BTN_TOUCH` + `ABS_X/ABS_Y` and no pointer sign is a single-touch touchscreen: old resistive
/// panels (eGalax, 3M) set no properties at all. `ABS_X/ABS_Y` without `BTN_TOUCH`
/// (joysticks) and pens without multitouch axes (`BTN_TOOL_PEN`: tablets, pen displays) are
/// not touch devices.
public struct DeviceClassification: Hashable, Sendable {
    /// The device's role for gestured.
    public enum Kind: Hashable, Sendable {
        /// A direct-touch screen: a candidate for `auto` and for replay.
        case touchscreen
        /// An indirect touch surface (laptop touchpad): never picked.
        case touchpad
        /// Not a touch device at all (keyboard, mouse, joystick, pen tablet …).
        case notTouch
    }

    public var kind: Kind
    /// How contacts are reported; nil for devices without position axes.
    public var contactProtocol: ContactProtocol?
    /// True for a multitouch device with no `BTN_TOUCH` and no `ABS_X/ABS_Y` (the Nexus 4's
    /// `touch_dev`): everything must come from the slots.
    public var isMultitouchOnly: Bool
    /// Why the device got its kind, naming the property or code that decided
    /// ("touchpad: INPUT_PROP_BUTTONPAD is set").
    public var reason: String

    /// True for the devices `auto` may pick.
    public var isDirectTouch: Bool { kind == .touchscreen }

    public init(kind: Kind, contactProtocol: ContactProtocol?, isMultitouchOnly: Bool, reason: String) {
        self.kind = kind
        self.contactProtocol = contactProtocol
        self.isMultitouchOnly = isMultitouchOnly
        self.reason = reason
    }

    /// Classifies `description` by the rule in the type's doc.
    public init(_ description: DeviceDescription) {
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

        guard contactProtocol != nil else {
            kind = .notTouch
            reason = "not a touch device: no position axes (ABS_MT_POSITION_X/Y or ABS_X/Y)"
            return
        }
        let hasPen = description.has(type: EventType.key, code: KeyCode.btnToolPen)
        if !hasMultitouch && hasPen {
            kind = .notTouch
            reason = "not a touch device: BTN_TOOL_PEN without multitouch axes (a pen tablet or pen display)"
            return
        }
        if description.has(property: InputProperty.direct) {
            kind = .touchscreen
            reason = "touchscreen: INPUT_PROP_DIRECT is set"
            return
        }
        if let sign = Self.pointerSign(of: description) {
            if hasMultitouch || hasTouchKey {
                kind = .touchpad
                reason = "touchpad: \(sign)"
            } else {
                kind = .notTouch
                reason = "not a touch device: \(sign) and no BTN_TOUCH (an absolute pointer)"
            }
            return
        }
        if hasMultitouch {
            kind = .touchscreen
            reason = "touchscreen: multitouch position axes and no pointer properties"
        } else if hasTouchKey {
            kind = .touchscreen
            reason = "touchscreen: single-touch BTN_TOUCH + ABS_X/ABS_Y and no pointer properties"
        } else {
            kind = .notTouch
            reason = "not a touch device: ABS_X/ABS_Y without BTN_TOUCH (a joystick or absolute pointer)"
        }
    }

    /// The first sign that the device drives a pointer rather than touching the screen, as a
    /// reason fragment; nil when there is none.
    static func pointerSign(of description: DeviceDescription) -> String? {
        for property in [InputProperty.buttonpad, InputProperty.topButtonpad, InputProperty.pointer,
                         InputProperty.semiMT]
        where description.has(property: property) {
            return "\(InputProperty.name(property)) is set"
        }
        for key in [KeyCode.btnLeft, KeyCode.btnRight, KeyCode.btnMiddle, KeyCode.btnToolDoubletap,
                    KeyCode.btnToolTripletap, KeyCode.btnToolQuadtap, KeyCode.btnToolQuinttap]
        where description.has(type: EventType.key, code: key) {
            return "\(KeyCode.name(key)) is declared"
        }
        for (code, name) in [(RelCode.x, "REL_X"), (RelCode.y, "REL_Y")]
        where description.has(type: EventType.rel, code: code) {
            return "\(name) is declared"
        }
        return nil
    }
}
