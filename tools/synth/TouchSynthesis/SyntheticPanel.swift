/// The panel a script plays on when it names none: gestured's own virtual touchscreen, the
/// device of the project's recordings (the same text as `config/recordings/panel.desc`, which a
/// test compares). A 1920 x 1080 protocol-B panel with 10 slots whose axes map to any screen,
/// so a web developer's script needs no description file.
public enum SyntheticPanel {
    /// The longest panel description file read, in bytes (a real one is a few kilobytes).
    public static let maximumDescriptionSize = 1 << 20

    /// The evemu description.
    public static let description = """
        # EVEMU 1.3
        # gestured's virtual touch panel, the device of the project's own recordings: a 21.7-inch
        # (480 x 270 mm) 1920 x 1080 direct-touch screen, multitouch protocol B with 10 slots, in
        # evemu's description format (evemu-device creates it through /dev/uinput).
        # 19200 x 10800 device units at 40 units per millimetre: 10 units per point of a 1920 x 1080
        # screen, so a whole or tenth point maps to a device value exactly.
        N: gestured virtual touchscreen
        # Bus 0x06 (BUS_VIRTUAL), no vendor or product: this panel exists only in software.
        I: 0006 0000 0000 0001
        # Properties: INPUT_PROP_DIRECT (a touchscreen, not a touchpad).
        P: 02 00 00 00 00 00 00 00
        # Event types: EV_SYN, EV_KEY, EV_ABS.
        B: 00 0b 00 00 00 00 00 00 00
        # EV_KEY: BTN_TOUCH (0x14a).
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 04 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 01 00 00 00 00 00 00 00 00
        B: 02 00 00 00 00 00 00 00 00
        # EV_ABS: ABS_X, ABS_Y, ABS_MT_SLOT, ABS_MT_TOUCH_MAJOR, ABS_MT_POSITION_X/Y, ABS_MT_TRACKING_ID.
        B: 03 03 00 00 00 00 80 61 02
        B: 04 00 00 00 00 00 00 00 00
        B: 05 00 00 00 00 00 00 00 00
        B: 11 00 00 00 00 00 00 00 00
        B: 12 00 00 00 00 00 00 00 00
        B: 14 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        B: 15 00 00 00 00 00 00 00 00
        # Axes: code, minimum, maximum, fuzz, flat, resolution (units per mm).
        A: 00 0 19199 0 0 40
        A: 01 0 10799 0 0 40
        A: 2f 0 9 0 0 0
        A: 30 0 1023 0 0 40
        A: 35 0 19199 0 0 40
        A: 36 0 10799 0 0 40
        A: 39 0 65535 0 0 0

        """
}
