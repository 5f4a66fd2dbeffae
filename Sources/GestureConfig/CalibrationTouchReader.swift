import GestureCore

/// The touches of a panel for `gestured calibrate`, read raw from its evdev events: device
/// coordinates, before any calibration, normalised over the device's own axis ranges
/// (``CalibrationFit/normalise(_:_:)``). A touch is one finger from down to up; its position is
/// the last one it reported before it lifted (the finger has settled on the target by then). A
/// touch during which another finger was down is not a calibration touch and is reported as
/// such. The configuration's `device.axes` apply as gestured applies them (``AxisRemap``): the
/// named axes and ranges are the panel's coordinates. Pure: events in, touches out; bounded
/// state (the slots of ``maximumSlots``).
public struct CalibrationTouchReader: Sendable {
    /// One finished touch.
    public enum Touch: Hashable, Sendable {
        case single(NormalizedPoint, endedAt: Int64)
        /// More than one finger was down during it.
        case multiple(endedAt: Int64)
    }

    /// The slots read (multitouch protocol B); a panel's own count is at most 60 or so.
    public static let maximumSlots = 64

    public let xAxis: AbsInfo
    public let yAxis: AbsInfo
    private let multitouch: Bool
    private let xCode: UInt16, yCode: UInt16
    /// The configuration's `device.axes`, when it names axes.
    private let remap: AxisRemap?

    private var slot = 0
    /// Per slot: down, and its position.
    private var down: [Bool]
    private var x: [Int32]
    private var y: [Int32]
    private var changed = false
    /// The touch in progress: whether another finger joined it.
    private var active = false
    private var crowded = false
    private var lastX: Int32 = 0, lastY: Int32 = 0
    /// Single-touch state (ABS_X/ABS_Y with BTN_TOUCH).
    private var buttonDown = false

    /// A reader for a device described by `description`; nil (with the reason) when it has no
    /// absolute position axes to read.
    public static func make(for device: DeviceDescription, axes: AxisOverrides = .none)
        -> Result<CalibrationTouchReader, CalibrationFit.Problem> {
        let remap: AxisRemap
        do {
            remap = try AxisRemap(device, overrides: axes)
        } catch {
            return .failure(CalibrationFit.Problem("\(error)"))
        }
        let description = remap.description
        let multitouch = description.absInfo[AbsCode.mtPositionX] != nil && description.absInfo[AbsCode.mtPositionY] != nil
        let xCode = multitouch ? AbsCode.mtPositionX : AbsCode.x, yCode = multitouch ? AbsCode.mtPositionY : AbsCode.y
        guard let xAxis = description.absInfo[xCode], let yAxis = description.absInfo[yCode] else {
            return .failure(CalibrationFit.Problem("the device \"\(description.name)\" has no absolute position axes "
                + "(ABS_MT_POSITION_X/Y or ABS_X/Y); it is not a touch panel"))
        }
        guard xAxis.maximum > xAxis.minimum, yAxis.maximum > yAxis.minimum else {
            return .failure(CalibrationFit.Problem("the device \"\(description.name)\" reports an empty position range "
                + "(x \(xAxis.minimum)…\(xAxis.maximum), y \(yAxis.minimum)…\(yAxis.maximum)); its positions cannot be "
                + "normalised"))
        }
        return .success(CalibrationTouchReader(xAxis: xAxis, yAxis: yAxis, multitouch: multitouch, xCode: xCode, yCode: yCode,
                                               remap: remap.rewritesEvents ? remap : nil))
    }

    private init(xAxis: AbsInfo, yAxis: AbsInfo, multitouch: Bool, xCode: UInt16, yCode: UInt16, remap: AxisRemap?) {
        self.remap = remap
        self.xAxis = xAxis
        self.yAxis = yAxis
        self.multitouch = multitouch
        self.xCode = xCode
        self.yCode = yCode
        down = Array(repeating: false, count: Self.maximumSlots)
        x = Array(repeating: 0, count: Self.maximumSlots)
        y = Array(repeating: 0, count: Self.maximumSlots)
    }

    /// Takes one event; returns a touch when a frame (`SYN_REPORT`) ended one.
    public mutating func take(_ raw: RawEvent) -> Touch? {
        guard let event = remap.map({ $0.apply(raw) }) ?? raw else { return nil }
        switch event.type {
        case EventType.abs:
            if multitouch {
                switch event.code {
                case AbsCode.mtSlot:
                    slot = Int(event.value)
                case AbsCode.mtTrackingID where (0..<Self.maximumSlots).contains(slot):
                    down[slot] = event.value >= 0
                    changed = true
                case xCode where (0..<Self.maximumSlots).contains(slot):
                    x[slot] = event.value
                    changed = true
                case yCode where (0..<Self.maximumSlots).contains(slot):
                    y[slot] = event.value
                    changed = true
                default:
                    break
                }
            } else if event.code == xCode {
                x[0] = event.value
                changed = true
            } else if event.code == yCode {
                y[0] = event.value
                changed = true
            }
        case EventType.key where !multitouch && event.code == KeyCode.btnTouch:
            buttonDown = event.value != 0
            down[0] = buttonDown
            changed = true
        case EventType.syn where event.code == SynCode.report:
            guard changed else { return nil }
            changed = false
            return frame(at: event.time.microseconds)
        default:
            break
        }
        return nil
    }

    private mutating func frame(at time: Int64) -> Touch? {
        var count = 0, first = -1
        for index in 0..<Self.maximumSlots where down[index] {
            count += 1
            if first < 0 { first = index }
        }
        if count > 0 {
            if !active {
                active = true
                crowded = false
            }
            if count > 1 { crowded = true }
            if count == 1 {
                lastX = x[first]
                lastY = y[first]
            }
            return nil
        }
        guard active else { return nil }
        active = false
        if crowded { return .multiple(endedAt: time) }
        return .single(NormalizedPoint(u: CalibrationFit.normalise(lastX, xAxis), v: CalibrationFit.normalise(lastY, yAxis)),
                       endedAt: time)
    }
}
