import Testing
@testable import GestureConfig
import GestureCore

/// The configuration's `device` section beyond the selector (SPEC 6, 12): `type`, `axes` (by
/// name, by code, or with ranges and resolutions), and distances in millimetres in `gestures`.
struct DeviceSectionTests {
    @Test(arguments: [
        ConfigurationTests.Case("device: { path: \"/dev/input/event3\", name: \"x\" }",
             "device.name: give path or name, not both: path names one node, name picks the first device whose name matches"),
        ConfigurationTests.Case("device: { path: \"event3\" }",
             "device.path: \"event3\" is not an absolute path; write one such as \"/dev/input/by-id/…\""),
        ConfigurationTests.Case("device: { type: \"touchscreen\" }",
             "device.type: type needs path or name: auto picks what udev calls a touchscreen, so say which device to "
                + "treat as one, e.g. { path: \"/dev/input/by-id/…\", type: \"touchscreen\" }"),
        ConfigurationTests.Case("device: { name: \"eGalax*\", type: \"tablet\" }",
             "device.type: expected \"touchscreen\", found \"tablet\"; type makes gestured read the device as a touchscreen "
                + "whatever udev calls it (touchpads, tablets and other devices are never read)"),
        ConfigurationTests.Case("axes: { x: { min: 0, max: 4095 } }",
             "axes: axes belongs to the device: move it to device: { axes: { x: …, y: … } }, with the device's path or name "
                + "beside it (or neither, for auto); x and y are written as before, { min, max, resolution }, or name the "
                + "axis that carries the coordinate, such as \"ABS_Z\""),
        ConfigurationTests.Case("device: { axes: [0, 4095] }",
             "device.axes: expected an object { x: \"ABS_…\", y: \"ABS_…\" } (or { x: { code, min, max, resolution }, y: … }), "
                + "found an array of 2 elements"),
        ConfigurationTests.Case("device: { axes: { x: { min: 10, max: 5 } } }",
             "device.axes.x.max: max (5) is not greater than min (10); swap them, or use rotation or calibration to flip the axis"),
        ConfigurationTests.Case("device: { axes: { x: { min: 0 }, z: {} } }",
             "device.axes.x.max: missing; add max: the largest value the panel reports on this axis (min and max go together)",
             "device.axes.z: unknown key; remove it (axes takes x, y)"),
        ConfigurationTests.Case("device: { axes: { y: { min: 0.5, max: 4095, resolution: -1 } } }",
             "device.axes.y.min: 0.5 is not a whole number; use a whole number of device units",
             "device.axes.y.resolution: -1 is negative; use the units per millimetre, or 0 if unknown"),
        ConfigurationTests.Case("device: { axes: { x: { min: 0, max: 1e12 } } }",
             "device.axes.x.max: 1000000000000 does not fit a device axis; use a value from -2147483648 to 2147483647"),
        ConfigurationTests.Case("device: { name: \"e*\", axes: { x: \"ABS_RXX\", y: 99 } }",
             "device.axes.x: \"ABS_RXX\" is not an absolute axis; did you mean \"ABS_RX\"?",
             "device.axes.y: 99 is not an absolute axis code; name an absolute axis as input-event-codes.h does, such as "
                + "\"ABS_Z\" or \"ABS_MT_POSITION_X\", or give its code (0 to 63)"),
        ConfigurationTests.Case("device: { name: \"e*\", axes: { x: \"ABS_Z\", y: \"ABS_MT_POSITION_Y\" } }",
             "device.axes: ABS_Z and ABS_MT_POSITION_Y are not of one kind: name two multitouch (ABS_MT_*) axes, read per "
                + "contact, or two others, read as a single-touch panel"),
        ConfigurationTests.Case("device: { name: \"e*\", axes: { x: \"ABS_Z\", y: 2 } }",
             "device.axes.y: ABS_Z is the x axis too; name two different axes"),
        ConfigurationTests.Case("device: { name: \"e*\", axes: { x: { code: \"ABS_MT_SLOT\" }, y: {} } }",
             "device.axes.x.code: ABS_MT_SLOT numbers contacts, it carries no position; name an absolute axis as "
                + "input-event-codes.h does, such as \"ABS_Z\" or \"ABS_MT_POSITION_X\", or give its code (0 to 63)",
             "device.axes.y: the axis is empty; name the axis (\"ABS_Z\") or give code, min and max, or resolution"),
        ConfigurationTests.Case("gestures: { pan: { slop: { mm: -1 } }, control: { trackingSlop: { cm: 1 } } }",
             "gestures.pan.slop.mm: -1 is negative; use 0 to 10000 millimetres",
             "gestures.control.trackingSlop.cm: unknown key; did you mean \"mm\"?",
             "gestures.control.trackingSlop.mm: missing; write a distance in points, or { mm: N } for N millimetres of the panel"),
    ])
    func reportsTheKeyPathAndWhatToChange(_ example: ConfigurationTests.Case) {
        #expect(ConfigurationTests.problems(example.members) == example.problems)
    }

    @Test func axesByNameOrCodeWithTheirOwnRanges() throws {
        let configuration = try ConfigurationTests.configuration("""
            device: { path: "/dev/input/by-id/usb-eGalax-event", type: "touchscreen", axes: { x: "ABS_Z", y: 3 } }
            """)
        #expect(configuration.device == .path("/dev/input/by-id/usb-eGalax-event"))
        #expect(configuration.deviceOverrides == DeviceOverrides(
            type: .touchscreen, axes: AxisOverrides(x: AxisOverride(code: AbsCode.z), y: AxisOverride(code: AbsCode.rx))))
        #expect(configuration.summary.contains(
            "device: /dev/input/by-id/usb-eGalax-event, read as a touchscreen, positions from ABS_Z and ABS_RX"))
    }

    @Test func anObjectWithoutPathOrNameIsAuto() throws {
        let configuration = try ConfigurationTests.configuration("device: { axes: { x: { min: 0, max: 1439 }, y: { min: 0, max: 3199 } } }")
        #expect(configuration.device == .auto)
        #expect(configuration.deviceOverrides.axes == AxisOverrides(x: AxisOverride(range: 0...1439), y: AxisOverride(range: 0...3199)))
    }

    @Test func aLayoutsDistancesAreInPointsOnly() {
        #expect(ProblemLines.view("recognizers: [{ id: \"p\", type: \"pan\", slop: { mm: 3 } }]") == [
            "layout.recognizers[0].slop: a layout's distances are in points; give a number of points here, or set "
                + "gestures.pan.slop in the configuration in millimetres for every pan recognizer",
        ])
    }

    @Test func theCalibrationIsNilUnlessSet() throws {
        #expect(try ConfigurationTests.configuration("screen: { width: 800, height: 480 }").screen.calibration == nil)
        #expect(try ConfigurationTests.configuration("screen: { width: 800, height: 480, calibration: [1, 0, 0, 0, 1, 0] }")
            .screen.calibration == .identity)
    }
}
