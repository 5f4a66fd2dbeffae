/// Notices a panel that reports its position on other axes than the ones gestured reads
/// (docs/input.md, "Devices"): its position axes never change while other absolute axes do. Such a panel's
/// touches all land on one point, which looks like a broken panel or a broken daemon; the warning
/// names the axes that do move and the `device.axes` setting that reads them.
///
/// It watches the device's raw events (before ``AxisRemap``), counting the frames in which an
/// absolute axis that could carry a position changed while the position axes never have. Any
/// event on an axis is a change: the kernel passes on only values that changed. Once a
/// position axis changes, the device is fine and watching stops; after
/// ``framesBeforeWarning`` such frames, it warns once and stops.
///
/// Axes that change without the contact moving are not counted: pressure, distance, contact
/// size and orientation, slots, tracking ids and tool types.
struct AxisActivityMonitor {
    /// Frames with other axes changing before the warning: one stray frame is no evidence, a
    /// tap and a short drag are.
    static let framesBeforeWarning = 3

    /// Where the watch stands.
    enum State: Hashable {
        case watching
        /// A position axis changed, or the warning went out: nothing more to watch.
        case done
    }

    private(set) var state = State.watching
    private let positionCodes: (x: UInt16, y: UInt16)
    private let device: String
    /// The codes that changed since the last frame end, one bit per `EV_ABS` code.
    private var changedInFrame: UInt64 = 0
    /// Every counted code that changed so far.
    private var changedOthers: UInt64 = 0
    private var framesWithOthers = 0

    /// `EV_ABS` codes that change without the contact moving.
    private static let notPositions: UInt64 = [
        AbsCode.pressure, 0x19 /* ABS_DISTANCE */, 0x1c /* ABS_TOOL_WIDTH */, 0x20 /* ABS_VOLUME */, 0x21 /* ABS_PROFILE */,
        0x28 /* ABS_MISC */, AbsCode.mtSlot, AbsCode.mtTouchMajor, AbsCode.mtTouchMinor, AbsCode.mtWidthMajor,
        AbsCode.mtWidthMinor, AbsCode.mtOrientation, AbsCode.mtToolType, AbsCode.mtBlobID, AbsCode.mtTrackingID,
        AbsCode.mtPressure, AbsCode.mtDistance,
    ].reduce(0) { $0 | 1 << UInt64($1) }

    init(positionCodes: (x: UInt16, y: UInt16), device: String) {
        (self.positionCodes, self.device) = (positionCodes, device)
    }

    /// Takes one raw event; returns the warning when this event completes the evidence.
    mutating func observe(_ event: RawEvent) -> String? {
        guard state == .watching else { return nil }
        if event.type == EventType.abs, event.code <= AbsCode.max {
            changedInFrame |= 1 << UInt64(event.code)
            return nil
        }
        guard event.isFrameEnd, changedInFrame != 0 else { return nil }
        let positions: UInt64 = 1 << UInt64(positionCodes.x) | 1 << UInt64(positionCodes.y)
        let changed = changedInFrame
        changedInFrame = 0
        if changed & positions != 0 {
            state = .done
            return nil
        }
        let others = changed & ~Self.notPositions
        guard others != 0 else { return nil }
        changedOthers |= others
        framesWithOthers += 1
        guard framesWithOthers >= Self.framesBeforeWarning else { return nil }
        state = .done
        return warning
    }

    private var warning: String {
        let moved = (0...AbsCode.max).filter { changedOthers & 1 << UInt64($0) != 0 }
        let names = moved.map(AbsCode.name)
        let suggestion = moved.count >= 2
            ? "{ x: \"\(AbsCode.name(moved[0]))\", y: \"\(AbsCode.name(moved[1]))\" }"
            : "{ x: \"…\", y: \"…\" }"
        return "device \"\(device)\": its position axes \(AbsCode.name(positionCodes.x)) and "
            + "\(AbsCode.name(positionCodes.y)) have not changed in \(framesWithOthers) frames while "
            + "\(names.joined(separator: ", ")) did, so every touch lands on one point; if the panel reports its "
            + "position on those, set device.axes: \(suggestion) in the configuration (with device.type: "
            + "\"touchscreen\" if udev does not call it one)"
    }
}
