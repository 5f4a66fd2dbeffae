import CMtdev
import GestureCore

/// Converts a multitouch protocol A event stream (contacts separated by `SYN_MT_REPORT`, no
/// slots or tracking ids) into protocol B (slots and tracking ids) with libmtdev, as libinput
/// does, so `ContactTracker` only ever sees protocol B.
///
/// It is fed events rather than a file descriptor, so it serves recordings and live devices
/// (read through libevdev) alike:
///
/// ```swift
/// let converter = try ProtocolAConverter(description: description)
/// var tracker = ContactTracker(description: converter.convertedDescription, mapping: mapping)
/// var converted: [RawEvent] = []
/// for event in events {
///     converted.removeAll(keepingCapacity: true)
///     converter.convert(event, into: &converted)
///     for event in converted { if let frame = tracker.process(event) { … } }
/// }
/// ```
///
/// mtdev buffers a frame's events and emits the converted frame when the `SYN_REPORT` arrives:
/// first the frame's other events (`BTN_TOUCH`, `ABS_X/Y`, queued while it parses), then for
/// each changed contact `ABS_MT_SLOT` (only when the slot differs from the last one; it starts
/// in slot 0) and the changed `ABS_MT_*` values including `ABS_MT_TRACKING_ID`, stamped with
/// the `SYN_REPORT`'s time, then the `SYN_REPORT`; a frame that changed nothing comes out
/// empty. It matches contacts from frame to frame by least distance, assigns tracking ids
/// counting up from 0, and smooths values with each axis's fuzz (a move smaller than half the
/// fuzz is dropped), as the kernel does for protocol B. With no `ABS_MT_TRACKING_ID` and a
/// declared `ABS_MT_TOUCH_MAJOR`, a contact whose touch major is 0 counts as hovering.
///
/// Wraps: `mtdev_new` + `mtdev_init` (setup), `mtdev_set_mt_event` and
/// `mtdev_set_abs_minimum/maximum/fuzz/resolution` (capabilities, by hand instead of
/// `mtdev_configure`, which needs a device fd), `mtdev_put_event`, `mtdev_empty` and
/// `mtdev_get_event` (conversion), `mtdev_close_delete` (in `deinit`). Not `Sendable`: one
/// reader owns it.
public final class ProtocolAConverter {
    /// The slots mtdev spreads contacts over: its `DIM_FINGER` (src/common.h in mtdev 1.1.6),
    /// the width of the bit mask it keeps slot usage in.
    public static let slotCount = 32

    /// The description of the converted stream: the original one plus `ABS_MT_SLOT`
    /// (`0 ..< slotCount`) and, unless the device had one, `ABS_MT_TRACKING_ID`
    /// (mtdev's `MT_ID_MIN ... MT_ID_MAX`, 0 ... 65535). Give it to `ContactTracker`.
    public let convertedDescription: DeviceDescription
    /// The description it was made for (to make a fresh converter after `SYN_DROPPED`).
    public let originalDescription: DeviceDescription

    private let device: UnsafeMutablePointer<mtdev>

    /// Signal-to-noise ratios from which `mtdev_configure` derives a fuzz for axes that
    /// declare none (mtdev's src/caps.c `SN_COORD`, `SN_WIDTH`, `SN_ORIENT`). Repeated here so
    /// a recording converts exactly as the live device would through libinput.
    private static let defaultFuzzRatios: [(code: UInt16, ratio: Int32)] = [
        (AbsCode.mtPositionX, 250), (AbsCode.mtPositionY, 250),
        (AbsCode.mtTouchMajor, 100), (AbsCode.mtTouchMinor, 100),
        (AbsCode.mtWidthMajor, 100), (AbsCode.mtWidthMinor, 100),
        (AbsCode.mtOrientation, 10),
    ]

