/// Turns a device's raw events into touch frames: it keeps the state of every slot, and at each
/// `SYN_REPORT` reports which contacts went down, moved, lifted or were cancelled.
///
/// Drive it with one raw event at a time:
///
/// ```swift
/// var tracker = ContactTracker(description: description, mapping: mapping)
/// for event in events {
///     if let frame = tracker.process(event) { engine.process(frame) }
///     if tracker.needsResync { /* give tracker.reconcile(with: snapshot, at: time) the device state */ }
/// }
/// if let last = tracker.finish(at: endTime) { engine.process(last) }   // end of input, device removed
/// for anomaly in tracker.takeAnomalies() { logger.warning(...) }
/// ```
///
/// Events between two `SYN_REPORT`s only change pending slot values; the frame is computed from
/// pending against committed values when the `SYN_REPORT` arrives, so the order of events
/// inside a frame does not matter and a frame cut short (end of input, `SYN_DROPPED`) is never
/// half-applied. A frame's changes are in slot order (for each slot: the ending, then the
/// beginning or move).
///
/// Contacts are named by their tracking id (`ContactID(trackingID)`), or 0 on a single-touch
/// device. Multitouch devices ignore the legacy `ABS_X/ABS_Y/BTN_TOUCH` they also send.
///
/// Each slot's phase, and what a committed frame does to it (`id` is the slot's tracking id
/// after the frame; "new" means different from the tracking id the phase holds):
///
/// | phase                  | frame brings                 | changes            | next phase                 |
/// |------------------------|------------------------------|--------------------|----------------------------|
/// | empty                  | id ≥ 0, finger               | down (a)           | touching                   |
/// | empty                  | id ≥ 0, palm                 | —                  | ignored                    |
/// | empty                  | id ≥ 0 another slot has      | (anomaly)          | ignored                    |
/// | empty                  | position, id -1              | (anomaly)          | empty                      |
/// | touching               | same id, values changed      | move               | touching                   |
/// | touching               | same id, tool becomes palm   | cancel             | ignored                    |
/// | touching               | id -1                        | up                 | empty                      |
/// | touching               | new id ≥ 0 (no -1 between)   | up, then as empty  | as from empty              |
/// | ignored                | new id                       | as from empty      | as from empty              |
/// | any                    | an id ≥ 0 set, then -1 (b)   | (its ending), down, up | empty                  |
///
/// (a) at the slot's last known position when the frame brings none. A contact's moves are
/// mapped onto the screen it began on: a new screen (`screen.set`) is for contacts that begin
/// afterwards.
///
/// (b) a finger that touched and lifted between two `SYN_REPORT`s (a fast tap on a panel that
/// reports at a low rate): a new tracking id was written in the frame and the frame ends with
/// -1, so only the -1 is left to compare. It goes down and up in the same frame, so that a tap
/// can recognize (docs/decisions.md § A contact down and up in one frame); palms and
/// duplicate ids are ignored as for any contact.
///
/// `reconcile(with:at:)` applies the same table with `cancel` instead of `up`; `finish(at:)`
/// cancels every touching slot and empties them all.
public struct ContactTracker: Sendable {
    /// How the device reports contacts.
    public enum Mode: Hashable, Sendable {
        /// Multitouch protocol B: `ABS_MT_SLOT` selects one of `slotCount` slots and
        /// `ABS_MT_TRACKING_ID` starts (≥ 0) or ends (-1) the contact in it. Devices that
        /// never send `ABS_MT_SLOT` use slot 0 only. At most ``maximumSlots`` are tracked.
        case multitouch(slotCount: Int)
        /// `BTN_TOUCH` + `ABS_X/ABS_Y`: one contact, `ContactID(0)`.
        case singleTouch
    }

    /// The values the kernel last reported for a slot. The kernel only sends values that
    /// changed, so they persist from one contact in a slot to the next, and they start at the
    /// kernel's own initial values: `input_mt_init_slots` allocates zeroed slots. That is why
    /// the eGalax recording's first finger, landing on the top edge (hidrec-egalax-7224.2f.evemu
    /// lines 89–93), sends `ABS_MT_POSITION_X` but no `ABS_MT_POSITION_Y`: y was already 0.
    struct SlotValues: Hashable, Sendable {
        var trackingID: Int32 = -1
        var x: Int32 = 0
        var y: Int32 = 0
        var touchMajor: Int32 = 0
        var pressure: Int32 = 0
        var toolType: Int32 = ToolType.finger
    }

