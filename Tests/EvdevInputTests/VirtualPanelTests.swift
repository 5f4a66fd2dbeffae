#if canImport(Glibc)
import Glibc
#endif
import EvdevInput
import GestureCore
import GestureSystem
import SystemPackage
import Testing

/// The virtual panel: what uinput would refuse is refused first with the axis named, the udev
/// properties file, and (in the test VM, where there is a /dev/uinput; skipped on the host) a
/// copy made through the kernel and read back with libevdev: its identity, axes, properties,
/// physical path, and the frames written to it.
@Suite("Virtual panel")
struct VirtualPanelTests {
    static let panel = DeviceDescription(
        name: "gestured test panel", bus: 0x03, vendor: 0x0eef, product: 0x0001, version: 0x0100,
        codes: [EventType.key: [KeyCode.btnTouch, KeyCode.btnLeft]],
        absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 4095, fuzz: 4, resolution: 13),
                  AbsCode.y: AbsInfo(minimum: 0, maximum: 4095, fuzz: 4, resolution: 20),
                  AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9),
                  AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 4095, fuzz: 0, resolution: 13),
                  AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 4095, fuzz: 0, resolution: 20),
                  AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535)],
        properties: [InputProperty.direct])

    @Test func aDescriptionUinputTakesHasNoProblems() {
        #expect(VirtualPanel.problems(in: PanelCopy.description(of: Self.panel)).isEmpty)
    }

    /// Each rule of `uinput_validate_absinfo` and the name's size, named with what is allowed.
    @Test(arguments: [
        (AbsCode.mtSlot, AbsInfo(minimum: 0, maximum: 100), "ABS_MT_SLOT: 101 slots, uinput takes at most 100"),
        (AbsCode.x, AbsInfo(minimum: 10, maximum: 5), "ABS_X: minimum 10 above maximum 5"),
        (AbsCode.y, AbsInfo(minimum: 0, maximum: 100, flat: 101), "ABS_Y: flat 101 wider than the range 0…100"),
    ])
    func anAxisUinputRefusesIsNamed(code: UInt16, info: AbsInfo, problem: String) {
        var description = Self.panel
        description.absInfo[code] = info
        #expect(VirtualPanel.problems(in: description) == [problem])
    }

    @Test func aNameTooLongForUinputIsNamed() {
        var description = Self.panel
        description.name = String(repeating: "n", count: 80)
        #expect(VirtualPanel.problems(in: description) == ["its name has 80 bytes, uinput takes at most 79"])
        description.name = String(repeating: "n", count: 79)
        #expect(VirtualPanel.problems(in: description).isEmpty)
    }

    @Test func theUdevFileCarriesThePlacingPropertiesAndNothingElse() {
        let (text, skipped) = PanelCopyProperties.contents(from: [
            "ID_INPUT_TOUCHSCREEN": "1", "LIBINPUT_CALIBRATION_MATRIX": "0 1 0 -1 0 1", "WL_OUTPUT": "HDMI-A-1",
            "LIBINPUT_FUZZ_35": "8", "WL_SEAT": "seat\"x",
        ])
        #expect(text == "LIBINPUT_CALIBRATION_MATRIX=\"0 1 0 -1 0 1\"\nWL_OUTPUT=\"HDMI-A-1\"\n")
        #expect(skipped == ["WL_SEAT"])
        #expect(PanelCopyProperties.contents(from: nil).text.isEmpty)
        let long = String(repeating: "x", count: PanelCopyProperties.maximumValueBytes + 1)
        #expect(PanelCopyProperties.contents(from: ["WL_OUTPUT": long]).skipped == ["WL_OUTPUT"])
    }

    @Test func theUdevFileIsReplacedWhole() throws {
        let directory = String(cString: mkdtemp(strdup("/tmp/gestured-copy-props.XXXXXX")))
        defer { _ = try? FileDescriptor.open(path: directory, .readOnly).closeReleasing(); rmdir(directory) }
        let path = directory + "/panel-copy.properties"
        try PanelCopyProperties.write("WL_OUTPUT=\"DP-1\"\n", to: path)
        try PanelCopyProperties.write("WL_OUTPUT=\"DP-2\"\n", to: path)
        var buffer = [UInt8](repeating: 0, count: 64)
        let fd = try FileDescriptor.open(path: path, .readOnly)
        let count = try fd.readAvailable(into: &buffer) ?? 0
        fd.closeReleasing()
        #expect(String(decoding: buffer[..<count], as: UTF8.self) == "WL_OUTPUT=\"DP-2\"\n")
        #expect(access(path + ".new", F_OK) != 0)
        unlink(path)
    }

    @Test func withoutUinputTheErrorSaysHowToLoadIt() {
        let error = VirtualPanelError.creation(SystemError(call: "libevdev_uinput_create_from_device",
                                                           errno: .noSuchFileOrDirectory, subject: "/dev/uinput"))
        #expect(error.description == "libevdev_uinput_create_from_device failed on /dev/uinput: No such file or directory "
            + "(errno 2). There is no /dev/uinput: load the uinput module (`modprobe uinput`; the package loads it at "
            + "boot through /usr/lib/modules-load.d/gestured.conf)")
    }

    // MARK: - Through the kernel (the test VM)

    static var hasUinput: Bool { access("/dev/uinput", W_OK) == 0 }

    @Test(.enabled(if: hasUinput, "no writable /dev/uinput (run inside the test VM: tools/vmtest)"))
    func theKernelsCopyDeclaresWhatPanelCopySays() throws {
        let copy = try VirtualPanel(copying: Self.panel, udevProperties: ["LIBINPUT_FUZZ_00": "8"],
                                    panelPhys: "usb-0000:00:14.0-4/input0")
        #expect(copy.path.hasPrefix("/dev/input/event"))
        let read = try EvdevDevice(path: copy.path)
        #expect(read.phys == "gestured-copy/usb-0000:00:14.0-4/input0")
        var expected = PanelCopy.description(of: Self.panel, udevProperties: ["LIBINPUT_FUZZ_00": "8"])
        // The kernel reports EV_SYN's codes itself; the description leaves them out.
        expected.codes[EventType.syn] = nil
        var got = read.description
        got.codes[EventType.syn] = nil
        // udev in the VM may have moved the fuzz into LIBINPUT_FUZZ_* and zeroed it; EvdevDevice
        // puts it back, so both sides compare the declared fuzz.
        #expect(got == expected)
        #expect(got.codes[EventType.key] == [KeyCode.btnTouch])
        #expect(got.absInfo[AbsCode.mtToolType] == AbsInfo(minimum: 0, maximum: PanelCopy.toolTypeMaximum))
        #expect(got.absInfo[AbsCode.x]?.fuzz == 8)
    }

    @Test(.enabled(if: hasUinput, "no writable /dev/uinput (run inside the test VM: tools/vmtest)"))
    func framesWrittenToTheCopyAreReadBackInOrder() throws {
        let copy = try VirtualPanel(copying: Self.panel, udevProperties: nil, panelPhys: nil)
        let reader = try EvdevDevice(path: copy.path)
        func event(_ type: UInt16, _ code: UInt16, _ value: Int32) -> RawEvent {
            RawEvent(time: Timestamp(microseconds: 0), type: type, code: code, value: value)
        }
        // More events than one write(2) takes, so the batch is split.
        var frames: [RawEvent] = []
        for step in 0..<100 {
            frames += [event(EventType.abs, AbsCode.mtTrackingID, 7), event(EventType.abs, AbsCode.mtPositionX, Int32(100 + step)),
                       event(EventType.syn, SynCode.report, 0)]
        }
        frames += [event(EventType.abs, AbsCode.mtTrackingID, -1), event(EventType.syn, SynCode.report, 0)]
        #expect(frames.count > VirtualPanel.eventsPerWrite)
        try frames.withUnsafeBufferPointer { try copy.write($0) }
        var read: [RawEvent] = []
        while read.filter({ $0.type == EventType.syn }).count < 101 {
            var pollDescriptor = pollfd(fd: reader.fileDescriptor.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&pollDescriptor, 1, 5000) > 0 else { break }
            _ = try reader.readAvailable(into: &read)
        }
        // The kernel drops repeated values (the tracking id after the first frame).
        let positions = read.filter { $0.code == AbsCode.mtPositionX && $0.type == EventType.abs }.map(\.value)
        #expect(positions == (0..<100).map { Int32(100 + $0) })
        #expect(read.filter { $0.code == AbsCode.mtTrackingID && $0.type == EventType.abs }.map(\.value) == [7, -1])
        #expect(read.filter { $0.type == EventType.syn && $0.code == SynCode.report }.count == 101)
    }

    @Test(.enabled(if: hasUinput, "no writable /dev/uinput (run inside the test VM: tools/vmtest)"))
    func theKernelRefusesWhatProblemsNames() throws {
        // problems(in:) is checked first; the kernel's own refusal is what it mirrors.
        var description = PanelCopy.description(of: Self.panel)
        description.absInfo[AbsCode.mtSlot] = AbsInfo(minimum: 0, maximum: 100)
        #expect(throws: VirtualPanelError.cannotCopy(panel: Self.panel.name,
                                                     problems: ["ABS_MT_SLOT: 101 slots, uinput takes at most 100"])) {
            _ = try VirtualPanel(description: description, phys: "gestured-copy/")
        }
    }
}