    /// A converter for the device `description` describes, its capabilities set as
    /// `mtdev_configure` would set them from the device.
    public init(description: DeviceDescription) throws(ProtocolAConverterError) {
        guard let device = mtdev_new() else {
            throw ProtocolAConverterError(call: "mtdev_new", errno: 12 /* ENOMEM */, device: description.name)
        }
        let status = mtdev_init(device)
        guard status == 0 else {
            mtdev_delete(device)
            throw ProtocolAConverterError(call: "mtdev_init", errno: -status, device: description.name)
        }
        self.device = device
        originalDescription = description
        convertedDescription = Self.convertedDescription(of: description)

        for (code, info) in description.absInfo.sorted(by: { $0.key < $1.key })
        where code >= AbsCode.mtSlot && code <= AbsCode.max {
            let cCode = Int32(code)
            mtdev_set_mt_event(device, cCode, 1)
            mtdev_set_abs_minimum(device, cCode, info.minimum)
            mtdev_set_abs_maximum(device, cCode, info.maximum)
            mtdev_set_abs_fuzz(device, cCode, info.fuzz)
            mtdev_set_abs_resolution(device, cCode, info.resolution)
        }
        // mtdev_configure's `has_mtdata`, which some mtdev versions consult.
        device.pointee.caps.has_mtdata = description.absInfo[AbsCode.mtPositionX] != nil
            && description.absInfo[AbsCode.mtPositionY] != nil ? 1 : 0
        if description.absInfo[AbsCode.mtTrackingID] == nil {
            mtdev_set_abs_minimum(device, Int32(AbsCode.mtTrackingID), 0)
            mtdev_set_abs_maximum(device, Int32(AbsCode.mtTrackingID), 65535)
        }
        for (code, ratio) in Self.defaultFuzzRatios {
            guard let info = description.absInfo[code], info.fuzz == 0 else { continue }
            // In 64 bits: a range of INT32_MIN ... INT32_MAX overflowed Int32 (issue 12). An
            // inverted range gets no fuzz.
            let range = max(Int64(info.maximum) - Int64(info.minimum), 0)
            mtdev_set_abs_fuzz(device, Int32(code), Int32(range / Int64(ratio)))
        }
    }

    deinit {
        // mtdev_close frees the converter's state, mtdev_delete the struct itself.
        mtdev_close_delete(device)
    }

    /// Feeds one event (`mtdev_put_event`) and appends every converted event that is ready
    /// (`mtdev_empty`, `mtdev_get_event`): nothing until the frame's `SYN_REPORT`. An `EV_ABS`
    /// code above `ABS_MAX` is dropped.
    public func convert(_ event: RawEvent, into output: inout [RawEvent]) {
        // mtdev looks every EV_ABS code up in a table of ABS_CNT entries without a bounds check
        // (mtdev_is_absmt): a code above ABS_MAX, which no kernel sends but a recording can
        // hold, wrote past its frame buffer (a fuzzing finding, issue 12). It says nothing
        // about contacts: drop it.
        if event.type == EventType.abs && event.code > AbsCode.max { return }
        var input = input_event(event)
        mtdev_put_event(device, &input)
        var converted = input_event()
        while mtdev_empty(device) == 0 {
            mtdev_get_event(device, &converted)
            output.append(RawEvent(converted))
        }
    }

    /// Feeds one event and returns the converted events that are ready.
    public func convert(_ event: RawEvent) -> [RawEvent] {
        var output: [RawEvent] = []
        convert(event, into: &output)
        return output
    }

    /// `description` as it looks after conversion: with slots and tracking ids.
    public static func convertedDescription(of description: DeviceDescription) -> DeviceDescription {
        var converted = description
        converted.absInfo[AbsCode.mtSlot] = AbsInfo(minimum: 0, maximum: Int32(slotCount - 1))
        if converted.absInfo[AbsCode.mtTrackingID] == nil {
            converted.absInfo[AbsCode.mtTrackingID] = AbsInfo(minimum: 0, maximum: 65535)
        }
        converted.codes[EventType.abs, default: []].formUnion([AbsCode.mtSlot, AbsCode.mtTrackingID])
        return converted
    }
}

@available(*, unavailable, message: "a ProtocolAConverter belongs to the one reader that feeds it")
extension ProtocolAConverter: Sendable {}

extension ProtocolAConverter: RawEventConverter {}
