import GestureCore

/// Device descriptions modelled on the headers (N:, I:, P:, B: and A: lines) of real recordings
/// of the external corpus, written by hand so the tests depend neither on a reader nor on the
/// corpus.
enum DeviceFixtures {
    private static func axis(_ min: Int32, _ max: Int32, fuzz: Int32 = 0, resolution: Int32 = 0) -> AbsInfo {
        AbsInfo(minimum: min, maximum: max, fuzz: fuzz, resolution: resolution)
    }

    /// hidrec-egalax-7224.2f.evemu lines 56–85: P: 02 (DIRECT), BTN_TOUCH, 8 slots, 0..32767.
    static let egalax = DeviceDescription(
        name: "eGalax Inc. USB TouchController", bus: 0x03, vendor: 0x0eef, product: 0x7224,
        codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [AbsCode.x: axis(0, 32767, resolution: 1), AbsCode.y: axis(0, 32767, resolution: 1),
                  AbsCode.mtSlot: axis(0, 7),
                  AbsCode.mtPositionX: axis(0, 32767, fuzz: 7, resolution: 1),
                  AbsCode.mtPositionY: axis(0, 32767, fuzz: 7, resolution: 1),
                  AbsCode.mtTrackingID: axis(0, 65535)],
        properties: [InputProperty.direct])

    /// tp-bcm5974.three-finger-click.evemu lines 1–130: P: 04 (BUTTONPAD), BTN_LEFT,
    /// BTN_TOOL_DOUBLETAP … QUADTAP, protocol A with negative minima.
    static let bcm5974 = DeviceDescription(
        name: "bcm5974", bus: 0x03, vendor: 0x05ac, product: 0x0249,
        codes: [EventType.key: [KeyCode.btnLeft, KeyCode.btnToolFinger, KeyCode.btnTouch,
                                KeyCode.btnToolDoubletap, KeyCode.btnToolTripletap, KeyCode.btnToolQuadtap]],
        absInfo: [AbsCode.x: axis(0, 1280, fuzz: 5), AbsCode.y: axis(0, 800, fuzz: 3),
                  AbsCode.pressure: axis(0, 256, fuzz: 5),
                  AbsCode.mtTouchMajor: axis(0, 2048), AbsCode.mtTouchMinor: axis(0, 2048),
                  AbsCode.mtWidthMajor: axis(0, 2048), AbsCode.mtWidthMinor: axis(0, 2048),
                  AbsCode.mtOrientation: axis(-16384, 16384),
                  AbsCode.mtPositionX: axis(-4620, 5140), AbsCode.mtPositionY: axis(-150, 6600)],
        properties: [InputProperty.buttonpad])

    /// nexus4-touch_dev.desc lines 53–82: P: 02, no EV_KEY, no ABS_X/Y, 10 slots, portrait.
    static let nexus4 = DeviceDescription(
        name: "touch_dev",
        absInfo: [AbsCode.mtSlot: axis(0, 9), AbsCode.mtTouchMajor: axis(0, 15),
                  AbsCode.mtPositionX: axis(0, 1535), AbsCode.mtPositionY: axis(0, 2559),
                  AbsCode.mtTrackingID: axis(0, 65535), AbsCode.mtPressure: axis(0, 255)],
        properties: [InputProperty.direct])

    /// quanta-optical.desc lines 1–30: P: 02, BTN_TOUCH, 10 slots declared (only slot 0 used).
    static let quanta = DeviceDescription(
        name: "QUANTA OpticalTouchScreen", bus: 0x03, vendor: 0x0408, product: 0x3001,
        codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [AbsCode.x: axis(0, 1920), AbsCode.y: axis(0, 1080), AbsCode.mtSlot: axis(0, 9),
                  AbsCode.mtPositionX: axis(0, 1920), AbsCode.mtPositionY: axis(0, 1080),
                  AbsCode.mtTrackingID: axis(0, 65535)],
        properties: [InputProperty.direct])

    /// ntrig-dell-xt2.protoA.evemu lines 62–92: P: 00, BTN_TOUCH, protocol A (no slots).
    static let ntrig = DeviceDescription(
        name: "N-Trig-MultiTouch-Virtual-Device", bus: 0x03, vendor: 0x1b96, product: 0x0001, version: 0x0110,
        codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [AbsCode.x: axis(0, 9600, fuzz: 75), AbsCode.y: axis(0, 7200, fuzz: 78),
                  AbsCode.mtTouchMajor: axis(0, 9600, fuzz: 200), AbsCode.mtTouchMinor: axis(0, 7200, fuzz: 150),
                  AbsCode.mtOrientation: axis(0, 1),
                  AbsCode.mtPositionX: axis(0, 9600, fuzz: 75), AbsCode.mtPositionY: axis(0, 7200, fuzz: 78)])

    /// A resistive single-touch panel (no recording; modelled on the eGalax/3M serial panels):
    /// BTN_TOUCH + ABS_X/Y + ABS_PRESSURE, no properties at all.
    static let resistive = DeviceDescription(
        name: "Resistive Touchscreen",
        codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [AbsCode.x: axis(0, 4095), AbsCode.y: axis(0, 4095), AbsCode.pressure: axis(0, 255)])

    /// A panel that misdescribes itself, as some eGalax 0eef:0001 firmware does: it declares
    /// pen buttons (so udev calls it a tablet) and ABS_X/ABS_Y, which never change, and reports
    /// the position on ABS_Z and ABS_RX (0..3999 each), as
    /// Tests/Fixtures/recordings/misdescribed-panel.desc, from which the kernel tests build it.
    static let misdescribed = DeviceDescription(
        name: "Misdescribed Touch Panel", bus: 0x03, vendor: 0x0eef, product: 0x0001,
        codes: [EventType.key: [KeyCode.btnTouch, KeyCode.btnToolPen, KeyCode.btnStylus]],
        absInfo: [AbsCode.x: axis(0, 2047), AbsCode.y: axis(0, 2047), AbsCode.z: axis(0, 3999, resolution: 10),
                  AbsCode.rx: axis(0, 3999, resolution: 10)])

    /// A 10-slot direct-touch screen of 1000 x 1000 units at 4 units per millimetre (250 mm
    /// square): the panel of the pipeline scripts.
    static let square = DeviceDescription(
        name: "Square Test Panel",
        codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [AbsCode.mtSlot: axis(0, 9), AbsCode.mtTrackingID: axis(0, 65535),
                  AbsCode.mtPositionX: axis(0, 999, resolution: 4), AbsCode.mtPositionY: axis(0, 999, resolution: 4)],
        properties: [InputProperty.direct])
}
