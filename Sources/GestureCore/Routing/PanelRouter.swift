/// The pipeline's routing stage (docs/routing.md): turns the panel's values, as read, and
/// the engine's ``RouteChange`` records into the virtual panel's stream — complete frames, each
/// ending in `SYN_REPORT`, each event with the time the copy must carry.
///
/// It reads the panel's per-slot values (every `ABS_MT_*` value, as the frame being committed
/// left it) from a ``PanelSlotSource`` — the contact tracker, or the input stage's own
/// ``ObservedPanel`` when `device.axes` rewrite the events — and keeps which forwarded or held
/// touch each slot holds and what the copy was last told, so that it only ever writes what
/// changed, as the kernel's input core would pass it on:
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
/// The order of one frame: the input stage reads its events (the router reads none of them);
/// the engine processes the frame and its route changes are applied
/// (``apply(_:values:into:)``: held frames flushed, cancels written); then
/// ``commit(at:msc:values:into:)`` writes the frame's forwarded changes.
///
/// A claimed touch costs nothing here: it is never among the router's touches, so with every
/// touch claimed a commit is one test, and no raw event of the panel is looked at twice.
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
        /// A held touch's values in its last logged frame.
        var lastLogged = SlotCodes()
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

    // MARK: - Contacts lost

    /// Every contact is lost at once (the input's end, or a resynchronisation with nothing to
    /// reconcile with): each forwarded touch lifts on the copy, in one frame, and held ones are
    /// forgotten. Nothing of them remains to be written.
    mutating func loseEveryTouch(at time: Timestamp, into out: inout [RawEvent]) {
        var wrote = false
        for touch in touches where touch.route == .forwarded {
            wrote = write(slot: touch.slot, offset: Self.trackingOffset, value: -1, at: time, into: &out) || wrote
        }
        touches.removeAll()
        log.removeAll()
        if wrote { endFrame(at: time, msc: nil, into: &out) }
    }

    // MARK: - The engine's decisions

    /// Applies the engine's route changes, in order, writing what they write at once: a
    /// forwarded held touch's frames (several touches forwarded together: their frames
    /// merged in the order they were read), a pilfered touch's cancel. A touch that becomes
    /// claimed is forgotten (``touches``).
    mutating func apply<Values: PanelSlotSource>(_ changes: [RouteChange], values: inout Values,
                                                  into out: inout [RawEvent]) {
        var flushing: [TouchID] = []
        for change in changes {
            guard let index = touches.firstIndex(where: { $0.touch == change.touch }) ?? bind(change, values: &values) else {
                continue
            }
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
                let tool = values.panelValues(slot: touches[index].slot)[Self.toolOffset]
                cancel(slot: touches[index].slot, trackingID: touches[index].trackingID, tool: tool, at: change.time, into: &out)
                touches.remove(at: index)
            }
        }
        if !flushing.isEmpty { flush(&flushing, into: &out) }
    }

    /// A touch that begins forwarded or held takes the slot whose new tracking id is its
    /// contact; one that begins claimed is not kept: nothing of it will reach the copy.
    private mutating func bind<Values: PanelSlotSource>(_ change: RouteChange, values: inout Values) -> Int? {
        guard case .began(let route) = change.kind, route != .claimed else { return nil }
        let id = Int32(truncatingIfNeeded: change.contact.rawValue)
        for slot in 0..<slotCount where values.panelValues(slot: slot)[Self.trackingOffset] == id
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
    private mutating func cancel(slot: Int, trackingID: Int32, tool: Int32, at time: Timestamp, into out: inout [RawEvent]) {
        let base = slot * Self.codeCount
        guard copyValues[base + Self.trackingOffset] == trackingID else { return }
        if write(slot: slot, offset: Self.toolOffset, value: ToolType.palm, at: time, into: &out) {
            endFrame(at: time, msc: nil, into: &out)
        }
        var lifted = write(slot: slot, offset: Self.toolOffset, value: tool, at: time, into: &out)
        lifted = write(slot: slot, offset: Self.trackingOffset, value: -1, at: time, into: &out) || lifted
        if lifted {
            endFrame(at: time, msc: nil, into: &out)
        }
    }

    // MARK: - The frame

    /// Writes the frame that ends at `time` (a `SYN_REPORT`, a resynchronisation, the input's
    /// end), the engine having decided it: forwarded touches' changes are written with the
    /// frame's `msc`, held touches' logged, from the panel's values in `values`. With no
    /// forwarded or held touch (every touch claimed, or none down) there is nothing to do.
    @inline(__always)
    mutating func commit<Values: PanelSlotSource>(at time: Timestamp, msc: Int32?, values: inout Values,
                                                  into out: inout [RawEvent]) {
        frameNumber &+= 1
        if !touches.isEmpty { writeTouches(at: time, msc: msc, values: &values, into: &out) }
    }

    /// The forwarded and held touches' share of the frame that ends at `time`.
    @inline(never)
    private mutating func writeTouches<Values: PanelSlotSource>(at time: Timestamp, msc: Int32?, values source: inout Values,
                                                                into out: inout [RawEvent]) {
        // A forwarded contact whose slot now holds another contact (a resynchronisation's
        // snapshot, or a panel that reuses a slot without lifting first) lifts on the copy in a
        // frame of its own, as the kernel's `input_mt_report_slot_state` and libevdev's own
        // resync do: readers take a new tracking id in a slot still down for a device bug
        // (libevdev: "double tracking ID"), and libinput then moves the old touch instead of
        // ending it.
        var lifted = false
        for position in touches.indices where touches[position].route == .forwarded {
            let touch = touches[position]
            let now = source.panelValues(slot: touch.slot)[Self.trackingOffset]
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
            let values = source.panelValues(slot: slot)
            let now = values[Self.trackingOffset]
            if now != touch.trackingID {
                // The contact ended (lifted, cancelled, or replaced by a new tracking id).
                if touch.route == .forwarded {
                    let next = touches.first(where: { $0.slot == slot && $0.trackingID == now })
                    if now < 0 || next?.route == .forwarded {
                        wrote = writeSlot(slot, from: values, at: time, into: &out) || wrote
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
                wrote = writeSlot(slot, from: values, at: time, into: &out) || wrote
            case .held:
                // A frame is logged when it changed the touch's values (and the first always).
                if touches[position].loggedFrames == 0 || values != touches[position].lastLogged {
                    logFrame(of: position, values: values, msc: msc, at: time)
                }
            case .claimed:
                // Never kept (a claimed touch is forgotten).
                break
            }
            position += 1
        }
        if wrote { endFrame(at: time, msc: msc, into: &out) }
    }

    /// Keeps a held touch's slot values of this frame. Past ``RoutingLimits/heldFrames`` the
    /// frame replaces the touch's last one (what it waits with stays bounded).
    private mutating func logFrame(of position: Int, values: SlotCodes, msc: Int32?, at time: Timestamp) {
        touches[position].lastLogged = values
        if touches[position].loggedFrames >= RoutingLimits.heldFrames,
           let last = log.lastIndex(where: { $0.touch == touches[position].touch }) {
            log[last].time = time
            log[last].msc = msc
            log[last].values = values
            return
        }
        touches[position].loggedFrames += 1
        log.append(HeldFrame(frame: frameNumber, time: time, msc: msc, touch: touches[position].touch,
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
