/// The pipeline's routing stage (docs/routing.md): turns the panel's raw events, as read, and
/// the engine's ``RouteChange`` records into the virtual panel's stream — complete frames, each
/// ending in `SYN_REPORT`, each event with the time the copy must carry.
///
/// It keeps its own view of the panel's slots (every `ABS_MT_*` value, committed at
/// `SYN_REPORT`), which touch each slot holds and its route, and what the copy was last told,
/// so that it only ever writes what changed, as the kernel's input core would pass it on:
/// - a forwarded touch's slot on the copy is its slot on the panel, its values the panel's;
///   `ABS_MT_SLOT` is written when the copy's current slot changes;
/// - a held touch's frames are kept with their times and written, in order, when it is
///   forwarded (dropped when it is claimed or cancelled);
/// - a touch claimed late is cancelled on the copy as libinput reads a cancel: its tool type
///   becomes `MT_TOOL_PALM` in one frame; in the next its tool is given back and its tracking
///   id becomes -1;
/// - `BTN_TOUCH`, `BTN_TOOL_FINGER` … `BTN_TOOL_QUINTTAP` and the single-touch emulation
///   `ABS_X`/`ABS_Y`/`ABS_PRESSURE` are recomputed over the touches on the copy, by the
///   kernel's rule (`input_mt_report_finger_count`, `input_mt_report_pointer_emulation`: the
///   oldest contact); `MSC_TIMESTAMP` passes through with a frame that carries a change.
/// Only the codes the copy declares (``PanelCopy/description(of:udevProperties:)``) are written.
///
/// The order of one frame: ``observe(_:)`` takes its events (from the input stage, which every
/// event of a routed device goes through); the engine processes the frame and its route
/// changes are applied (``apply(_:into:)``: held frames flushed, cancels written); then
/// ``commit(into:)`` writes the frame's forwarded changes.
struct PanelRouter {
    /// The copy's description (without the udev fuzz, which changes no event).
    let copy: DeviceDescription
    let slotCount: Int

    /// The per-slot codes, `ABS_MT_TOUCH_MAJOR` … `ABS_MT_TOOL_Y`, one value each.
    private static let firstCode = AbsCode.mtTouchMajor
    private static let codeCount = Int(AbsCode.mtToolY - AbsCode.mtTouchMajor) + 1
    private static let trackingOffset = Int(AbsCode.mtTrackingID - AbsCode.mtTouchMajor)
    private static let toolOffset = Int(AbsCode.mtToolType - AbsCode.mtTouchMajor)

    /// Which per-slot codes the copy declares (bit `code - firstCode`).
    private let declaredSlotCodes: UInt32
    private let declaresSlot: Bool
    private let declaresMsc: Bool
    /// Device-wide codes the copy declares: `BTN_TOUCH`, the five finger-count tools,
    /// `ABS_X`, `ABS_Y`, `ABS_PRESSURE`.
    private let deviceCodes: [(type: UInt16, code: UInt16)]
    private let declaresDevice: [Bool]

    // The panel, as read.
    private var pending: [Int32]
    private var committed: [Int32]
    private var currentSlot = 0
    /// The slots whose pending values may differ from their committed ones (bit `slot`; at
    /// most ``ContactTracker/maximumSlots``, 64): a commit looks at those alone.
    private var dirty: UInt64 = 0
    private var pendingMsc: Int32?
    private var discarding = false
    /// The time of the `SYN_REPORT` seen and not yet committed.
    private var frameEnd: Timestamp?

    /// Touches the router knows of, with their slot and route.
    private var touches: [RoutedTouch] = []

    // The copy, as told.
    private var copyValues: [Int32]
    private var copySlot = 0
    /// When each slot's contact went down on the copy (for the oldest); -1 for none.
    private var copyOrder: [Int]
    private var nextOrder = 0
    private var deviceValues: [Int32]

    // Held frames, oldest first: one entry per held slot per frame it changed in.
    private var log: [HeldFrame] = []
    private var logValues: [Int32] = []
    private var frameNumber = 0

    private struct RoutedTouch {
        var touch: TouchID
        var trackingID: Int32
        var slot: Int
        var route: Route
        var loggedFrames = 0
    }

    private struct HeldFrame {
        var frame: Int
        var time: Timestamp
        var msc: Int32?
        var touch: TouchID
        var slot: Int
    }