    /// Where a slot's contact is in its life (see the table above).
    enum SlotPhase: Hashable, Sendable {
        case empty
        case touching(ContactID)
        /// A palm, or a duplicate tracking id: nothing in the slot is a touch until its
        /// tracking id changes.
        case ignored(trackingID: Int32)
    }

    /// Whether events are applied or discarded.
    enum StreamState: Hashable, Sendable {
        case reading
        /// After `SYN_DROPPED`, up to and including the next `SYN_REPORT` (kernel
        /// Documentation/input/event-codes.rst: "all events after [SYN_DROPPED] up to and
        /// including the next SYN_REPORT should be discarded").
        case discardingAfterDrop
    }

    /// How a contact whose tracking id changed ends: lifted in a normal frame, cancelled when
    /// the change was only learnt from a resync (the finger's real last moments were lost).
    enum Ending {
        case up
        case cancel
    }

    public let mode: Mode
    /// How device values become points. Its screen is the one contacts that begin get;
    /// changing it (`screen.set`, docs/protocol.md, "The screen") leaves the contacts that are down on the
    /// screen they began on.
    public var mapping: DeviceMapping {
        didSet { mappingChanged() }
    }

    /// At most this many anomalies are kept between `takeAnomalies()` calls; the count goes on.
    public static let anomalyLimit = 64

    /// The most slots a tracker keeps state for (docs/limits.md). A device or recording may
    /// declare any `ABS_MT_SLOT` maximum (a recording's 2^31 asked for 51 GB, issue 12), so the
    /// count is never allocated as given. 64 is above every panel we know (the FlatFrog 3200
    /// declares 40, most panels 10) and three times the 20 fingers a recognizer follows; the
    /// kernel refuses more than 1,024 (`input_mt_init_slots`), and hid-multitouch, which may
    /// declare up to 250, gives a new contact the lowest free slot
    /// (`input_mt_get_slot_by_key`), so slots beyond 64 only fill with 65 fingers down.
    /// It is also the width of the tracker's set of changed slots, one `UInt64`.
    public static let maximumSlots = 64

    /// What to say about a device that declares `declared` slots, more than ``maximumSlots``
    /// (the caller puts the device or the file and line in front).
    public static func slotLimitMessage(declared: Int) -> String {
        "declares \(declared) contact slots (ABS_MT_SLOT up to \(declared - 1)); gestured tracks the first "
            + "\(maximumSlots), so contacts in the slots above are ignored"
    }

    /// Every anomaly since the tracker was made, including those no longer kept.
    public private(set) var anomalyCount = 0
    /// Anomalies not yet taken, oldest first, at most `anomalyLimit`.
    public private(set) var anomalies: [InputAnomaly] = []
    /// True after `SYN_DROPPED` and its `SYN_REPORT` until `reconcile(with:at:)` or
    /// `finish(at:)`. Without a reconcile (a recording cannot give one) the tracker goes on
    /// applying events to the state it had before the drop.
    public private(set) var needsResync = false

    /// One slot's whole state, in one place: an event writes one field of one slot, and a
    /// frame reads and commits each slot it changed in one go.
    struct Slot: Sendable {
        var pending = SlotValues()
        var committed = SlotValues()
        var phase = SlotPhase.empty
        /// Whether the contact's screen (`slotScreens`) is the mapping's screen, which `mapper`
        /// maps onto: false only for a contact that began before a screen change.
        var onCurrentScreen = true
        /// The last tracking id ≥ 0 written since the last commit; valid while the slot's bit
        /// is in ``ContactTracker/started`` (row (b) of the table).
        var startedInFrame: Int32 = -1
    }

