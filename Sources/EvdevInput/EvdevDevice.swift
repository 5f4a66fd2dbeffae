#if canImport(Glibc)
import Glibc
#endif
import CLibevdev
import GestureCore
import GestureSystem
import SystemPackage

/// A live evdev device, opened and described through libevdev: opened non-blocking, its events
/// stamped with `CLOCK_MONOTONIC`, read in whole batches with read(2), resynchronised after
/// `SYN_DROPPED` as the kernel documents, and reporting its removal (`-ENODEV`) instead of
/// failing.
///
/// Wraps `open(2)` (GestureSystem) and `libevdev_new_from_fd` (init, and the state read back
/// after a `SYN_DROPPED`), `libevdev_set_clock_id`, `libevdev_grab`, read(2) through
/// swift-system (events), `libevdev_get_slot_value`, `libevdev_get_current_slot`,
/// `libevdev_get_event_value` (the state), `libevdev_get_phys` and `libevdev_free` + close(2) (deinit). Not
/// `Sendable`: one reader owns it.
public final class EvdevDevice: InputSource {
    /// The node it was opened at (after resolving symlinks, when the caller did).
    public let path: String
    public let fileDescriptor: FileDescriptor
    /// What the device declares, read once at open (with the fuzz libinput's udev rule moved
    /// into udev's database put back, ``UdevDatabase/restoringFuzz(_:from:)``).
    public let description: DeviceDescription
    /// Its entry in udev's database, read once at open; nil without one.
    public let udevProperties: [String: String]?
    /// Its physical path (`EVIOCGPHYS` through `libevdev_get_phys`), nil when it has none.
    public let phys: String?
    public private(set) var isGrabbed = false

    private let device: OpaquePointer

    /// Opens `path` read-only and non-blocking and sets the event clock to `CLOCK_MONOTONIC`
    /// (docs/input.md, "Devices"), the clock deadlines are armed on.
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
        phys = libevdev_get_phys(handle).map { String(cString: $0) }
    }

    deinit {
        // The kernel releases a grab when the descriptor closes.
        libevdev_free(device)
        batch.deallocate()
        raw.deallocate()
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

    /// Reads every event available now: read(2) of whole batches of `input_event`s straight
    /// from the descriptor, stopping at a short read (the kernel returns whole events and
    /// everything it has, up to the room given), so a wake-up for one frame costs one system
    /// call and no per-event work beyond the copy. libevdev opened the device and describes it;
    /// its `libevdev_next_event` is not used on this path, because it updates its own copy of
    /// the device state for every event (as much work again as the whole read), which the
    /// contact tracker keeps anyway.
    ///
    /// On `SYN_DROPPED` it follows the kernel's rule (Documentation/input/event-codes.rst):
    /// the events up to the next `SYN_REPORT` are worthless, and the state is to be read back
    /// with the `EVIOCG*` ioctls. Like libevdev's resync it first drains what the kernel still
    /// queues (all of it older than the state read next), then reads the state through a
    /// fresh libevdev on the same descriptor (``snapshot()``), handed on as one
    /// ``ReadEnd/resynchronised(_:time:)`` that the contact tracker reconciles against what it
    /// had, after the events before it.
    public func readAvailable(into output: inout [RawEvent]) throws(EvdevError) -> ReadEnd {
        while true {
            guard let count = try readBatch() else { return .removed }
            // Converted into the device's own room, then appended in one copy: an append per
            // event would check the array's uniqueness (a runtime call) every time, and making
            // the array's room first (`repeatElement`) cost more (docs/performance.md,
            // "Measured reasons behind the code's shape").
            var converted = 0
            var dropped = false
            while converted < count {
                let event = batch[converted]
                if event.type == UInt16(EventType.syn) && event.code == Self.synDropped {
                    dropped = true
                    break
                }
                raw[converted] = RawEvent(event)
                converted &+= 1
            }
            output.append(contentsOf: UnsafeBufferPointer(start: raw, count: converted))
            if dropped { return try resynchronise(droppedAt: RawEvent(batch[converted]).time) }
            // A short read took everything the kernel had.
            if count < Self.batchCapacity { return .drained }
        }
    }

    /// Events read per read(2): a 10-finger frame is about 35, so a frame takes one read.
    private static let batchCapacity = 128
    private static let synDropped: UInt16 = 3
    /// At most this many batches are thrown away after a `SYN_DROPPED` before the state is
    /// read back: the kernel's queue for one reader holds far fewer, so this only bounds a
    /// device that floods faster than it can be drained.
    private static let maximumDrainReads = 256

    /// The room ``readAvailable(into:)`` reads into, allocated once.
    private let batch = UnsafeMutablePointer<input_event>.allocate(capacity: EvdevDevice.batchCapacity)
    /// Where ``readAvailable(into:)`` converts a batch, allocated once.
    private let raw = UnsafeMutablePointer<RawEvent>.allocate(capacity: EvdevDevice.batchCapacity)

    /// One read(2) into ``batch``: how many events it holds (0 when the kernel had none), nil
    /// when the device is gone (`ENODEV`).
    private func readBatch() throws(EvdevError) -> Int? {
        let size = MemoryLayout<input_event>.stride
        let room = UnsafeMutableRawBufferPointer(start: batch, count: Self.batchCapacity * size)
        do {
            return (try fileDescriptor.readAvailable(into: room, subject: path) ?? 0) / size
        } catch where error.errno == .operationNotSupportedByDevice {
            return nil
        } catch {
            throw .system(error)
        }
    }

    private func resynchronise(droppedAt time: Timestamp) throws(EvdevError) -> ReadEnd {
        for _ in 0..<Self.maximumDrainReads {
            guard let count = try readBatch() else { return .removed }
            if count == 0 { break }
        }
        switch try currentState() {
        case .gone:
            return .removed
        case .read(let snapshot):
            return .resynchronised(snapshot, time: time)
        }
    }

    private enum State {
        case gone
        /// A snapshot, nil for a protocol A device (see ``snapshot(of:)``).
        case read(DeviceSnapshot?)
    }

    /// The device's state now, read back by a libevdev made for that on the same descriptor
    /// (`libevdev_new_from_fd` reads every axis and, on a multitouch device, every slot with
    /// the `EVIOCG*` ioctls).
    private func currentState() throws(EvdevError) -> State {
        var handle: OpaquePointer?
        let status = libevdev_new_from_fd(fileDescriptor.rawValue, &handle)
        guard status == 0, let handle else {
            if status == -ENODEV { return .gone }
            throw .system(SystemError(call: "libevdev_new_from_fd", errno: Errno(rawValue: -status), subject: path))
        }
        defer { libevdev_free(handle) }
        return .read(Self.snapshot(of: handle))
    }

    /// The device's state as the libevdev `device` read it: every slot on a protocol B device, the one
    /// `BTN_TOUCH` contact on a single-touch device, nil on a protocol A device (no slots).
    static func snapshot(of device: OpaquePointer) -> DeviceSnapshot? {
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