    /// A router for the panel whose stream is described by `stream` (the panel itself, or
    /// the converted stream of a protocol A panel); nil for a panel without multitouch slots
    /// or tracking ids, which routing does not handle.
    /// A router that routes nothing: the input stage's while touches are not routed.
    init() {
        copy = DeviceDescription(name: "", codes: [:], absInfo: [:])
        slotCount = 0
        declaredSlotCodes = 0
        declaresSlot = false
        declaresMsc = false
        deviceCodes = []
        declaresDevice = []
        deviceValues = []
        pending = []
        committed = []
        copyValues = []
        copyOrder = []
    }

    init?(stream: DeviceDescription) {
        guard stream.absInfo[AbsCode.mtTrackingID] != nil else { return nil }
        copy = PanelCopy.description(of: stream)
        slotCount = min(stream.slotCount ?? 1, ContactTracker.maximumSlots)
        var mask: UInt32 = 0
        for offset in 0..<Self.codeCount where copy.absInfo[Self.firstCode + UInt16(offset)] != nil {
            mask |= 1 << UInt32(offset)
        }
        declaredSlotCodes = mask
        declaresSlot = copy.absInfo[AbsCode.mtSlot] != nil
        declaresMsc = copy.has(type: EventType.msc, code: MscCode.timestamp)
        deviceCodes = [(EventType.key, KeyCode.btnTouch), (EventType.key, KeyCode.btnToolFinger),
                       (EventType.key, KeyCode.btnToolDoubletap), (EventType.key, KeyCode.btnToolTripletap),
                       (EventType.key, KeyCode.btnToolQuadtap), (EventType.key, KeyCode.btnToolQuinttap),
                       (EventType.abs, AbsCode.x), (EventType.abs, AbsCode.y), (EventType.abs, AbsCode.pressure)]
        let copy = copy
        declaresDevice = deviceCodes.map { copy.has(type: $0.type, code: $0.code) }
        deviceValues = [Int32](repeating: 0, count: deviceCodes.count)
        var initial = [Int32](repeating: 0, count: slotCount * Self.codeCount)
        for slot in 0..<slotCount { initial[slot * Self.codeCount + Self.trackingOffset] = -1 }
        pending = initial
        committed = initial
        copyValues = initial
        copyOrder = [Int](repeating: -1, count: slotCount)
    }

    // MARK: - The panel's events

    /// One raw event of the panel (a protocol A panel's: converted). A `SYN_REPORT` ends the
    /// frame; ``commit(into:)`` writes it once the engine's decisions are applied. Inlined
    /// into the input stage: it runs for every raw event of a routed panel.
    @inline(__always)
    mutating func observe(_ event: RawEvent) {
        if discarding {
            // After SYN_DROPPED the kernel's events up to the next SYN_REPORT are incomplete:
            // the contact tracker discards them, and so does the copy.
            if event.isFrameEnd { discarding = false }
            return
        }
        switch event.type {
        case EventType.abs:
            if event.code == AbsCode.mtSlot {
                currentSlot = event.value >= 0 && Int(event.value) < slotCount ? Int(event.value) : -1
            } else if event.code >= Self.firstCode && event.code < Self.firstCode + UInt16(Self.codeCount), currentSlot >= 0 {
                pending[currentSlot * Self.codeCount + Int(event.code - Self.firstCode)] = event.value
                dirty |= 1 &<< UInt64(currentSlot)
            }
        case EventType.msc:
            if event.code == MscCode.timestamp { pendingMsc = event.value }
        case EventType.syn:
            if event.code == SynCode.report {
                frameEnd = event.time
            } else if event.code == SynCode.dropped {
                restorePending()
                pendingMsc = nil
                discarding = true
            }
        default:
            // Keys and the legacy single-touch axes are recomputed for the copy.
            break
        }
    }

    /// After `SYN_DROPPED` on a live panel: the slots as the device has them now (nil: every
    /// contact lost, a protocol A panel), committed by the next ``commit(into:)``, which lifts
    /// on the copy every forwarded touch that did not survive.
    mutating func resynchronise(with snapshot: DeviceSnapshot?, at time: Timestamp) {
        restorePending()
        dirty = slotCount >= 64 ? ~0 : (1 &<< UInt64(slotCount)) &- 1
        pendingMsc = nil
        discarding = false
        for slot in 0..<slotCount {
            let base = slot * Self.codeCount
            guard let snapshot else {
                pending[base + Self.trackingOffset] = -1
                continue
            }
            let truth = slot < snapshot.slots.count ? snapshot.slots[slot] : .empty
            pending[base + Self.trackingOffset] = truth.trackingID < 0 ? -1 : truth.trackingID
            if let position = truth.position {
                pending[base + Int(AbsCode.mtPositionX - Self.firstCode)] = position.x
                pending[base + Int(AbsCode.mtPositionY - Self.firstCode)] = position.y
            }
            if let major = truth.touchMajor { pending[base + Int(AbsCode.mtTouchMajor - Self.firstCode)] = major }
            if let pressure = truth.pressure { pending[base + Int(AbsCode.mtPressure - Self.firstCode)] = pressure }
            pending[base + Self.toolOffset] = truth.toolType
        }
        if let snapshot { currentSlot = (0..<slotCount).contains(snapshot.currentSlot) ? snapshot.currentSlot : 0 }
        frameEnd = time
    }

