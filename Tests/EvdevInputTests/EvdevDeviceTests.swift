#if canImport(Glibc)
import Glibc
#endif
import EvdevInput
import GestureSystem
import SystemPackage
import Testing

/// What the libevdev wrapper says when it cannot open or describe a node. Reading real devices
/// is covered by the kernel tests (tools/vmtest), since the host has none.
@Suite("Evdev device errors")
struct EvdevDeviceTests {
    @Test func aMissingNodeNamesTheCallThePathAndErrno() {
        #expect(throws: EvdevError.system(SystemError(call: "open", errno: .noSuchFileOrDirectory, subject: "/dev/input/event999"))) {
            _ = try EvdevDevice(path: "/dev/input/event999")
        }
    }

    @Test func aNodeThatIsNotAnEvdevDeviceFailsInLibevdev() throws {
        // /dev/null opens, but EVIOCGBIT fails: libevdev_new_from_fd reports -ENOTTY.
        do {
            _ = try EvdevDevice(path: "/dev/null")
            Issue.record("/dev/null was accepted as an evdev device")
        } catch {
            #expect(error == .system(SystemError(call: "libevdev_new_from_fd", errno: .inappropriateIOCTLForDevice, subject: "/dev/null")))
            #expect(error.description.hasPrefix("libevdev_new_from_fd failed on /dev/null: "))
            #expect(error.description.contains("(errno \(ENOTTY))"))
        }
    }

    @Test func permissionDeniedSaysWhatToChange() throws {
        let error = EvdevError.system(SystemError(call: "open", errno: .permissionDenied, subject: "/dev/input/event5"))
        #expect(error.isPermissionDenied)
        #expect(error.description.hasPrefix("open failed on /dev/input/event5: Permission denied (errno 13)."))
        #expect(error.description.contains("join the gestured-panel group (`sudo usermod -aG gestured-panel $USER`"))
        #expect(error.description.contains("sudo gestured"))
        #expect(error.description.contains(EvdevError.udevRule))
        // The rule the message names is the installed one, or the one the package ships, and it
        // gives the touchscreen the group the message names.
        let rule = EvdevError.udevRuleIsInstalled ? EvdevError.udevRule : Self.packageRoot + "/" + EvdevError.udevRule
        #expect(access(rule, R_OK) == 0)
        let file = try FileDescriptor.open(Self.packageRoot + "/systemd/" + EvdevError.udevRuleName, .readOnly)
        defer { try? file.close() }
        var bytes = [UInt8](repeating: 0, count: 1 << 16)
        let count = try bytes.withUnsafeMutableBytes { try file.read(into: $0) }
        let shipped = String(decoding: bytes[..<count], as: UTF8.self)
        #expect(shipped.contains(#"GROUP="\#(EvdevError.panelGroup)""#))
    }

    @Test func aGrabbedDeviceSaysWhoToStop() {
        let error = EvdevError.system(SystemError(call: "libevdev_grab", errno: .resourceBusy, subject: "/dev/input/event5"))
        #expect(error.description.contains("set `grab: false`"))
    }

    @Test func aDirectoryWithoutDevicesListsNothingAndANonDeviceNodeIsReportedNotSkipped() throws {
        var template = Array("/tmp/gestured-devices.XXXXXX".utf8CString)
        let directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        defer { rmdir(directory) }
        #expect(DeviceDirectory.entries(in: directory).isEmpty)
        #expect(DeviceDirectory.entries(in: directory + "/missing").isEmpty)
        let fake = directory + "/event3"
        close(open(fake, O_CREAT | O_WRONLY, 0o600))
        close(open(directory + "/mice", O_CREAT | O_WRONLY, 0o600))
        defer { unlink(fake); unlink(directory + "/mice") }
        let entries = DeviceDirectory.entries(in: directory)
        #expect(entries.map(\.number) == [3])
        #expect(entries.first?.description == nil)
        #expect(entries.first?.error?.description.contains("libevdev_new_from_fd failed on \(fake)") == true)
    }

    static let packageRoot: String = {
        var path = "\(#filePath)"
        while let slash = path.lastIndex(of: "/"), slash != path.startIndex {
            path = String(path[..<slash])
            if access(path + "/Package.swift", F_OK) == 0 { return path }
        }
        fatalError("no Package.swift above \(#filePath)")
    }()
}
