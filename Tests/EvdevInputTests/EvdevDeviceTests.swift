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

    @Test func permissionDeniedSaysWhatToChange() {
        let error = EvdevError.system(SystemError(call: "open", errno: .permissionDenied, subject: "/dev/input/event5"))
        #expect(error.isPermissionDenied)
        #expect(error.description.hasPrefix("open failed on /dev/input/event5: Permission denied (errno 13)."))
        #expect(error.description.contains("to the `input` group"))
        #expect(error.description.contains(EvdevError.udevRule))
        // The rule the message names ships with the package.
        #expect(access(Self.packageRoot + "/" + EvdevError.udevRule, R_OK) == 0)
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