    private let slotCount: Int
    private let multitouch: Bool
    /// Slots 0 ..< `slotCount` are used; the rest stay as they were made.
    private var slots = SlotTable()
    /// The slots whose pending values may differ from their committed ones, one bit per slot
    /// (``maximumSlots`` is 64): a frame visits only those, in slot order, and a frame that
    /// changed nothing costs one comparison.
    private var dirty: UInt64 = 0
    /// The slots to which a tracking id ≥ 0 was written since the last commit (a contact
    /// starting): a subset of `dirty`, read only for slots that begin or end a contact.
    private var started: UInt64 = 0
    /// The screen each slot's contact began on, which maps it until it ends.
    private var slotScreens: [ScreenGeometry]
    /// `mapping` onto its own screen, worked out once: it maps every contact that began on the
    /// current screen (nearly always all of them).
    private var mapper: ContactMapper
    /// The slot `ABS_MT_*` events address; `SlotTable.scratch` after `ABS_MT_SLOT` named a
    /// slot out of range (its values are never committed). Slot 0 until the first
    /// `ABS_MT_SLOT` (the QUANTA OpticalTouchScreen declares 10 slots and never sends
    /// `ABS_MT_SLOT`). Set only by `select(slot:)` (below `slotCount`) and `selectOutOfRange`,
    /// so value events write it unchecked.
    private var currentSlot = 0
    /// `currentSlot`'s bit in `dirty`; 0 for the scratch slot, so that it is never committed.
    private var currentBit: UInt64 = 1
    private var stream = StreamState.reading {
        didSet { readsSlots = multitouch && stream == .reading }
    }
    /// A multitouch device while reading: its `EV_ABS` events write slot values (the one test
    /// on the path of nearly every event).
    private var readsSlots: Bool
    /// Events since the last `SYN_REPORT`, to report a frame cut short at the end of input.
    private var eventsInFrame = 0
    private var lastEventTime = Timestamp.zero
    /// The changes of the frame being built; reused so that a frame costs no allocation when
    /// the caller lets go of the previous frame before the next `SYN_REPORT`.
    private var changes: [TouchChange] = []

    // For the routing stage (``keepPanelValues()``): the per-slot codes the tracker itself does
    // not use, pending and committed like its own values (`ContactTracker.maximumSlots` + 1
    // entries, the last for the scratch slot; empty until routing starts), and the frame's
    // `MSC_TIMESTAMP`. They are written off the path of the common events only.
    private var keepsPanelValues = false
    private var otherPending: [SlotCodes] = []
    private var otherCommitted: [SlotCodes] = []
    private var otherDirty: UInt64 = 0
    /// The `MSC_TIMESTAMP` of the frame being read or just committed; nil without one (and
    /// always nil until ``keepPanelValues()``).
    var frameMsc: Int32?

    /// A tracker for a device in `mode`, mapping positions with `mapping`.
    public init(mode: Mode, mapping: DeviceMapping) {
        self.mode = mode
        self.mapping = mapping
        switch mode {
        case .multitouch(let count):
            slotCount = min(max(count, 1), Self.maximumSlots)
            multitouch = true
            readsSlots = true
        case .singleTouch:
            slotCount = 1
            multitouch = false
            readsSlots = false
        }
        assert(Self.maximumSlots <= SlotTable.capacity)
        slotScreens = Array(repeating: mapping.screen, count: slotCount)
        mapper = ContactMapper(mapping, screen: mapping.screen)
        changes.reserveCapacity(slotCount * 2)
    }

    /// A tracker for the device `description` describes: multitouch with its declared slots
    /// (one when it declares no `ABS_MT_SLOT`), or single-touch when it only has `ABS_X/ABS_Y`.
    /// A protocol A device must be converted first (`ProtocolAConverter`, which also gives the
    /// converted description).
    public init(description: DeviceDescription, mapping: DeviceMapping) {
        let mode: Mode = description.reportsMultitouchPositions
            ? .multitouch(slotCount: description.slotCount ?? 1)
            : .singleTouch
        self.init(mode: mode, mapping: mapping)
    }

    // MARK: - Feeding events