    /// Forgets the values of a frame that will not be committed.
    private mutating func restorePending() {
        var slots = dirty
        while slots != 0 {
            let slot = slots.trailingZeroBitCount
            slots &= slots &- 1
            for index in slot * Self.codeCount..<(slot + 1) * Self.codeCount { pending[index] = committed[index] }
        }
        dirty = 0
    }

    /// The input ends (the recording's end, the device gone, the daemon stopping): a half
    /// frame is discarded and every contact ends; the next ``commit(into:)`` lifts the
    /// forwarded ones on the copy.
    mutating func finish(at time: Timestamp) {
        resynchronise(with: nil, at: time)
    }

    // MARK: - The engine's decisions

    /// Applies the engine's route changes, in order, writing what they write at once: a
    /// forwarded held touch's frames (several touches forwarded together: their frames
    /// merged in the order they were read), a pilfered touch's cancel.
    mutating func apply(_ changes: [RouteChange], into out: inout [RawEvent]) {
        var flushing: [TouchID] = []
        for change in changes {
            guard let index = touches.firstIndex(where: { $0.touch == change.touch }) ?? bind(change) else { continue }
            switch change.kind {
            case .began:
                continue
            case .forwarded:
                guard touches[index].route == .held else { continue }
                touches[index].route = .forwarded
                flushing.append(change.touch)
            case .claimed, .dropped:
                if !flushing.isEmpty { flush(&flushing, into: &out) }
                guard touches[index].route == .held else { continue }
                touches[index].route = .claimed
                forgetLog(of: change.touch)
            case .pilfered:
                if !flushing.isEmpty { flush(&flushing, into: &out) }
                guard touches[index].route == .forwarded else { continue }
                touches[index].route = .claimed
                cancel(slot: touches[index].slot, trackingID: touches[index].trackingID, at: change.time, into: &out)
            }
        }
        if !flushing.isEmpty { flush(&flushing, into: &out) }
    }

    /// A touch that begins takes the slot whose new tracking id is its contact.
    private mutating func bind(_ change: RouteChange) -> Int? {
        guard case .began(let route) = change.kind else { return nil }
        let id = Int32(truncatingIfNeeded: change.contact.rawValue)
        for slot in 0..<slotCount where pending[slot * Self.codeCount + Self.trackingOffset] == id
            && !touches.contains(where: { $0.slot == slot && $0.trackingID == id }) {
            touches.append(RoutedTouch(touch: change.touch, trackingID: id, slot: slot, route: route))
            return touches.count - 1
        }
        return nil
    }

    /// Writes the held frames of `flushing` (now forwarded), merged in frame order.
    private mutating func flush(_ flushing: inout [TouchID], into out: inout [RawEvent]) {
        var kept: [HeldFrame] = []
        var keptValues: [Int32] = []
        var position = 0
        while position < log.count {
            let frame = log[position].frame
            var wrote = false
            var end = position
            while end < log.count && log[end].frame == frame {
                let entry = log[end]
                let base = end * Self.codeCount
                if flushing.contains(entry.touch) {
                    wrote = writeSlot(entry.slot, from: logValues[base..<base + Self.codeCount], at: entry.time, into: &out) || wrote
                } else {
                    kept.append(entry)
                    keptValues.append(contentsOf: logValues[base..<base + Self.codeCount])
                }
                end += 1
            }
            if wrote { endFrame(at: log[position].time, msc: log[position].msc, into: &out) }
            position = end
        }
        log = kept
        logValues = keptValues
        flushing.removeAll()
    }

    private mutating func forgetLog(of touch: TouchID) {
        guard log.contains(where: { $0.touch == touch }) else { return }
        var kept: [HeldFrame] = []
        var keptValues: [Int32] = []
        for (position, entry) in log.enumerated() where entry.touch != touch {
            kept.append(entry)
            keptValues.append(contentsOf: logValues[position * Self.codeCount..<(position + 1) * Self.codeCount])
        }
        log = kept
        logValues = keptValues
    }

