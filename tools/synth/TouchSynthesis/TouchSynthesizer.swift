import GestureCore

/// Plays a gesture script on a panel and returns the raw events the panel's driver would get
/// through to evdev: what `evemu-record` would have captured from a real finger.
///
/// The events follow the kernel's input core (`drivers/input/input.c`, `input-mt.c`) for the
/// device's contact protocol, decided from its description as gestured decides it:
/// - protocol B (`ABS_MT_SLOT`): each new finger takes the lowest free slot and the next
///   tracking id; only values that changed are sent, and `ABS_MT_SLOT` only before a changed
///   value of another slot than the last one sent (`input_handle_abs_event`); `-1` ends a contact;
/// - protocol A (multitouch axes, no slots): every contact of every frame, each closed by
///   `SYN_MT_REPORT`, a lone `SYN_MT_REPORT` once the last finger lifts;
/// - single touch (`ABS_X/ABS_Y`): one finger.
/// Then the pointer emulation of `input_mt_report_pointer_emulation`, for the codes the device
/// declares: `BTN_TOUCH`, `BTN_TOOL_FINGER` … `QUINTTAP` as a finger count, `ABS_X/ABS_Y` and
/// `ABS_PRESSURE` of the oldest contact. A frame whose values all stayed the same is not sent
/// (the input core passes no frame without events). New contacts report a middle pressure and
/// an 8 mm contact where the device declares `ABS_MT_PRESSURE` and `ABS_MT_TOUCH_MAJOR`.
public struct TouchSynthesizer {
    /// The most frames one script may produce (about half an hour at 100 frames per second).
    public static let maximumFrames = 200_000

    public let panel: DeviceDescription
    let contactProtocol: ContactProtocol
    let positioner: PanelPositioner
    let file: String

    private var events: [RawEvent] = []
    private var frames = 0
    /// The fingers that are down, by script label.
    private var contacts: [Int: Contact] = [:]
    /// The kernel's per-slot values (protocol B): tracking id -1, everything else 0 at first.
    private var slotValues: [[UInt16: Int32]]
    /// The slot of the last `ABS_MT_SLOT` the kernel passed on (0 at creation).
    private var reportedSlot: Int32 = 0
    /// Current `EV_ABS` (non-MT) and `EV_KEY` values, as the input core filters them.
    private var absValues: [UInt16: Int32] = [:]
    private var keyValues: [UInt16: Int32] = [:]
    private var nextTrackingID: Int32 = 0
    private var landings = 0

    private struct Contact {
        var slot: Int
        var trackingID: Int32
        var x: Int32
        var y: Int32
        /// Where the script put the finger, in device units before rounding: glides start here.
        var place: (x: Double, y: Double)
        /// Landing order: the pointer emulation follows the oldest contact.
        var order: Int
    }

    /// A synthesizer for `panel`, placing points on `screen`. Fails when the panel has no
    /// position axes; `file` names the script in errors.
    public init(panel: DeviceDescription, screen: ScreenGeometry?, page: GestureScript.PageMapping = .init(), file: String) throws(ScriptError) {
        let classification = DeviceClassification(panel)
        guard let contactProtocol = classification.contactProtocol else {
            throw ScriptError(file: file, line: nil, message: "the panel \"\(panel.name)\" cannot touch: \(classification.reason)")
        }
        let multitouch = panel.reportsMultitouchPositions
        guard let xAxis = panel.absInfo[multitouch ? AbsCode.mtPositionX : AbsCode.x],
              let yAxis = panel.absInfo[multitouch ? AbsCode.mtPositionY : AbsCode.y] else {
            throw ScriptError(file: file, line: nil, message: "the panel \"\(panel.name)\" declares no position axes")
        }
        self.panel = panel
        self.contactProtocol = contactProtocol
        self.positioner = PanelPositioner(xAxis: xAxis, yAxis: yAxis, screen: screen, page: page)
        self.file = file
        let slots = if case .slots(let count) = contactProtocol { count } else { 0 }
        slotValues = Array(repeating: [AbsCode.mtTrackingID: -1], count: slots)
    }

    /// The events of `script` on `panel`, with times from 0.
    public static func events(of script: GestureScript, panel: DeviceDescription, file: String) throws(ScriptError) -> [RawEvent] {
        var synthesizer = try TouchSynthesizer(panel: panel, screen: script.screen, page: script.page, file: file)
        try synthesizer.play(script)
        return synthesizer.events
    }

    /// The most fingers the panel can have down at once.
    public var fingerLimit: Int {
        switch contactProtocol {
        case .slots(let count): count
        case .protocolA: 32  // a bound of our own: protocol A names no count
        case .singleTouch: 1
        }
    }

