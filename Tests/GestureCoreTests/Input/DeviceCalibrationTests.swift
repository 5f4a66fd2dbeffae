import GestureCore
import Testing

/// Which calibration applies (SPEC 6): the configuration's, else udev's
/// `LIBINPUT_CALIBRATION_MATRIX` read as libinput reads it, else none.
@Suite struct DeviceCalibrationTests {
    static let udev = ["ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1"]

    static func with(_ value: String) -> [String: String] {
        udev.merging([DeviceCalibration.udevProperty: value]) { $1 }
    }

    @Test func theConfigurationWinsThenUdevThenNone() {
        let mirrored = CalibrationMatrix(a: -1, b: 0, c: 1, d: 0, e: 1, f: 0)
        let configured = CalibrationMatrix(a: 1, b: 0, c: 0.02, d: 0, e: 1, f: 0)
        #expect(DeviceCalibration(configured: configured, udevProperties: Self.with("-1 0 1 0 1 0"))
            == DeviceCalibration(matrix: configured, source: .configuration))
        #expect(DeviceCalibration(configured: nil, udevProperties: Self.with("-1 0 1 0 1 0"))
            == DeviceCalibration(matrix: mirrored, source: .udev))
        #expect(DeviceCalibration(configured: nil, udevProperties: Self.udev) == DeviceCalibration(matrix: .identity, source: .none))
        #expect(DeviceCalibration(configured: nil, udevProperties: nil).summary
            == "none (neither the configuration nor udev sets one)")
        #expect(DeviceCalibration(configured: nil, udevProperties: Self.with("-1 0 1 0 1 0")).summary
            == "[-1, 0, 1, 0, 1, 0] from udev's LIBINPUT_CALIBRATION_MATRIX")
    }

    /// libinput's `parse_calibration_property`: space-separated numbers, the first six used.
    @Test(arguments: [
        ("0 -1 1 1 0 0", [0.0, -1, 1, 1, 0, 0]),          // libinput's 90° example
        ("1.02  0 -0.01 0 0.98 0.005", [1.02, 0, -0.01, 0, 0.98, 0.005]),
        ("1 0 0 0 1 0 0 0 1", [1.0, 0, 0, 0, 1, 0]),       // a whole 3×3 matrix: its first two rows
        ("1e0 0 0 0 1E0 0", [1.0, 0, 0, 0, 1, 0]),
    ])
    func readsWhatLibinputReads(_ value: String, _ values: [Double]) throws {
        #expect(try DeviceCalibration.parse(value).get() == CalibrationMatrix(values)!)
    }

    @Test(arguments: [
        ("1 0 0 0 1", "it has 5 numbers; libinput reads six, \"a b c d e f\""),
        ("1 0 0 0 1 x", "\"x\" is not a number"),
        ("1 0 0x1 0 1 0", "\"0x1\" is not a number"),
        ("1 0 0 0 1 inf", "\"inf\" is not a number"),
        ("1 0 5 0 1 0", "the matrix maps every touch off the screen (the corrected panel lies outside 0…1 in both "
            + "directions); check the signs and offsets c and f, or start from [1, 0, 0, 0, 1, 0]"),
        ("1 1 0 1 1 0", "the matrix maps the whole panel onto a line or a point (a·e − b·d is 0), so touches could not "
            + "be told apart; use [1, 0, 0, 0, 1, 0] and correct from there"),
    ])
    func refusesWhatCannotBeUsedAndSaysWhy(_ value: String, _ message: String) {
        #expect(throws: DeviceCalibration.Problem(message: message)) { try DeviceCalibration.parse(value).get() }
        let ignored = DeviceCalibration(configured: nil, udevProperties: Self.with(value))
        #expect(ignored.source == .none && ignored.matrix == .identity)
        #expect(ignored.ignoredUdevValue == "udev's LIBINPUT_CALIBRATION_MATRIX=\"\(value)\" is not used: \(message)")
    }

    /// The configuration's matrix is checked the same way (check-config): a matrix that zooms
    /// in maps every corner off the screen but is fine; one that moves the panel away is not.
    @Test func overlapNotCornersDecides() {
        #expect(CalibrationMatrix(a: 3, b: 0, c: -1, d: 0, e: 3, f: -1).problem == nil)
        #expect(CalibrationMatrix(a: 1, b: 0, c: 1.5, d: 0, e: 1, f: 0).problem != nil)
    }

    @Test func theMatrixFromUdevMovesTheTouches() throws {
        let root = view("screen", 0, 0, 1000, 1000) { $0.handlesTouches = true }
        var script = try PipelineScript(root, screen: ScreenGeometry(width: 1000, height: 1000),
                                        udevProperties: Self.with("-1 0 1 0 1 0"))
        script.down(slot: 0, id: 1, 100, 200)
        script.up(slot: 0)
        #expect(script.take() == [
            "device added: test device; calibration [-1, 0, 1, 0, 1, 0] from udev's LIBINPUT_CALIBRATION_MATRIX",
            "began screen: #1 (900, 200)", "ended screen: #1",
        ])
        #expect(script.pipeline.calibration?.source == .udev)
        // The configuration's matrix (identity here) wins.
        var configured = try PipelineScript(root, screen: ScreenGeometry(width: 1000, height: 1000, calibration: .identity),
                                            udevProperties: Self.with("-1 0 1 0 1 0"))
        configured.down(slot: 0, id: 1, 100, 200)
        #expect(configured.take() == ["device added: test device", "began screen: #1 (100, 200)"])
    }

    @Test func anUnusableUdevMatrixIsAWarning() throws {
        let root = view("screen", 0, 0, 1000, 1000)
        var script = try PipelineScript(root, screen: ScreenGeometry(width: 1000, height: 1000),
                                        udevProperties: Self.with("1 0 0 0 1"))
        let notice = "device \"Square Test Panel\": udev's LIBINPUT_CALIBRATION_MATRIX=\"1 0 0 0 1\" is not used: "
            + "it has 5 numbers; libinput reads six, \"a b c d e f\""
        #expect(script.take() == ["device added: test device", "warning: \(notice)"])
        #expect(script.pipeline.takeNotices() == [notice])
    }
}