    /// libinput's cancel: the tool becomes a palm, then the contact lifts, its tool given back
    /// (the panel's, a finger) in the lift's frame, before the tracking id. libinput
    /// (`fallback_process_touch`) takes a new contact for a palm when its slot's tool is still
    /// a palm as the new tracking id is read, and ignores it to its end: without the tool given
    /// back, the next touch in that slot would never reach the desktop. A palm's lift, whatever
    /// its tool, is no `TOUCH_UP` (docs/routing.md, "What a late claim becomes").
    private mutating func cancel(slot: Int, trackingID: Int32, at time: Timestamp, into out: inout [RawEvent]) {
        let base = slot * Self.codeCount
        guard copyValues[base + Self.trackingOffset] == trackingID else { return }
        if write(slot: slot, offset: Self.toolOffset, value: ToolType.palm, at: time, into: &out) {
            endFrame(at: time, msc: nil, into: &out)
        }
        var lifted = write(slot: slot, offset: Self.toolOffset, value: pending[base + Self.toolOffset], at: time, into: &out)
        lifted = write(slot: slot, offset: Self.trackingOffset, value: -1, at: time, into: &out) || lifted
        if lifted {
            endFrame(at: time, msc: nil, into: &out)
        }
    }

    // MARK: - The frame

    /// Commits the frame the last `SYN_REPORT` (or ``resynchronise(with:at:)``,
    /// ``finish(at:)``) ended: forwarded touches' changes are written, held touches' logged.
    mutating func commit(into out: inout [RawEvent]) {
        guard let time = frameEnd else { return }
        frameEnd = nil
        frameNumber &+= 1
        // A forwarded contact whose slot now holds another contact (a resynchronisation's
        // snapshot, or a panel that reuses a slot without lifting first) lifts on the copy in a
        // frame of its own, as the kernel's `input_mt_report_slot_state` and libevdev's own
        // resync do: readers take a new tracking id in a slot still down for a device bug
        // (libevdev: "double tracking ID"), and libinput then moves the old touch instead of
        // ending it.
        var lifted = false
        for touch in touches where touch.route == .forwarded {
            let now = pending[touch.slot * Self.codeCount + Self.trackingOffset]
            if now >= 0 && now != touch.trackingID {
                lifted = write(slot: touch.slot, offset: Self.trackingOffset, value: -1, at: time, into: &out) || lifted
            }
        }
        if lifted { endFrame(at: time, msc: nil, into: &out) }
        var wrote = false
        var position = 0
        while position < touches.count {
            let touch = touches[position]
            let slot = touch.slot
            let base = slot * Self.codeCount
            let now = pending[base + Self.trackingOffset]
            if now != touch.trackingID {
                // The contact ended (lifted, cancelled, or replaced by a new tracking id).
                if touch.route == .forwarded {
                    let next = touches.first(where: { $0.slot == slot && $0.trackingID == now })
                    if now < 0 || next?.route == .forwarded {
                        wrote = writeSlot(slot, from: pending[base..<base + Self.codeCount], at: time, into: &out) || wrote
                    } else {
                        wrote = write(slot: slot, offset: Self.trackingOffset, value: -1, at: time, into: &out) || wrote
                    }
                } else if touch.route == .held {
                    forgetLog(of: touch.touch)
                }
                touches.remove(at: position)
                continue
            }
            switch touch.route {
            case .forwarded:
                wrote = writeSlot(slot, from: pending[base..<base + Self.codeCount], at: time, into: &out) || wrote
            case .held:
                if touches[position].loggedFrames == 0 || (dirty & (1 &<< UInt64(slot)) != 0
                    && pending[base..<base + Self.codeCount] != committed[base..<base + Self.codeCount]) {
                    logFrame(of: position, at: time)
                }
            case .claimed:
                break
            }
            position += 1
        }
        if wrote { endFrame(at: time, msc: pendingMsc, into: &out) }
        // The changed slots, element by element: an assignment would share the buffer, and
        // the next event would copy it.
        var slots = dirty
        while slots != 0 {
            let slot = slots.trailingZeroBitCount
            slots &= slots &- 1
            for index in slot * Self.codeCount..<(slot + 1) * Self.codeCount { committed[index] = pending[index] }
        }
        dirty = 0
        pendingMsc = nil
    }

