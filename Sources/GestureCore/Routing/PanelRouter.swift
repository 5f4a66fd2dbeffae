/// The pipeline's routing stage (docs/routing.md): turns the panel's raw events, as read, and
/// the engine's ``RouteChange`` records into the virtual panel's stream — complete frames, each
/// ending in `SYN_REPORT`, each event with the time the copy must carry.
///
/// It keeps its own view of the panel's slots (every `ABS_MT_*` value, committed at
/// `SYN_REPORT`, in a ``PanelSlotTable``), which forwarded or held touch each slot holds, and
/// what the copy was last told, so that it only ever writes what changed, as the kernel's input
/// core would pass it on:
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
///
/// A claimed touch costs only its values' stores: it is never among the router's touches, so
/// with every touch claimed a commit writes nothing and only commits the changed slots.
struct PanelRouter {
    /// The copy's description (without the udev fuzz, which changes no event).
    let copy: DeviceDescription
    let slotCount: Int

    /// The per-slot codes, `ABS_MT_TOUCH_MAJOR` … `ABS_MT_TOOL_Y`, one value each (``SlotCodes``).
    private static let firstCode = SlotCodes.firstCode
    private static let codeCount = SlotCodes.count
    private static let trackingOffset = SlotCodes.trackingOffset
    private static let toolOffset = SlotCodes.toolOffset

    /// Which per-slot codes the copy declares (bit `code - firstCode`).
    private let declaredSlotCodes: UInt32
    private let declaresSlot: Bool
    private let declaresMsc: Bool
    /// Device-wide codes the copy declares: `BTN_TOUCH`, the five finger-count tools,
    /// `ABS_X`, `ABS_Y`, `ABS_PRESSURE`.
    private let deviceCodes: [(type: UInt16, code: UInt16)]
    private let declaresDevice: [Bool]

    // The panel, as read: every slot's values, claimed touches' too (a later contact in the
    // slot starts from them).
    private var slots = PanelSlotTable()
    /// The slot `ABS_MT_*` values go to; ``PanelSlotTable/scratch`` after `ABS_MT_SLOT` named
    /// a slot out of range. Set only with `currentBit`, so value events write it unchecked.
    private var currentSlot = 0
    /// `currentSlot`'s bit in `dirty`; 0 for the scratch slot, which is never committed.
    private var currentBit: UInt64 = 1
    /// The slots whose pending values may differ from their committed ones (bit `slot`; at
    /// most ``ContactTracker/maximumSlots``, 64): a commit looks at those alone.
    private var dirty: UInt64 = 0
    private var pendingMsc: Int32?
    /// Not discarding after `SYN_DROPPED`: `EV_ABS` events write slot values (the one test on
    /// the path of nearly every event).
    private var readsSlots = true
    /// The time of the `SYN_REPORT` seen and not yet committed.
    private var frameEnd: Timestamp?

    /// The touches that may still reach the copy, with their slot and route: forwarded and
    /// held ones. A touch claimed at its down is never kept, and one claimed later is
    /// forgotten: nothing of a claimed touch is ever written (only forwarded → claimed
    /// exists), so with every touch claimed this stays empty and a commit only commits values.
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
    private var frameNumber = 0

    private struct RoutedTouch {
        var touch: TouchID
        var trackingID: Int32
        var slot: Int
        /// Forwarded or held (claimed touches are not kept).
        var route: Route
        var loggedFrames = 0
    }

    private struct HeldFrame {
        var frame: Int
        var time: Timestamp
        var msc: Int32?
        var touch: TouchID
        var slot: Int
        var values: SlotCodes
    }

