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
///
/// (a) at the slot's last known position when the frame brings none. A contact's moves are
/// mapped onto the screen it began on: a new screen (`screen.set`) is for contacts that begin
/// afterwards.
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
    /// changing it (`screen.set`, SPEC 9) leaves the contacts that are down on the screen they
    /// began on.
    public var mapping: DeviceMapping

    /// At most this many anomalies are kept between `takeAnomalies()` calls; the count goes on.
    public static let anomalyLimit = 64

    /// The most slots a tracker keeps state for (docs/limits.md). A device or recording may
    /// declare any `ABS_MT_SLOT` maximum (a recording's 2^31 asked for 51 GB, issue 12), so the
    /// count is never allocated as given. 64 is above every panel we know (the FlatFrog 3200
    /// declares 40, most panels 10) and three times the 20 fingers a recognizer follows; the
    /// kernel refuses more than 1,024 (`input_mt_init_slots`), and hid-multitouch, which may
    /// declare up to 250, gives a new contact the lowest free slot
    /// (`input_mt_get_slot_by_key`), so slots beyond 64 only fill with 65 fingers down.
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

    private let slotCount: Int
    private var committed: [SlotValues]
    private var pending: [SlotValues]
    private var dirty: [Bool]
    private var anyDirty = false
    private var phases: [SlotPhase]
    /// The screen each slot's contact began on, which maps it until it ends.
    private var slotScreens: [ScreenGeometry]
    /// The slot `ABS_MT_*` events address; nil after `ABS_MT_SLOT` named a slot out of range.
    /// Slot 0 until the first `ABS_MT_SLOT` (the QUANTA OpticalTouchScreen declares 10 slots
    /// and never sends `ABS_MT_SLOT`).
    private var currentSlot: Int? = 0
    private var stream = StreamState.reading
    /// Events since the last `SYN_REPORT`, to report a frame cut short at the end of input.
    private var eventsInFrame = 0
    private var lastEventTime = Timestamp.zero
    /// The changes of the frame being built; reused so that a frame costs no allocation when
    /// the caller lets go of the previous frame before the next `SYN_REPORT`.
    private var changes: [TouchChange] = []

    /// A tracker for a device in `mode`, mapping positions with `mapping`.
    public init(mode: Mode, mapping: DeviceMapping) {
        self.mode = mode
        self.mapping = mapping
        switch mode {
        case .multitouch(let count): slotCount = min(max(count, 1), Self.maximumSlots)
        case .singleTouch: slotCount = 1
        }
        committed = Array(repeating: SlotValues(), count: slotCount)
        pending = committed
        dirty = Array(repeating: false, count: slotCount)
        phases = Array(repeating: .empty, count: slotCount)
        slotScreens = Array(repeating: mapping.screen, count: slotCount)
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
    public mutating func process(_ event: RawEvent) -> TouchFrame? {
        lastEventTime = event.time
        switch stream {
        case .discardingAfterDrop:
            if event.isFrameEnd {
                stream = .reading
                needsResync = true
            }
            return nil
        case .reading:
            break
        }
        if event.isFrameEnd {
            eventsInFrame = 0
            return commitFrame(at: event.time)
        }
        eventsInFrame += 1
        switch event.type {
        case EventType.syn: processSync(event)
        case EventType.abs: processAbs(event)
        case EventType.key: processKey(event)
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
        for slot in 0..<slotCount {
            switch phases[slot] {
            case .touching(let contact): changes.append(.cancel(contact))
            case .empty, .ignored: break
            }
            phases[slot] = .empty
            committed[slot] = SlotValues()
            pending[slot] = SlotValues()
        }
        currentSlot = 0
        stream = .reading
        needsResync = false
        return changes.isEmpty ? nil : TouchFrame(time: time, changes: changes)
    }

    /// Resynchronises with the device's true state after `SYN_DROPPED` (or at any time):
    /// the caller gives every slot's current values, as libevdev reports them after its
    /// resync.
    ///
    /// The rule (SPEC 6: "touches whose state was lost are cancelled, touches that survive
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
        currentSlot = (0..<slotCount).contains(snapshot.currentSlot) ? snapshot.currentSlot : 0
        changes.removeAll(keepingCapacity: true)
        for slot in 0..<slotCount {
            let truth = slot < snapshot.slots.count ? snapshot.slots[slot] : .empty
            var values = committed[slot]
            values.trackingID = truth.trackingID < 0 ? -1 : truth.trackingID
            if let position = truth.position {
                values.x = position.x
                values.y = position.y
            }
            values.touchMajor = truth.touchMajor ?? values.touchMajor
            values.pressure = truth.pressure ?? values.pressure
            values.toolType = truth.toolType
            pending[slot] = values
            transition(slot: slot, at: time, ending: .cancel)
            committed[slot] = values
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
        phases.compactMap {
            switch $0 {
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

    private mutating func processAbs(_ event: RawEvent) {
        switch mode {
        case .multitouch:
            switch event.code {
            case AbsCode.mtSlot:
                if event.value >= 0 && Int(event.value) < slotCount {
                    currentSlot = Int(event.value)
                } else {
                    report(.slotOutOfRange(time: event.time, slot: event.value, slotCount: slotCount))
                    currentSlot = nil
                }
            case AbsCode.mtTrackingID: updateCurrentSlot { $0.trackingID = event.value < 0 ? -1 : event.value }
            case AbsCode.mtPositionX: updateCurrentSlot { $0.x = event.value }
            case AbsCode.mtPositionY: updateCurrentSlot { $0.y = event.value }
            case AbsCode.mtTouchMajor: updateCurrentSlot { $0.touchMajor = event.value }
            case AbsCode.mtPressure: updateCurrentSlot { $0.pressure = event.value }
            case AbsCode.mtToolType: updateCurrentSlot { $0.toolType = event.value }
            default: break // Legacy ABS_X/Y/PRESSURE emulation, orientation, width: not used.
            }
        case .singleTouch:
            switch event.code {
            case AbsCode.x: updateSlot(0) { $0.x = event.value }
            case AbsCode.y: updateSlot(0) { $0.y = event.value }
            case AbsCode.pressure: updateSlot(0) { $0.pressure = event.value }
            default: break
            }
        }
    }

    private mutating func processKey(_ event: RawEvent) {
        switch mode {
        case .multitouch:
            break // BTN_TOUCH and BTN_TOOL_* only summarise the slots.
        case .singleTouch:
            if event.code == KeyCode.btnTouch {
                updateSlot(0) { $0.trackingID = event.value != 0 ? 0 : -1 }
            }
        }
    }

    private mutating func updateCurrentSlot(_ update: (inout SlotValues) -> Void) {
        // Events for an out-of-range slot were reported when it was selected.
        guard let slot = currentSlot else { return }
        updateSlot(slot, update)
    }

    private mutating func updateSlot(_ slot: Int, _ update: (inout SlotValues) -> Void) {
        update(&pending[slot])
        dirty[slot] = true
        anyDirty = true
    }

    private mutating func discardPendingValues() {
        guard anyDirty else { return }
        for slot in 0..<slotCount where dirty[slot] {
            pending[slot] = committed[slot]
            dirty[slot] = false
        }
        anyDirty = false
    }

    // MARK: - Frames

    private mutating func commitFrame(at time: Timestamp) -> TouchFrame? {
        guard anyDirty else { return nil }
        changes.removeAll(keepingCapacity: true)
        for slot in 0..<slotCount where dirty[slot] {
            transition(slot: slot, at: time, ending: .up)
            committed[slot] = pending[slot]
            dirty[slot] = false
        }
        anyDirty = false
        return changes.isEmpty ? nil : TouchFrame(time: time, changes: changes)
    }

    /// Moves one slot from its committed values to its pending ones (the table in the type's
    /// doc), appending the changes.
    private mutating func transition(slot: Int, at time: Timestamp, ending: Ending) {
        let old = committed[slot]
        let new = pending[slot]
        switch phases[slot] {
        case .empty:
            if new.trackingID >= 0 {
                begin(slot: slot, at: time)
            } else if new.x != old.x || new.y != old.y {
                report(.valuesWithoutContact(time: time, slot: slot))
            }
        case .touching(let contact):
            if new.trackingID != old.trackingID {
                switch ending {
                case .up: changes.append(.up(contact))
                case .cancel: changes.append(.cancel(contact))
                }
                phases[slot] = .empty
                if new.trackingID >= 0 {
                    begin(slot: slot, at: time)
                }
            } else if new.toolType == ToolType.palm {
                changes.append(.cancel(contact))
                phases[slot] = .ignored(trackingID: new.trackingID)
            } else if new.x != old.x || new.y != old.y || new.touchMajor != old.touchMajor
                        || new.pressure != old.pressure {
                let screen = slotScreens[slot]
                changes.append(.move(contact, mapping.point(DevicePosition(x: new.x, y: new.y), on: screen),
                                     majorRadius: mapping.majorRadius(new.touchMajor, on: screen),
                                     force: mapping.force(new.pressure)))
            }
        case .ignored(let trackingID):
            if new.trackingID != trackingID {
                phases[slot] = .empty
                if new.trackingID >= 0 {
                    begin(slot: slot, at: time)
                }
            }
        }
    }

    /// Starts the contact now in `slot`'s pending values (its phase is `.empty`), at the slot's
    /// last known position when the frame brought none.
    private mutating func begin(slot: Int, at time: Timestamp) {
        let values = pending[slot]
        let contact: ContactID
        switch mode {
        case .multitouch: contact = ContactID(Int(values.trackingID))
        case .singleTouch: contact = ContactID(0)
        }
        if values.toolType == ToolType.palm {
            phases[slot] = .ignored(trackingID: values.trackingID)
            return
        }
        if let otherSlot = phases.firstIndex(of: .touching(contact)) {
            report(.duplicateTrackingID(time: time, slot: slot, trackingID: values.trackingID, otherSlot: otherSlot))
            phases[slot] = .ignored(trackingID: values.trackingID)
            return
        }
        changes.append(.down(contact, mapping.point(DevicePosition(x: values.x, y: values.y)),
                             majorRadius: mapping.majorRadius(values.touchMajor),
                             force: mapping.force(values.pressure)))
        phases[slot] = .touching(contact)
        slotScreens[slot] = mapping.screen
    }

    private mutating func report(_ anomaly: InputAnomaly) {
        anomalyCount += 1
        if anomalies.count < Self.anomalyLimit {
            anomalies.append(anomaly)
        }
    }
}