    /// Keeps a held touch's slot values of this frame. Past ``RoutingLimits/heldFrames`` the
    /// frame replaces the touch's last one (what it waits with stays bounded).
    private mutating func logFrame(of position: Int, at time: Timestamp) {
        let slot = touches[position].slot
        let base = slot * Self.codeCount
        if touches[position].loggedFrames >= RoutingLimits.heldFrames,
           let last = log.lastIndex(where: { $0.touch == touches[position].touch }) {
            log[last].time = time
            log[last].msc = pendingMsc
            logValues.replaceSubrange(last * Self.codeCount..<(last + 1) * Self.codeCount,
                                      with: pending[base..<base + Self.codeCount])
            return
        }
        touches[position].loggedFrames += 1
        log.append(HeldFrame(frame: frameNumber, time: time, msc: pendingMsc, touch: touches[position].touch, slot: slot))
        logValues.append(contentsOf: pending[base..<base + Self.codeCount])
    }

    /// Writes the values of one slot that differ from the copy's: the tracking id first (a
    /// contact begins or ends), then the others in code order. Returns whether it wrote.
    private mutating func writeSlot(_ slot: Int, from values: ArraySlice<Int32>, at time: Timestamp,
                                    into out: inout [RawEvent]) -> Bool {
        let start = values.startIndex
        var wrote = write(slot: slot, offset: Self.trackingOffset, value: values[start + Self.trackingOffset],
                          at: time, into: &out)
        for offset in 0..<Self.codeCount where offset != Self.trackingOffset {
            wrote = write(slot: slot, offset: offset, value: values[start + offset], at: time, into: &out) || wrote
        }
        return wrote
    }

    /// One per-slot value on the copy, if declared and changed, after `ABS_MT_SLOT` when the
    /// copy's current slot is another.
    private mutating func write(slot: Int, offset: Int, value: Int32, at time: Timestamp,
                                into out: inout [RawEvent]) -> Bool {
        let index = slot * Self.codeCount + offset
        guard declaredSlotCodes & (1 << UInt32(offset)) != 0, copyValues[index] != value else { return false }
        if declaresSlot && copySlot != slot {
            out.append(RawEvent(time: time, type: EventType.abs, code: AbsCode.mtSlot, value: Int32(slot)))
            copySlot = slot
        }
        out.append(RawEvent(time: time, type: EventType.abs, code: Self.firstCode + UInt16(offset), value: value))
        if offset == Self.trackingOffset {
            let before = copyValues[index]
            if value < 0 {
                copyOrder[slot] = -1
            } else if before != value {
                copyOrder[slot] = nextOrder
                nextOrder &+= 1
            }
        }
        copyValues[index] = value
        return true
    }

    /// Ends a frame on the copy: the device-wide state by the kernel's rules, the panel's
    /// `MSC_TIMESTAMP`, `SYN_REPORT`.
    private mutating func endFrame(at time: Timestamp, msc: Int32?, into out: inout [RawEvent]) {
        var count = 0
        var oldest = -1
        for slot in 0..<slotCount where copyValues[slot * Self.codeCount + Self.trackingOffset] >= 0 {
            count += 1
            if oldest < 0 || copyOrder[slot] < copyOrder[oldest] { oldest = slot }
        }
        for position in deviceCodes.indices where declaresDevice[position] {
            let value: Int32
            switch position {
            case 0: value = count > 0 ? 1 : 0
            case 1...5: value = count == position ? 1 : 0
            case 6, 7:
                guard oldest >= 0 else { continue }
                let code = position == 6 ? AbsCode.mtPositionX : AbsCode.mtPositionY
                value = copyValues[oldest * Self.codeCount + Int(code - Self.firstCode)]
            default:
                // ABS_PRESSURE follows ABS_MT_PRESSURE only; 0 with no contact.
                guard declaredSlotCodes & (1 << UInt32(AbsCode.mtPressure - Self.firstCode)) != 0 else { continue }
                value = oldest >= 0 ? copyValues[oldest * Self.codeCount + Int(AbsCode.mtPressure - Self.firstCode)] : 0
            }
            guard value != deviceValues[position] else { continue }
            out.append(RawEvent(time: time, type: deviceCodes[position].type, code: deviceCodes[position].code, value: value))
            deviceValues[position] = value
        }
        if declaresMsc, let msc {
            out.append(RawEvent(time: time, type: EventType.msc, code: MscCode.timestamp, value: msc))
        }
        out.append(RawEvent(time: time, type: EventType.syn, code: SynCode.report, value: 0))
    }
}