    /// Applies one raw event; returns the frame it completes (at the `SYN_REPORT`'s time), or
    /// nil when it completes none or the frame changed no contact.
    ///
    /// The returned frame shares its change buffer with the tracker until the next frame.
    ///
    /// This runs for every event a device sends (a 10-finger frame is 30-odd events), so
    /// `EV_ABS`, nearly all of them, is tested first and only writes one pending value.
    @inline(__always)
    public mutating func process(_ event: RawEvent) -> TouchFrame? {
        lastEventTime = event.time
        if event.type == EventType.abs && readsSlots {
            eventsInFrame &+= 1 // Cannot overflow: an Int counts 2^63 events.
            processSlotAbs(event)
            return nil
        }
        return processOther(event)
    }

    /// ``process(_:)`` for every event but a multitouch device's `EV_ABS` while reading.
    private mutating func processOther(_ event: RawEvent) -> TouchFrame? {
        if stream == .discardingAfterDrop {
            if event.isFrameEnd {
                stream = .reading
                needsResync = true
            }
            return nil
        }
        if event.isFrameEnd {
            eventsInFrame = 0
            if otherDirty != 0 { settleOtherValues(committing: true) }
            return commitFrame(at: event.time)
        }
        eventsInFrame += 1
        switch event.type {
        case EventType.abs: processSingleTouchAbs(event)
        case EventType.syn: processSync(event)
        case EventType.key: processKey(event)
        case EventType.msc where keepsPanelValues:
            if event.code == MscCode.timestamp { frameMsc = event.value }
        default: break // EV_MSC (timestamps, scan codes) and the rest say nothing about contacts.
        }
        return nil
    }

    /// Ends the input: cancels every contact still down and forgets all slot state (a
    /// recording that ends with fingers down or mid-frame, a device that was removed). Events
    /// after the last `SYN_REPORT` are discarded, never half-applied. Returns nil when no
    /// contact was down.
    public mutating func finish(at time: Timestamp) -> TouchFrame? {
        if eventsInFrame > 0 {
            report(.partialFrameDiscarded(time: lastEventTime, events: eventsInFrame))
        }
        discardPendingValues()
        changes.removeAll(keepingCapacity: true)
        if keepsPanelValues {
            for slot in 0..<slotCount {
                otherPending[slot] = SlotCodes()
                otherCommitted[slot] = SlotCodes()
            }
        }
        for slot in 0..<slotCount {
            let phase = slots.update(slot) { slot in
                defer { slot = Slot() }
                return slot.phase
            }
            switch phase {
            case .touching(let contact): changes.append(.cancel(contact))
            case .empty, .ignored: break
            }
        }
        select(slot: 0)
        stream = .reading
        needsResync = false
        return changes.isEmpty ? nil : TouchFrame(time: time, changes: changes)
    }

    /// Resynchronises with the device's true state after `SYN_DROPPED` (or at any time):
    /// the caller gives every slot's current values, as libevdev reports them after its
    /// resync.
    ///
    /// The rule (docs/input.md, "Devices": "touches whose state was lost are cancelled, touches that survive
    /// continue"): a contact whose slot still has the same tracking id survives and moves to
    /// the snapshot's position (a `move` when anything changed); a contact whose slot now has
    /// another tracking id, or none, is cancelled, because its lift or its last moves were
    /// lost; a tracking id that is new in the snapshot is a finger on the glass now, and goes
    /// down at the snapshot's position. Palms are cancelled as in a normal frame. Pending
    /// events are discarded. Returns nil when nothing changed.
    public mutating func reconcile(with snapshot: DeviceSnapshot, at time: Timestamp) -> TouchFrame? {
        discardPendingValues()
        stream = .reading
        needsResync = false
        eventsInFrame = 0
        select(slot: (0..<slotCount).contains(snapshot.currentSlot) ? snapshot.currentSlot : 0)
        changes.removeAll(keepingCapacity: true)
        for slot in 0..<slotCount {
            let truth = slot < snapshot.slots.count ? snapshot.slots[slot] : .empty
            var values = slots.update(slot) { $0.committed }
            values.trackingID = truth.trackingID < 0 ? -1 : truth.trackingID
            if let position = truth.position {
                values.x = position.x
                values.y = position.y
            }
            values.touchMajor = truth.touchMajor ?? values.touchMajor
            values.pressure = truth.pressure ?? values.pressure
            values.toolType = truth.toolType
            slots.update(slot) { $0.pending = values }
            transition(slot: slot, at: time, ending: .cancel)
        }
        return changes.isEmpty ? nil : TouchFrame(time: time, changes: changes)
    }