    private mutating func play(_ script: GestureScript) throws(ScriptError) {
        let period = script.framePeriod
        var lastFrame: Int64?
        var pendingWait: Int64?
        func nextFrameTime() -> Int64 {
            guard let lastFrame else { return pendingWait ?? 0 }
            return lastFrame + (pendingWait ?? period)
        }
        for step in script.steps {
            switch step.action {
            case .wait(let microseconds):
                pendingWait = (pendingWait ?? 0) + microseconds
            case .frame(let changes):
                let time = nextFrameTime()
                var resolved: [Resolved] = []
                for change in changes { resolved.append(try resolve(change, line: step.line)) }
                try frame(resolved, time: time, line: step.line)
                lastFrame = time
                pendingWait = nil
            case .glide(let changes, let duration):
                var moves: [(finger: Int, from: (x: Double, y: Double), to: (x: Double, y: Double))] = []
                for change in changes {
                    let target = try resolve(change, line: step.line)
                    guard let contact = contacts[change.finger] else {
                        throw error(step.line, "finger \(change.finger) is not down; it needs a `down` first")
                    }
                    moves.append((change.finger, contact.place, target.place))
                }
                let count = max(1, Int((Double(duration) / Double(period)).rounded()))
                let start = nextFrameTime()
                for index in 1...count {
                    let fraction = Double(index) / Double(count)
                    let resolved = moves.map { move in
                        Resolved(kind: .move, finger: move.finger,
                                 place: (move.from.x + (move.to.x - move.from.x) * fraction,
                                         move.from.y + (move.to.y - move.from.y) * fraction))
                    }
                    let time = start + Int64(index - 1) * period
                    try frame(resolved, time: time, line: step.line)
                    lastFrame = time
                }
                pendingWait = nil
            }
        }
    }

    private struct Resolved {
        enum Kind { case down, move, up }
        var kind: Kind
        var finger: Int
        /// In device units, not yet rounded.
        var place: (x: Double, y: Double) = (0, 0)
    }

    private func resolve(_ change: GestureScript.Change, line: Int) throws(ScriptError) -> Resolved {
        switch change {
        case .up(let finger):
            return Resolved(kind: .up, finger: finger)
        case .down(let finger, let position), .move(let finger, let position):
            switch positioner.devicePlace(position) {
            case .success(let place):
                let kind: Resolved.Kind = if case .down = change { .down } else { .move }
                return Resolved(kind: kind, finger: finger, place: place)
            case .failure(let problem):
                throw error(line, problem.message)
            }
        }
    }

    private mutating func frame(_ changes: [Resolved], time: Int64, line: Int) throws(ScriptError) {
        guard frames < Self.maximumFrames else {
            throw error(line, "more than \(Self.maximumFrames) frames; shorten the script or lower its rate")
        }
        let start = events.count
        for change in changes {
            let (x, y) = positioner.rounded(change.place)
            switch change.kind {
            case .down:
                guard contacts[change.finger] == nil else {
                    throw error(line, "finger \(change.finger) is already down; lift it with `up \(change.finger)` first")
                }
                guard contacts.count < fingerLimit else {
                    throw error(line, "finger \(change.finger) would be finger \(contacts.count + 1) on the panel, which takes \(fingerLimit) at once")
                }
                let used = Set(contacts.values.map(\.slot))
                let slot = (0..<max(fingerLimit, 1)).first { !used.contains($0) } ?? 0
                let contact = Contact(slot: slot, trackingID: newTrackingID(), x: x, y: y, place: change.place, order: landings)
                landings += 1
                contacts[change.finger] = contact
                if case .slots = contactProtocol {
                    reportSlot(slot, AbsCode.mtTrackingID, contact.trackingID, time)
                    reportSlot(slot, AbsCode.mtPositionX, x, time)
                    reportSlot(slot, AbsCode.mtPositionY, y, time)
                    if let major = touchMajor { reportSlot(slot, AbsCode.mtTouchMajor, major, time) }
                    if let pressure = mtPressure { reportSlot(slot, AbsCode.mtPressure, pressure, time) }
                }
            case .move:
                guard var contact = contacts[change.finger] else {
                    throw error(line, "finger \(change.finger) is not down; it needs a `down` first")
                }
                contact.x = x
                contact.y = y
                contact.place = change.place
                contacts[change.finger] = contact
                if case .slots = contactProtocol {
                    reportSlot(contact.slot, AbsCode.mtPositionX, x, time)
                    reportSlot(contact.slot, AbsCode.mtPositionY, y, time)
                }
            case .up:
                guard let contact = contacts.removeValue(forKey: change.finger) else {
                    throw error(line, "finger \(change.finger) is not down, so it cannot lift")
                }
                if case .slots = contactProtocol { reportSlot(contact.slot, AbsCode.mtTrackingID, -1, time) }
            }
        }
        let ordered = contacts.values.sorted { $0.order < $1.order }
        switch contactProtocol {
        case .slots:
            break
        case .protocolA:
            for contact in ordered {
                if panel.absInfo[AbsCode.mtTrackingID] != nil { emit(time, EventType.abs, AbsCode.mtTrackingID, contact.trackingID) }
                emit(time, EventType.abs, AbsCode.mtPositionX, contact.x)
                emit(time, EventType.abs, AbsCode.mtPositionY, contact.y)
                if let major = touchMajor { emit(time, EventType.abs, AbsCode.mtTouchMajor, major) }
                if let pressure = mtPressure { emit(time, EventType.abs, AbsCode.mtPressure, pressure) }
                emit(time, EventType.syn, SynCode.mtReport, 0)
            }
            if ordered.isEmpty { emit(time, EventType.syn, SynCode.mtReport, 0) }
        case .singleTouch:
            break
        }
        reportPointer(oldest: ordered.first, count: ordered.count, time: time)
        // The input core passes no frame without a value in it.
        guard events.count > start else { return }
        emit(time, EventType.syn, SynCode.report, 0)
        frames += 1
    }

