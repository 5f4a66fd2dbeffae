#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import GestureCore
import GestureSystem
import SystemPackage

/// The virtual panel (docs/routing.md, "The virtual panel"): a uinput device that declares what
/// ``PanelCopy/description(of:udevProperties:)`` says, with the physical path
/// ``PanelCopy/phys(of:)``, through which forwarded touches reach the desktop.
///
/// Wraps open(2) of `/dev/uinput` and `UI_SET_PHYS` (the C shim's `gestured_uinput_set_phys`:
/// libevdev does not pass the phys on); libevdev's uinput API: `libevdev_new`,
/// `libevdev_set_*` and `libevdev_enable_*` (the description),
/// `libevdev_uinput_create_from_device` (creates the device on that descriptor) and
/// `libevdev_uinput_get_devnode`; write(2) on the descriptor (one per batch, not
/// `libevdev_uinput_write_event`'s one per event); `libevdev_uinput_destroy`, close(2) and
/// `libevdev_free` (deinit: the kernel removes the device, and with it every touch still down
/// on it). Not `Sendable`: one writer owns it.
public final class VirtualPanel: PanelCopyOutput {
    /// The copy's event node (`/dev/input/eventN`), or the copy's name when libevdev cannot
    /// tell (it looks the node up in sysfs).
    public let path: String
    /// What the copy declares.
    public let description: DeviceDescription
    /// Its physical path, starting with ``PanelCopy/physPrefix``.
    public let phys: String

    private let prototype: OpaquePointer
    private let uinput: OpaquePointer
    private let fileDescriptor: FileDescriptor
    /// The room a batch is converted into, allocated once: no allocation per event.
    private let buffer: UnsafeMutablePointer<input_event>

    /// Events converted per write(2): a 10-finger frame is about 35 events, so a batch of a
    /// few frames takes one call (``VirtualPanelLimits/eventsPerWrite``).
    public static let eventsPerWrite = VirtualPanelLimits.eventsPerWrite

    /// Creates the copy of `panel` (its description as the forwarded stream speaks it, with
    /// the panel's udev properties for the saved fuzz) named after the panel's physical path.
    public convenience init(copying panel: DeviceDescription, udevProperties: [String: String]?, panelPhys: String?)
        throws(VirtualPanelError) {
        try self.init(description: PanelCopy.description(of: panel, udevProperties: udevProperties),
                      phys: PanelCopy.phys(of: panelPhys))
    }

    /// Creates a uinput device declaring exactly `description`, with physical path `phys`.
    /// Refuses, before asking the kernel, a description uinput would refuse
    /// (``problems(in:)``).
    public init(description: DeviceDescription, phys: String) throws(VirtualPanelError) {
        let problems = Self.problems(in: description)
        guard problems.isEmpty else { throw .cannotCopy(panel: description.name, problems: problems) }
        guard let prototype = libevdev_new() else {
            throw .creation(SystemError(call: "libevdev_new", errno: .noMemory, subject: description.name))
        }
        libevdev_set_name(prototype, description.name)
        libevdev_set_phys(prototype, phys)
        libevdev_set_id_bustype(prototype, Int32(description.bus))
        libevdev_set_id_vendor(prototype, Int32(description.vendor))
        libevdev_set_id_product(prototype, Int32(description.product))
        libevdev_set_id_version(prototype, Int32(description.version))
        for property in description.properties.sorted() {
            libevdev_enable_property(prototype, UInt32(property))
        }
        for (type, codes) in description.codes.sorted(by: { $0.key < $1.key }) {
            for code in codes.sorted() {
                if type == EventType.abs {
                    guard let info = description.absInfo[code] else { continue }
                    var absinfo = input_absinfo(value: 0, minimum: info.minimum, maximum: info.maximum, fuzz: info.fuzz,
                                                flat: info.flat, resolution: info.resolution)
                    libevdev_enable_event_code(prototype, UInt32(type), UInt32(code), &absinfo)
                } else {
                    libevdev_enable_event_code(prototype, UInt32(type), UInt32(code), nil)
                }
            }
        }
        // gestured opens /dev/uinput itself: the phys must be set (UI_SET_PHYS) before
        // libevdev creates the device, and libevdev does not set it.
        let uinputDescriptor: FileDescriptor
        do {
            uinputDescriptor = try FileDescriptor.open(path: VirtualPanelError.uinputPath, .writeOnly,
                                                       options: [.nonBlocking, .closeOnExec])
            try systemCall("ioctl(UI_SET_PHYS)", subject: VirtualPanelError.uinputPath) {
                gestured_uinput_set_phys(uinputDescriptor.rawValue, phys)
            }
        } catch {
            libevdev_free(prototype)
            throw .creation(error)
        }
        var created: OpaquePointer?
        let status = libevdev_uinput_create_from_device(prototype, uinputDescriptor.rawValue, &created)
        guard status == 0, let created else {
            libevdev_free(prototype)
            uinputDescriptor.closeReleasing()
            throw .creation(SystemError(call: "libevdev_uinput_create_from_device", errno: Errno(rawValue: -status),
                                        subject: VirtualPanelError.uinputPath))
        }
        self.prototype = prototype
        uinput = created
        fileDescriptor = uinputDescriptor
        path = libevdev_uinput_get_devnode(created).map { String(cString: $0) } ?? description.name
        self.description = description
        self.phys = phys
        buffer = UnsafeMutablePointer<input_event>.allocate(capacity: Self.eventsPerWrite)
    }