    /// Returns the anomalies not yet taken and forgets them.
    public mutating func takeAnomalies() -> [InputAnomaly] {
        defer { anomalies = [] }
        return anomalies
    }

    /// The contacts down now, in slot order.
    public var activeContacts: [ContactID] {
        var table = slots
        return (0..<slotCount).compactMap { slot in
            switch table.update(slot, { $0.phase }) {
            case .touching(let contact): contact
            case .empty, .ignored: nil
            }
        }
    }

    // MARK: - Events within a frame

    private mutating func processSync(_ event: RawEvent) {
        switch event.code {
        case SynCode.dropped:
            discardPendingValues()
            eventsInFrame = 0
            stream = .discardingAfterDrop
        case SynCode.mtReport:
            report(.protocolAEvent(time: event.time))
        default:
            break // SYN_CONFIG: nothing to do.
        }
    }

    /// The codes tested one after the other, the commonest first: a move is a position or two
    /// and, with several fingers, a slot (a `switch` of all the codes is a jump table, dearer
    /// than one or two comparisons).
    @inline(__always)
    private mutating func processSlotAbs(_ event: RawEvent) {
        let value = event.value
        let code = event.code
        if code == AbsCode.mtPositionX {
            updateCurrentSlot { $0.x = value }
        } else if code == AbsCode.mtPositionY {
            updateCurrentSlot { $0.y = value }
        } else if code == AbsCode.mtSlot {
            selectSlot(event)
        } else {
            processContactAbs(event)
        }
    }

    private mutating func processSingleTouchAbs(_ event: RawEvent) {
        let value = event.value
        switch event.code {
        case AbsCode.x: updateSlot(0) { $0.x = value }
        case AbsCode.y: updateSlot(0) { $0.y = value }
        case AbsCode.pressure: updateSlot(0) { $0.pressure = value }
        default: break
        }
    }

    /// The multitouch values other than positions and slots.
    @inline(never)
    private mutating func processContactAbs(_ event: RawEvent) {
        let value = event.value
        switch event.code {
        case AbsCode.mtTrackingID:
            updateCurrentSlot { $0.trackingID = value < 0 ? -1 : value }
            if value >= 0 {
                slots.updateUnchecked(currentSlot) { $0.startedInFrame = value }
                started |= currentBit
            }
        case AbsCode.mtTouchMajor: updateCurrentSlot { $0.touchMajor = value }
        case AbsCode.mtPressure: updateCurrentSlot { $0.pressure = value }
        case AbsCode.mtToolType: updateCurrentSlot { $0.toolType = value }
        default:
            // Legacy ABS_X/Y/PRESSURE emulation, orientation, width: not used, but kept for
            // the routing stage when it reads the panel's values here.
            // (ABS_X/Y/PRESSURE come every frame: tested here, not in a call.)
            if keepsPanelValues && event.code >= SlotCodes.firstCode { keepOtherValue(event) }
        }
    }

    @inline(__always)
    private mutating func selectSlot(_ event: RawEvent) {
        if UInt(bitPattern: Int(event.value)) < UInt(bitPattern: slotCount) {
            select(slot: Int(event.value))
        } else {
            selectOutOfRange(event)
        }
    }

    @inline(never)
    private mutating func selectOutOfRange(_ event: RawEvent) {
        report(.slotOutOfRange(time: event.time, slot: event.value, slotCount: slotCount))
        currentSlot = SlotTable.scratch
        currentBit = 0
    }

    /// Makes `slot` (0 ..< `slotCount`) the one `ABS_MT_*` events address.
    @inline(__always)
    private mutating func select(slot: Int) {
        currentSlot = slot
        currentBit = 1 &<< UInt64(truncatingIfNeeded: slot)
    }