    /// `input_mt_report_pointer_emulation`, or the whole report of a single-touch device.
    private mutating func reportPointer(oldest: Contact?, count: Int, time: Int64) {
        reportKey(KeyCode.btnTouch, count > 0 ? 1 : 0, time)
        let tools = [KeyCode.btnToolFinger, KeyCode.btnToolDoubletap, KeyCode.btnToolTripletap,
                     KeyCode.btnToolQuadtap, KeyCode.btnToolQuinttap]
        for (index, code) in tools.enumerated() { reportKey(code, count == index + 1 ? 1 : 0, time) }
        if let oldest {
            reportAbs(AbsCode.x, oldest.x, time)
            reportAbs(AbsCode.y, oldest.y, time)
            if let pressure = mtPressure ?? singlePressure { reportAbs(AbsCode.pressure, pressure, time) }
        } else if mtPressure != nil || singlePressure != nil {
            reportAbs(AbsCode.pressure, 0, time)
        }
    }

    /// A protocol B value through the input core's filter: dropped when the slot already has
    /// it, preceded by `ABS_MT_SLOT` when another slot was reported last.
    private mutating func reportSlot(_ slot: Int, _ code: UInt16, _ value: Int32, _ time: Int64) {
        guard panel.absInfo[code] != nil, slotValues[slot][code, default: 0] != value else { return }
        slotValues[slot][code] = value
        if Int32(slot) != reportedSlot, panel.absInfo[AbsCode.mtSlot] != nil {
            emit(time, EventType.abs, AbsCode.mtSlot, Int32(slot))
            reportedSlot = Int32(slot)
        }
        emit(time, EventType.abs, code, value)
    }

    private mutating func reportAbs(_ code: UInt16, _ value: Int32, _ time: Int64) {
        guard panel.absInfo[code] != nil, absValues[code, default: 0] != value else { return }
        absValues[code] = value
        emit(time, EventType.abs, code, value)
    }

    private mutating func reportKey(_ code: UInt16, _ value: Int32, _ time: Int64) {
        guard panel.has(type: EventType.key, code: code), keyValues[code, default: 0] != value else { return }
        keyValues[code] = value
        emit(time, EventType.key, code, value)
    }

    private mutating func emit(_ time: Int64, _ type: UInt16, _ code: UInt16, _ value: Int32) {
        events.append(RawEvent(time: Timestamp(microseconds: time), type: type, code: code, value: value))
    }

    /// The next tracking id, wrapping within `ABS_MT_TRACKING_ID`'s range as the kernel's
    /// `input_mt_new_trkid` wraps within its own.
    private mutating func newTrackingID() -> Int32 {
        let id = nextTrackingID
        let maximum = panel.absInfo[AbsCode.mtTrackingID].map { max($0.maximum, 0) } ?? 65535
        nextTrackingID = id >= maximum ? 0 : id + 1
        return id
    }

    /// A new contact's `ABS_MT_PRESSURE`: the middle of the range.
    private var mtPressure: Int32? {
        guard panel.reportsMultitouchPositions, let axis = panel.absInfo[AbsCode.mtPressure] else { return nil }
        return Self.middle(axis)
    }

    /// A single-touch device's `ABS_PRESSURE`: the middle of the range.
    private var singlePressure: Int32? {
        guard !panel.reportsMultitouchPositions, let axis = panel.absInfo[AbsCode.pressure] else { return nil }
        return Self.middle(axis)
    }

    /// A new contact's `ABS_MT_TOUCH_MAJOR`: 8 mm, a fingertip, where the X axis has a
    /// resolution (the kernel gives contact sizes in position units); else a hundredth of the axis.
    private var touchMajor: Int32? {
        guard panel.reportsMultitouchPositions, let axis = panel.absInfo[AbsCode.mtTouchMajor] else { return nil }
        let x = positioner.xAxis
        let size = x.resolution > 0 ? Int64(x.resolution) * 8 : (Int64(x.maximum) - Int64(x.minimum) + 1) / 100
        return Int32(min(max(size, Int64(axis.minimum)), Int64(axis.maximum)))
    }

    private static func middle(_ axis: AbsInfo) -> Int32 {
        Int32((Int64(axis.minimum) + Int64(axis.maximum)) / 2)
    }

    private func error(_ line: Int, _ message: String) -> ScriptError {
        ScriptError(file: file, line: line, message: message)
    }
}
