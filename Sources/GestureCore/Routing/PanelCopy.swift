/// The virtual panel: the copy of the real touchscreen that forwarded touches reach the desktop
/// through (docs/routing.md). What it declares is decided here, once, for the uinput device a
/// live daemon creates and for the header of the evemu recording `gestured replay` writes in
/// its place, so that the dry run and the kernel's copy are the same device.
///
/// A compositor must take the copy for the panel itself: the same name, bus, vendor, product
/// and version (per-device settings are keyed on them), the same axes with the same ranges
/// and resolutions, the same `INPUT_PROP_*` bits (`INPUT_PROP_DIRECT` makes it a
/// touchscreen). Three differences, each on purpose:
/// - `ABS_MT_TOOL_TYPE` is declared (finger … `MT_TOOL_MAX`) when the panel lacks it: a touch
///   claimed late is ended on the copy as a palm, which libinput reports as `TOUCH_CANCEL`
///   only on a device that declares the axis;
/// - the only keys are `BTN_TOUCH` and the finger-count tools (`BTN_TOOL_FINGER` …
///   `BTN_TOOL_QUINTTAP`): a `BTN_LEFT`, a pen tool or a stylus button would make udev call
///   the copy a mouse or a tablet (and a compositor map it like one);
/// - each axis keeps the fuzz the kernel driver gave it: libinput's udev rule saves a
///   touchscreen's fuzz as `LIBINPUT_FUZZ_<code>` and zeroes it on the device, so the panel's
///   own fuzz is read back from that property when udev has it, and the same rule then treats
///   the copy as it treated the panel.
public enum PanelCopy {
    /// `MT_TOOL_MAX` in `linux/input.h`.
    public static let toolTypeMaximum: Int32 = 0x0f

    /// The keys a copy keeps (a touchscreen's, nothing a pointer or a pen has).
    public static let keptKeys: Set<UInt16> = [
        KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnToolDoubletap, KeyCode.btnToolTripletap,
        KeyCode.btnToolQuadtap, KeyCode.btnToolQuinttap,
    ]

    /// The physical path the copy gets (`UI_SET_PHYS`): how gestured, its udev rule and
    /// `gestured devices` recognise a copy and never read it as a panel. uinput devices have no
    /// `uniq`, and the name must stay the panel's.
    public static func phys(of panelPhys: String?) -> String {
        "gestured-copy/" + (panelPhys ?? "")
    }

    /// The prefix of every copy's physical path.
    public static let physPrefix = "gestured-copy/"

    /// - Parameters:
    ///   - panel: the device as the forwarded stream speaks it: the panel's own description, or
    ///     for a protocol A panel the description of its converted (protocol B) stream.
    ///   - udevProperties: the panel's udev database entry, for the saved fuzz.
    public static func description(of panel: DeviceDescription, udevProperties: [String: String]? = nil) -> DeviceDescription {
        var copy = panel
        copy.codes = [:]
        for (type, codes) in panel.codes {
            switch type {
            case EventType.syn, EventType.abs: copy.codes[type] = codes
            case EventType.key: copy.codes[type] = codes.intersection(keptKeys)
            case EventType.msc: copy.codes[type] = codes.intersection([MscCode.timestamp])
            default: continue
            }
        }
        copy.codes = copy.codes.filter { !$0.value.isEmpty }
        copy.codes[EventType.syn, default: []].insert(SynCode.report)
        for (code, info) in panel.absInfo {
            var kept = info
            if let saved = udevProperties?[fuzzProperty(code)], let fuzz = Int32(saved), fuzz >= 0 { kept.fuzz = fuzz }
            copy.absInfo[code] = kept
        }
        if copy.absInfo[AbsCode.mtSlot] != nil, copy.absInfo[AbsCode.mtToolType] == nil {
            copy.absInfo[AbsCode.mtToolType] = AbsInfo(minimum: 0, maximum: toolTypeMaximum)
        }
        copy.codes[EventType.abs] = Set(copy.absInfo.keys)
        return copy
    }

    /// The udev property libinput's fuzz rule saves an axis's kernel fuzz in
    /// (`LIBINPUT_FUZZ_35` for `ABS_MT_POSITION_X`: the code in two lowercase hex digits).
    public static func fuzzProperty(_ code: UInt16) -> String {
        let hex = String(code, radix: 16)
        return "LIBINPUT_FUZZ_" + (hex.count < 2 ? "0" + hex : hex)
    }
}