    private mutating func processKey(_ event: RawEvent) {
        // Multitouch: BTN_TOUCH and BTN_TOOL_* only summarise the slots.
        if !multitouch && event.code == KeyCode.btnTouch {
            updateSlot(0) { $0.trackingID = event.value != 0 ? 0 : -1 }
            if event.value != 0 {
                slots.update(0) { $0.startedInFrame = 0 }
                started |= 1
            }
        }
    }

    /// Events for an out-of-range slot were reported when it was selected; they go to the
    /// scratch slot, whose bit is 0.
    @inline(__always)
    private mutating func updateCurrentSlot(_ update: (inout SlotValues) -> Void) {
        slots.updateUnchecked(currentSlot) { update(&$0.pending) }
        dirty |= currentBit
    }

    @inline(__always)
    private mutating func updateSlot(_ slot: Int, _ update: (inout SlotValues) -> Void) {
        slots.update(slot) { update(&$0.pending) }
        dirty |= 1 &<< UInt64(truncatingIfNeeded: slot)
    }

    private mutating func discardPendingValues() {
        frameMsc = nil
        if otherDirty != 0 { settleOtherValues(committing: false) }
        var remaining = dirty
        dirty = 0
        started = 0
        while remaining != 0 {
            let slot = remaining.trailingZeroBitCount
            remaining &= remaining &- 1
            slots.update(slot) { $0.pending = $0.committed }
        }
    }

    // MARK: - Frames

    /// Commits the frame's changed slots in slot order: first as many as keep their contact
    /// (``commitMoves(of:)``), which is all of them in nearly every frame, then the rest
    /// through the whole table of the type's doc.
    @inline(__always)
    private mutating func commitFrame(at time: Timestamp) -> TouchFrame? {
        guard dirty != 0 else { return nil }
        let remaining = commitMoves(of: dirty)
        dirty = 0
        if remaining != 0 {
            commitTransitions(of: remaining, at: time)
        }
        started = 0
        return changes.isEmpty ? nil : TouchFrame(time: time, changes: changes)
    }

    /// Commits the changed slots `frameSlots`, lowest first, for as long as each keeps its
    /// contact (same tracking id, not a palm, on the current screen): the frame's changes
    /// become their moves. Returns the slots left, from the first one that does not.
    ///
    /// The moves are written into the reused change buffer in place, sized once to one per
    /// changed slot and trimmed afterwards, and the slots are read through one pointer:
    /// emptying the buffer and appending each move with its own uniqueness and capacity checks
    /// cost more than the rest of the frame.
    @inline(__always)
    private mutating func commitMoves(of frameSlots: UInt64) -> UInt64 {
        let capacity = frameSlots.nonzeroBitCount
        if changes.count != capacity {
            changes.removeAll(keepingCapacity: true)
            changes.append(contentsOf: repeatElement(TouchChange.cancel(ContactID(0)), count: capacity))
        }
        let mapper = self.mapper
        let (count, remaining) = slots.withSlots { table in
            changes.withUnsafeMutableBufferPointer { out in
                var count = 0
                var remaining = frameSlots
                while remaining != 0 {
                    let slot = remaining.trailingZeroBitCount
                    let new = table[slot].pending
                    let old = table[slot].committed
                    guard case .touching(let contact) = table[slot].phase, table[slot].onCurrentScreen,
                          new.trackingID == old.trackingID, new.toolType != ToolType.palm else {
                        break
                    }
                    if new.x != old.x || new.y != old.y || new.touchMajor != old.touchMajor
                        || new.pressure != old.pressure {
                        out[count] = mapper.move(contact, new)
                        count &+= 1 // At most 64.
                    }
                    table[slot].committed = table[slot].pending
                    remaining &= remaining &- 1
                }
                return (count, remaining)
            }
        }
        if count < capacity {
            changes.removeLast(capacity - count)
        }
        return remaining
    }

    /// Commits the changed slots `frameSlots` one by one through the whole table (contacts
    /// that begin or end), appending to the frame's changes.
    @inline(never)
    private mutating func commitTransitions(of frameSlots: UInt64, at time: Timestamp) {
        var remaining = frameSlots
        // Lowest bit first: slot order.
        while remaining != 0 {
            let slot = remaining.trailingZeroBitCount
            remaining &= remaining &- 1
            transition(slot: slot, at: time, ending: .up)
        }
    }