    deinit {
        // The kernel removes the device: readers get ENODEV, libinput removes it and every
        // touch still down on it with it.
        libevdev_uinput_destroy(uinput)
        // Not LIBEVDEV_UINPUT_OPEN_MANAGED: the descriptor is gestured's to close.
        fileDescriptor.closeReleasing()
        libevdev_free(prototype)
        buffer.deallocate()
    }

    /// Writes `events` (complete frames, each ending in `SYN_REPORT`) with their own times: a
    /// kernel that takes injected times (Linux 6.5 and later, CLOCK_MONOTONIC, not in the
    /// future nor more than 10 s old) stamps them with those, an older one with the time of
    /// the write (docs/routing.md, "Times"). One write(2) per ``eventsPerWrite`` events.
    public func write(_ events: UnsafeBufferPointer<RawEvent>) throws(VirtualPanelError) {
        var start = 0
        while start < events.count {
            let count = min(events.count - start, Self.eventsPerWrite)
            for index in 0..<count {
                buffer[index] = input_event(events[start + index])
            }
            let bytes = UnsafeRawBufferPointer(start: buffer, count: count * MemoryLayout<input_event>.stride)
            do {
                try fileDescriptor.writeAll(bytes, subject: path)
            } catch {
                throw .write(error)
            }
            start += count
        }
    }

    /// What uinput refuses in a description (`uinput_validate_absinfo` and
    /// `uinput_dev_setup` in `drivers/input/misc/uinput.c`), each naming the axis and what is
    /// allowed; empty when the kernel should take it.
    public static func problems(in description: DeviceDescription) -> [String] {
        var problems: [String] = []
        if description.name.utf8.count >= VirtualPanelLimits.nameBytes {
            problems.append("its name has \(description.name.utf8.count) bytes, uinput takes at most "
                + "\(VirtualPanelLimits.nameBytes - 1)")
        }
        for (code, info) in description.absInfo.sorted(by: { $0.key < $1.key }) {
            let axis = AbsCode.name(code)
            let (range, overflow) = info.maximum.subtractingReportingOverflow(info.minimum)
            if (info.minimum != 0 || info.maximum != 0) && info.maximum < info.minimum {
                problems.append("\(axis): minimum \(info.minimum) above maximum \(info.maximum)")
            } else if !overflow && info.flat > range {
                problems.append("\(axis): flat \(info.flat) wider than the range \(info.minimum)…\(info.maximum)")
            }
            if code == AbsCode.mtSlot && info.maximum >= VirtualPanelLimits.slots {
                problems.append("\(axis): \(Int(info.maximum) + 1) slots, uinput takes at most \(VirtualPanelLimits.slots)")
            }
        }
        return problems
    }
}

/// Where forwarded frames go: the ``VirtualPanel``, or a stand-in in tests.
public protocol PanelCopyOutput: AnyObject {
    /// The copy's node (for messages).
    var path: String { get }
    /// Writes complete frames with their times.
    func write(_ events: UnsafeBufferPointer<RawEvent>) throws(VirtualPanelError)
}

/// The bounds of the virtual panel (docs/limits.md, "The virtual panel").
public enum VirtualPanelLimits {
    /// Events per write(2) (and the size of the one buffer they are converted in).
    public static let eventsPerWrite = 256
    /// uinput's slot limit (`ABS_MT_SLOT` maximum 99, `uinput_validate_absinfo`).
    public static let slots: Int32 = 100
    /// `UINPUT_MAX_NAME_SIZE`, the terminating NUL included.
    public static let nameBytes = 80
}

@available(*, unavailable, message: "a VirtualPanel belongs to the one writer that owns it")
extension VirtualPanel: Sendable {}
