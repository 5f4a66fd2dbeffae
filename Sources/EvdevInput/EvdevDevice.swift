#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import GestureCore
import GestureSystem
import SystemPackage

/// A live evdev device read through libevdev: opened non-blocking, its events stamped with
/// `CLOCK_MONOTONIC`, read until `-EAGAIN`, resynchronised after `SYN_DROPPED` as libevdev
/// documents, and reporting its removal (`-ENODEV`) instead of failing.
///
/// Wraps `open(2)` (GestureSystem) and `libevdev_new_from_fd` (init), `libevdev_set_clock_id`,
/// `libevdev_grab`, `libevdev_next_event` (reads), `libevdev_get_slot_value`,
/// `libevdev_get_current_slot`, `libevdev_get_event_value` (the state after a resync) and
/// `libevdev_free` + close(2) (deinit). Not `Sendable`: one reader owns it.
public final class EvdevDevice: InputSource {
    /// The node it was opened at (after resolving symlinks, when the caller did).
    public let path: String
    public let fileDescriptor: FileDescriptor
    /// What the device declares, read once at open (with the fuzz libinput's udev rule moved
    /// into udev's database put back, ``UdevDatabase/restoringFuzz(_:from:)``).
    public let description: DeviceDescription
    /// Its entry in udev's database, read once at open; nil without one.
    public let udevProperties: [String: String]?
    public private(set) var isGrabbed = false

    private let device: OpaquePointer

    /// Opens `path` read-only and non-blocking and sets the event clock to `CLOCK_MONOTONIC`
    /// (SPEC 6), the clock deadlines are armed on.
    public init(path: String) throws(EvdevError) {
        let fd: FileDescriptor
        do {
            fd = try FileDescriptor.open(path: path, .readOnly, options: [.nonBlocking, .closeOnExec])
        } catch {
            throw .system(error)
        }
        var handle: OpaquePointer?
        let status = libevdev_new_from_fd(fd.rawValue, &handle)
        guard status == 0, let handle else {
            fd.closeReleasing()
            throw .system(SystemError(call: "libevdev_new_from_fd", errno: Errno(rawValue: -status), subject: path))
        }
        let clockStatus = libevdev_set_clock_id(handle, CLOCK_MONOTONIC)
        guard clockStatus == 0 else {
            libevdev_free(handle)
            fd.closeReleasing()
            throw .system(SystemError(call: "libevdev_set_clock_id(CLOCK_MONOTONIC)", errno: Errno(rawValue: -clockStatus),
                                      subject: path))
        }
        self.path = path
        fileDescriptor = fd
        device = handle
        let properties = UdevDatabase.properties(ofNode: path)
        description = UdevDatabase.restoringFuzz(Self.describe(handle), from: properties)
        udevProperties = properties
    }

    deinit {
        // The kernel releases a grab when the descriptor closes.
        libevdev_free(device)
        fileDescriptor.closeReleasing()
    }

    /// Takes the device exclusively (`EVIOCGRAB` through `libevdev_grab`), so no other reader
    /// (a compositor turning touches into clicks) sees its events.
    public func grab() throws(EvdevError) {
        let status = libevdev_grab(device, LIBEVDEV_GRAB)
        guard status == 0 else {
            throw .system(SystemError(call: "libevdev_grab", errno: Errno(rawValue: -status), subject: path))
        }
        isGrabbed = true
    }

    /// Reads every event available now (`libevdev_next_event` until `-EAGAIN`).
    ///
    /// On `SYN_DROPPED` (`LIBEVDEV_READ_STATUS_SYNC`) it follows libevdev's procedure: read
    /// with `LIBEVDEV_READ_FLAG_SYNC` until `-EAGAIN`, which brings libevdev's copy of the
    /// device state up to date, then carry on with normal reads. The sync events themselves
    /// are not passed on: the state after them is, as one ``DeviceReading/resynchronised(_:time:)``
    /// snapshot, which the contact tracker reconciles against what it had.
    public func readAvailable(into output: inout [DeviceReading]) throws(EvdevError) -> ReadEnd {
        var event = input_event()
        var flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
        var dropTime: Timestamp?
        while true {
            let status = libevdev_next_event(device, flags, &event)
            switch status {
            case Int32(LIBEVDEV_READ_STATUS_SUCCESS.rawValue):
                output.append(.event(RawEvent(event)))
            case Int32(LIBEVDEV_READ_STATUS_SYNC.rawValue):
                if dropTime == nil {
                    // The first SYNC status carries the SYN_DROPPED itself.
                    dropTime = RawEvent(event).time
                    flags = LIBEVDEV_READ_FLAG_SYNC.rawValue
                }
            case -EAGAIN:
                guard let time = dropTime else { return .drained }
                // -EAGAIN in sync mode: the resync is complete; read normally again.
                output.append(.resynchronised(snapshot(), time: time))
                dropTime = nil
                flags = LIBEVDEV_READ_FLAG_NORMAL.rawValue
            case -EINTR:
                continue
            case -ENODEV:
                return .removed
            default:
                throw .system(SystemError(call: "libevdev_next_event", errno: Errno(rawValue: -status), subject: path))
            }
        }
    }