    /// Moves one slot from its committed values to its pending ones (the table in the type's
    /// doc), appending the changes; the pending values become the committed ones.
    ///
    /// A contact that stays and moves is tested first: after ``commitMoves(of:)`` it is still
    /// the commonest case (the slots after one whose contact begins or ends); the rest of the
    /// table is out of line.
    @inline(__always)
    private mutating func transition(slot: Int, at time: Timestamp, ending: Ending) {
        let (old, new, phase, onCurrentScreen) = slots.update(slot) { slot in
            let old = slot.committed
            slot.committed = slot.pending
            return (old, slot.pending, slot.phase, slot.onCurrentScreen)
        }
        if case .touching(let contact) = phase, new.trackingID == old.trackingID, new.toolType != ToolType.palm {
            if new.x != old.x || new.y != old.y || new.touchMajor != old.touchMajor || new.pressure != old.pressure {
                if onCurrentScreen {
                    changes.append(mapper.move(contact, new))
                } else {
                    changes.append(ContactMapper(mapping, screen: slotScreens[slot]).move(contact, new))
                }
            }
            return
        }
        transitionOtherwise(slot: slot, old: old, new: new, phase: phase, at: time, ending: ending)
    }

    /// ``transition(slot:at:ending:)`` for everything but a contact that stays and moves (or not).
    private mutating func transitionOtherwise(slot: Int, old: SlotValues, new: SlotValues, phase: SlotPhase,
                                              at time: Timestamp, ending: Ending) {
        switch phase {
        case .empty:
            if new.trackingID >= 0 {
                begin(slot: slot, at: time)
            } else if let id = startedInFrame(slot) {
                flash(slot: slot, trackingID: id, at: time)
            } else if new.x != old.x || new.y != old.y {
                report(.valuesWithoutContact(time: time, slot: slot))
            }
        case .touching(let contact):
            if new.trackingID != old.trackingID {
                switch ending {
                case .up: changes.append(.up(contact))
                case .cancel: changes.append(.cancel(contact))
                }
                slots.update(slot) { $0.phase = .empty }
                if new.trackingID >= 0 {
                    begin(slot: slot, at: time)
                } else if let id = startedInFrame(slot), id != old.trackingID {
                    flash(slot: slot, trackingID: id, at: time)
                }
            } else {
                // The same contact, now a palm (the fast path took every other case).
                changes.append(.cancel(contact))
                slots.update(slot) { $0.phase = .ignored(trackingID: new.trackingID) }
            }
        case .ignored(let trackingID):
            if new.trackingID != trackingID {
                slots.update(slot) { $0.phase = .empty }
                if new.trackingID >= 0 {
                    begin(slot: slot, at: time)
                } else if let id = startedInFrame(slot), id != trackingID {
                    flash(slot: slot, trackingID: id, at: time)
                }
            }
        }
    }

    /// The tracking id that started a contact in `slot` during the frame being committed, if
    /// one did (row (b) of the table).
    private mutating func startedInFrame(_ slot: Int) -> Int32? {
        guard started & (1 &<< UInt64(truncatingIfNeeded: slot)) != 0 else { return nil }
        return slots.update(slot) { $0.startedInFrame }
    }

    /// A contact with tracking id `trackingID` touched and lifted within the frame (row (b)):
    /// it goes down where the frame left the slot, and up, and the slot is empty again.
    private mutating func flash(slot: Int, trackingID: Int32, at time: Timestamp) {
        begin(slot: slot, at: time, trackingID: trackingID)
        if case .touching(let contact) = slots.update(slot, { $0.phase }) { changes.append(.up(contact)) }
        slots.update(slot) { $0.phase = .empty }
    }

