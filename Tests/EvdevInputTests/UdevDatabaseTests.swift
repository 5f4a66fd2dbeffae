import EvdevInput
import GestureCore
import Testing

/// udev's database entry of a device node (`/run/udev/data/c13:MINOR`), as systemd writes it.
@Suite("udev database")
struct UdevDatabaseTests {
    /// An entry as systemd-udevd wrote it in the kernel-test VM for an N-Trig digitiser, after
    /// libinput's fuzz override rule.
    static let entry = """
        I:17299072
        E:ID_INPUT=1
        E:ID_INPUT_TOUCHSCREEN=1
        E:LIBINPUT_FUZZ_00=75
        E:LIBINPUT_FUZZ_35=75
        E:LIBINPUT_CALIBRATION_MATRIX=1 0 0 0 1 0
        G:seat
        V:1
        """

    @Test func propertiesAreTheELines() {
        #expect(UdevDatabase.parse(Self.entry) == [
            "ID_INPUT": "1", "ID_INPUT_TOUCHSCREEN": "1", "LIBINPUT_FUZZ_00": "75", "LIBINPUT_FUZZ_35": "75",
            "LIBINPUT_CALIBRATION_MATRIX": "1 0 0 0 1 0",
        ])
    }

    /// libinput's rule zeroes the kernel's fuzz and keeps it in LIBINPUT_FUZZ_<code>: the
    /// description gets it back, for libmtdev's filtering as the panel's own recording has it.
    @Test func theFuzzLibinputsRuleMovedIsPutBack() {
        let live = DeviceDescription(name: "digitiser", absInfo: [
            AbsCode.x: AbsInfo(minimum: 0, maximum: 9600), AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 9600),
            AbsCode.mtTouchMajor: AbsInfo(minimum: 0, maximum: 9600, fuzz: 200),
        ])
        let restored = UdevDatabase.restoringFuzz(live, from: UdevDatabase.parse(Self.entry))
        #expect(restored.absInfo[AbsCode.x]?.fuzz == 75)
        #expect(restored.absInfo[AbsCode.mtPositionX]?.fuzz == 75)
        #expect(restored.absInfo[AbsCode.mtTouchMajor]?.fuzz == 200)
        // An axis the device lacks stays lacking; no entry changes nothing.
        #expect(restored.absInfo[AbsCode.y] == nil)
        #expect(UdevDatabase.restoringFuzz(live, from: nil) == live)
    }
}