    /// The device's state as libevdev knows it: every slot on a protocol B device, the one
    /// `BTN_TOUCH` contact on a single-touch device, nil on a protocol A device (no slots).
    public func snapshot() -> DeviceSnapshot? {
        func has(_ type: UInt16, _ code: UInt16) -> Bool {
            libevdev_has_event_code(device, UInt32(type), UInt32(code)) != 0
        }
        if has(EventType.abs, AbsCode.mtSlot) {
            // The tracker keeps no more slots than this; libevdev's count is the device's.
            let count = min(Int(libevdev_get_num_slots(device)), ContactTracker.maximumSlots)
            let hasMajor = has(EventType.abs, AbsCode.mtTouchMajor)
            let hasPressure = has(EventType.abs, AbsCode.mtPressure)
            let hasTool = has(EventType.abs, AbsCode.mtToolType)
            var slots: [SlotSnapshot] = []
            slots.reserveCapacity(count)
            for slot in 0..<max(count, 0) {
                func value(_ code: UInt16) -> Int32 { libevdev_get_slot_value(device, UInt32(slot), UInt32(code)) }
                slots.append(SlotSnapshot(
                    trackingID: value(AbsCode.mtTrackingID),
                    position: DevicePosition(x: value(AbsCode.mtPositionX), y: value(AbsCode.mtPositionY)),
                    touchMajor: hasMajor ? value(AbsCode.mtTouchMajor) : nil,
                    pressure: hasPressure ? value(AbsCode.mtPressure) : nil,
                    toolType: hasTool ? value(AbsCode.mtToolType) : ToolType.finger))
            }
            return DeviceSnapshot(currentSlot: Int(libevdev_get_current_slot(device)), slots: slots)
        }
        if has(EventType.abs, AbsCode.mtPositionX) {
            return nil
        }
        func value(_ type: UInt16, _ code: UInt16) -> Int32 {
            libevdev_get_event_value(device, UInt32(type), UInt32(code))
        }
        let down = value(EventType.key, KeyCode.btnTouch) != 0
        return DeviceSnapshot(slots: [SlotSnapshot(
            trackingID: down ? 0 : -1,
            position: DevicePosition(x: value(EventType.abs, AbsCode.x), y: value(EventType.abs, AbsCode.y)),
            pressure: has(EventType.abs, AbsCode.pressure) ? value(EventType.abs, AbsCode.pressure) : nil)])
    }

    /// The device's identity, every code it declares per type, its axis ranges and its
    /// properties, as libevdev read them at open.
    static func describe(_ device: OpaquePointer) -> DeviceDescription {
        var codes: [UInt16: Set<UInt16>] = [:]
        var absInfo: [UInt16: AbsInfo] = [:]
        // EV_SYN is left out, as recordings leave it out (evemu's `B: 00` line is unreliable).
        for type in 1...UInt32(EventType.max) where libevdev_has_event_type(device, type) != 0 {
            let maximum = libevdev_event_type_get_max(type)
            guard maximum >= 0 else { continue }
            var declared = Set<UInt16>()
            for code in 0...UInt32(maximum) where libevdev_has_event_code(device, type, code) != 0 {
                declared.insert(UInt16(code))
                if type == UInt32(EventType.abs), let info = libevdev_get_abs_info(device, code) {
                    absInfo[UInt16(code)] = AbsInfo(minimum: info.pointee.minimum, maximum: info.pointee.maximum,
                                                    fuzz: info.pointee.fuzz, flat: info.pointee.flat,
                                                    resolution: info.pointee.resolution)
                }
            }
            codes[UInt16(type)] = declared
        }
        var properties = Set<UInt16>()
        for property in 0...UInt32(INPUT_PROP_MAX) where libevdev_has_property(device, property) != 0 {
            properties.insert(UInt16(property))
        }
        let name = libevdev_get_name(device).map { String(cString: $0) } ?? ""
        return DeviceDescription(
            name: name,
            bus: UInt16(truncatingIfNeeded: libevdev_get_id_bustype(device)),
            vendor: UInt16(truncatingIfNeeded: libevdev_get_id_vendor(device)),
            product: UInt16(truncatingIfNeeded: libevdev_get_id_product(device)),
            version: UInt16(truncatingIfNeeded: libevdev_get_id_version(device)),
            codes: codes, absInfo: absInfo, properties: properties)
    }
}

@available(*, unavailable, message: "an EvdevDevice belongs to the one reader that owns its descriptor")
extension EvdevDevice: Sendable {}