    /// How many touches the router keeps (forwarded and held ones): for tests.
    var keptTouchCount: Int { touches.count }

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
        copyValues = []
        copyOrder = []
    }

    /// A router for the panel whose stream is described by `stream` (the panel itself, or
    /// the converted stream of a protocol A panel); nil for a panel without multitouch slots
    /// or tracking ids, which routing does not handle.
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
        copyValues = initial
        copyOrder = [Int](repeating: -1, count: slotCount)
    }

    // MARK: - The panel's events

    /// One raw event of the panel (a protocol A panel's: converted). A `SYN_REPORT` ends the
    /// frame; ``commit(into:)`` writes it once the engine's decisions are applied. Inlined
    /// into the input stage: it runs for every raw event of a routed panel, so a per-slot
    /// value, nearly every event, is one range test and one store, whatever its touch's route.
    @inline(__always)
    mutating func observe(_ event: RawEvent) {
        if event.type == EventType.abs && readsSlots {
            // Codes below the first per-slot one wrap around to large offsets.
            let offset = Int(event.code &- Self.firstCode)
            if offset < Self.codeCount {
                slots.storePending(event.value, slot: currentSlot, offset: offset)
                dirty |= currentBit
            } else if event.code == AbsCode.mtSlot {
                select(event.value)
            }
            // The legacy single-touch axes are recomputed for the copy.
            return
        }
        observeOther(event)
    }

    /// ``observe(_:)`` for every event but an `EV_ABS` one while reading.
    @inline(never)
    private mutating func observeOther(_ event: RawEvent) {
        if !readsSlots {
            // After SYN_DROPPED the kernel's events up to the next SYN_REPORT are incomplete:
            // the contact tracker discards them, and so does the copy.
            if event.isFrameEnd { readsSlots = true }
            return
        }
        switch event.type {
        case EventType.msc:
            if event.code == MscCode.timestamp { pendingMsc = event.value }
        case EventType.syn:
            if event.code == SynCode.report {
                frameEnd = event.time
            } else if event.code == SynCode.dropped {
                restorePending()
                pendingMsc = nil
                readsSlots = false
            }
        default:
            // Keys are recomputed for the copy.
            break
        }
    }

    /// `ABS_MT_SLOT`: values go to slot `value` from now on, or to the scratch slot when it is
    /// out of range (they are never committed).
    @inline(__always)
    private mutating func select(_ value: Int32) {
        if UInt(bitPattern: Int(value)) < UInt(bitPattern: slotCount) {
            currentSlot = Int(value)
            currentBit = 1 &<< UInt64(truncatingIfNeeded: value)
        } else {
            currentSlot = PanelSlotTable.scratch
            currentBit = 0
        }
    }

    /// The tracking id pending in `slot`.
    private mutating func pendingTrackingID(_ slot: Int) -> Int32 {
        slots.update(slot) { $0.pending[Self.trackingOffset] }
    }

    /// After `SYN_DROPPED` on a live panel: the slots as the device has them now (nil: every
    /// contact lost, a protocol A panel), committed by the next ``commit(into:)``, which lifts
    /// on the copy every forwarded touch that did not survive.
    mutating func resynchronise(with snapshot: DeviceSnapshot?, at time: Timestamp) {
        restorePending()
        dirty = slotCount >= 64 ? ~0 : (1 &<< UInt64(slotCount)) &- 1
        pendingMsc = nil
        readsSlots = true
        for slot in 0..<slotCount {
            slots.update(slot) { values in
                guard let snapshot else {
                    values.pending[Self.trackingOffset] = -1
                    return
                }
                let truth = slot < snapshot.slots.count ? snapshot.slots[slot] : .empty
                values.pending[Self.trackingOffset] = truth.trackingID < 0 ? -1 : truth.trackingID
                if let position = truth.position {
                    values.pending[Int(AbsCode.mtPositionX - Self.firstCode)] = position.x
                    values.pending[Int(AbsCode.mtPositionY - Self.firstCode)] = position.y
                }
                if let major = truth.touchMajor { values.pending[Int(AbsCode.mtTouchMajor - Self.firstCode)] = major }
                if let pressure = truth.pressure { values.pending[Int(AbsCode.mtPressure - Self.firstCode)] = pressure }
                values.pending[Self.toolOffset] = truth.toolType
            }
        }
        if let snapshot { select(Int32((0..<slotCount).contains(snapshot.currentSlot) ? snapshot.currentSlot : 0)) }
        frameEnd = time
    }

    /// Forgets the values of a frame that will not be committed.
    private mutating func restorePending() {
        settleChangedSlots(committing: false)
    }

    /// The changed slots' values, 64 bytes each: committed (`committing`), or put back to the
    /// last committed ones; then no slot is changed.
    @inline(__always)
    private mutating func settleChangedSlots(committing: Bool) {
        var changed = dirty
        while changed != 0 {
            let slot = changed.trailingZeroBitCount
            changed &= changed &- 1
            if committing {
                slots.update(slot) { $0.committed = $0.pending }
            } else {
                slots.update(slot) { $0.pending = $0.committed }
            }
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
    /// merged in the order they were read), a pilfered touch's cancel. A touch that becomes
    /// claimed is forgotten (``touches``).
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
                forgetLog(of: change.touch)
                touches.remove(at: index)
            case .pilfered:
                if !flushing.isEmpty { flush(&flushing, into: &out) }
                guard touches[index].route == .forwarded else { continue }
                cancel(slot: touches[index].slot, trackingID: touches[index].trackingID, at: change.time, into: &out)
                touches.remove(at: index)
            }
        }
        if !flushing.isEmpty { flush(&flushing, into: &out) }
    }

    /// A touch that begins forwarded or held takes the slot whose new tracking id is its
    /// contact; one that begins claimed is not kept: nothing of it will reach the copy.
    private mutating func bind(_ change: RouteChange) -> Int? {
        guard case .began(let route) = change.kind, route != .claimed else { return nil }
        let id = Int32(truncatingIfNeeded: change.contact.rawValue)
        for slot in 0..<slotCount where pendingTrackingID(slot) == id
            && !touches.contains(where: { $0.slot == slot && $0.trackingID == id }) {
            touches.append(RoutedTouch(touch: change.touch, trackingID: id, slot: slot, route: route))
            return touches.count - 1
        }
        return nil
    }

    /// Writes the held frames of `flushing` (now forwarded), merged in frame order.
    private mutating func flush(_ flushing: inout [TouchID], into out: inout [RawEvent]) {
        var kept: [HeldFrame] = []
        var position = 0
        while position < log.count {
            let frame = log[position].frame
            var wrote = false
            var end = position
            while end < log.count && log[end].frame == frame {
                let entry = log[end]
                if flushing.contains(entry.touch) {
                    wrote = writeSlot(entry.slot, from: entry.values, at: entry.time, into: &out) || wrote
                } else {
                    kept.append(entry)
                }
                end += 1
            }
            if wrote { endFrame(at: log[position].time, msc: log[position].msc, into: &out) }
            position = end
        }
        log = kept
        flushing.removeAll()
    }

    private mutating func forgetLog(of touch: TouchID) {
        guard log.contains(where: { $0.touch == touch }) else { return }
        log.removeAll { $0.touch == touch }
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
        var lifted = write(slot: slot, offset: Self.toolOffset, value: slots.update(slot) { $0.pending[Self.toolOffset] }, at: time, into: &out)
        lifted = write(slot: slot, offset: Self.trackingOffset, value: -1, at: time, into: &out) || lifted
        if lifted {
            endFrame(at: time, msc: nil, into: &out)
        }
    }

    // MARK: - The frame

    /// Commits the frame the last `SYN_REPORT` (or ``resynchronise(with:at:)``,
    /// ``finish(at:)``) ended: forwarded touches' changes are written, held touches' logged,
    /// and the changed slots' values committed. With no forwarded or held touch (every touch
    /// claimed, or none down) only the values are committed.
    mutating func commit(into out: inout [RawEvent]) {
        guard let time = frameEnd else { return }
        frameEnd = nil
        frameNumber &+= 1
        if !touches.isEmpty { writeTouches(at: time, into: &out) }
        settleChangedSlots(committing: true)
        pendingMsc = nil
    }

    /// The forwarded and held touches' share of the frame that ends at `time`.
    @inline(never)
    private mutating func writeTouches(at time: Timestamp, into out: inout [RawEvent]) {
        // A forwarded contact whose slot now holds another contact (a resynchronisation's
        // snapshot, or a panel that reuses a slot without lifting first) lifts on the copy in a
        // frame of its own, as the kernel's `input_mt_report_slot_state` and libevdev's own
        // resync do: readers take a new tracking id in a slot still down for a device bug
        // (libevdev: "double tracking ID"), and libinput then moves the old touch instead of
        // ending it.
        var lifted = false
        for position in touches.indices where touches[position].route == .forwarded {
            let touch = touches[position]
            let now = pendingTrackingID(touch.slot)
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
            let values = slots.update(slot) { $0 }
            let now = values.pending[Self.trackingOffset]
            if now != touch.trackingID {
                // The contact ended (lifted, cancelled, or replaced by a new tracking id).
                if touch.route == .forwarded {
                    let next = touches.first(where: { $0.slot == slot && $0.trackingID == now })
                    if now < 0 || next?.route == .forwarded {
                        wrote = writeSlot(slot, from: values.pending, at: time, into: &out) || wrote
                    } else {
                        // A claimed contact follows (not kept: see touches), or none.
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
                wrote = writeSlot(slot, from: values.pending, at: time, into: &out) || wrote
            case .held:
                if touches[position].loggedFrames == 0
                    || (dirty & (1 &<< UInt64(slot)) != 0 && values.pending != values.committed) {
                    logFrame(of: position, values: values.pending, at: time)
                }
            case .claimed:
                // Never kept (a claimed touch is forgotten).
                break
            }
            position += 1
        }
        if wrote { endFrame(at: time, msc: pendingMsc, into: &out) }
    }

    /// Keeps a held touch's slot values of this frame. Past ``RoutingLimits/heldFrames`` the
    /// frame replaces the touch's last one (what it waits with stays bounded).
    private mutating func logFrame(of position: Int, values: SlotCodes, at time: Timestamp) {
        if touches[position].loggedFrames >= RoutingLimits.heldFrames,
           let last = log.lastIndex(where: { $0.touch == touches[position].touch }) {
            log[last].time = time
            log[last].msc = pendingMsc
            log[last].values = values
            return
        }
        touches[position].loggedFrames += 1
        log.append(HeldFrame(frame: frameNumber, time: time, msc: pendingMsc, touch: touches[position].touch,
                             slot: touches[position].slot, values: values))
    }

    /// Writes the values of one slot that differ from the copy's: the tracking id first (a
    /// contact begins or ends), then the others in code order. Returns whether it wrote.
    private mutating func writeSlot(_ slot: Int, from values: SlotCodes, at time: Timestamp,
                                    into out: inout [RawEvent]) -> Bool {
        var wrote = write(slot: slot, offset: Self.trackingOffset, value: values[Self.trackingOffset], at: time, into: &out)
        for offset in 0..<Self.codeCount where offset != Self.trackingOffset {
            wrote = write(slot: slot, offset: offset, value: values[offset], at: time, into: &out) || wrote
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