    /// Starts the contact now in `slot`'s pending values (its phase is `.empty`), at the slot's
    /// last known position when the frame brought none.
    /// `trackingID`, when given, replaces the pending one (a contact that already lifted).
    private mutating func begin(slot: Int, at time: Timestamp, trackingID: Int32? = nil) {
        var values = slots.update(slot) { $0.pending }
        if let trackingID { values.trackingID = trackingID }
        let contact = multitouch ? ContactID(Int(values.trackingID)) : ContactID(0)
        if values.toolType == ToolType.palm {
            slots.update(slot) { $0.phase = .ignored(trackingID: values.trackingID) }
            return
        }
        let slotCount = slotCount
        let touching = SlotPhase.touching(contact)
        if let otherSlot = slots.withSlots({ $0[..<slotCount].firstIndex { $0.phase == touching } }) {
            report(.duplicateTrackingID(time: time, slot: slot, trackingID: values.trackingID, otherSlot: otherSlot))
            slots.update(slot) { $0.phase = .ignored(trackingID: values.trackingID) }
            return
        }
        changes.append(mapper.down(contact, values))
        slots.update(slot) {
            $0.phase = touching
            $0.onCurrentScreen = true
        }
        slotScreens[slot] = mapping.screen
    }

    /// The mapping changed (a new screen, `screen.set`): contacts that begin from now on are
    /// mapped onto its screen; those down on another screen keep theirs.
    private mutating func mappingChanged() {
        mapper = ContactMapper(mapping, screen: mapping.screen)
        for slot in 0..<slotCount {
            let current = slotScreens[slot] == mapping.screen
            slots.update(slot) { $0.onCurrentScreen = current }
        }
    }

    @inline(never)
    private mutating func report(_ anomaly: InputAnomaly) {
        anomalyCount += 1
        if anomalies.count < Self.anomalyLimit {
            anomalies.append(anomaly)
        }
    }
}

// MARK: - The routing stage's source

extension ContactTracker: PanelSlotSource {
    /// From now on the tracker also keeps the per-slot codes it does not use itself and each
    /// frame's `MSC_TIMESTAMP`, so that the routing stage reads every value of the panel here
    /// (``panelValues(slot:)``) instead of reading each raw event a second time.
    mutating func keepPanelValues() {
        guard !keepsPanelValues else { return }
        keepsPanelValues = true
        otherPending = Array(repeating: SlotCodes(), count: SlotTable.capacity + 1)
        otherCommitted = otherPending
    }

    /// A per-slot code the tracker does not use: kept pending for its slot (the scratch slot's
    /// bit is 0, so it is never committed).
    @inline(never)
    private mutating func keepOtherValue(_ event: RawEvent) {
        let offset = Int(event.code &- SlotCodes.firstCode)
        guard offset < SlotCodes.count else { return }
        otherPending[currentSlot][offset] = event.value
        otherDirty |= currentBit
    }

    /// The other values of the slots they changed in: committed (`committing`, the frame
    /// ended), or put back to the last committed ones (the frame was discarded).
    @inline(never)
    private mutating func settleOtherValues(committing: Bool) {
        var changed = otherDirty
        otherDirty = 0
        while changed != 0 {
            let slot = changed.trailingZeroBitCount
            changed &= changed &- 1
            if committing {
                otherCommitted[slot] = otherPending[slot]
            } else {
                otherPending[slot] = otherCommitted[slot]
            }
        }
    }

    /// Every per-slot value of `slot` as the last committed frame left it (the codes the
    /// tracker uses from its own values, the others from those it keeps for routing).
    mutating func panelValues(slot: Int) -> SlotCodes {
        var codes = slot < otherCommitted.count ? otherCommitted[slot] : SlotCodes()
        let values = slots.update(slot) { $0.committed }
        codes[SlotCodes.trackingOffset] = values.trackingID
        codes[Int(AbsCode.mtPositionX - SlotCodes.firstCode)] = values.x
        codes[Int(AbsCode.mtPositionY - SlotCodes.firstCode)] = values.y
        codes[Int(AbsCode.mtTouchMajor - SlotCodes.firstCode)] = values.touchMajor
        codes[Int(AbsCode.mtPressure - SlotCodes.firstCode)] = values.pressure
        codes[SlotCodes.toolOffset] = values.toolType
        return codes
    }
}
