/// Where the routing stage (``PanelRouter``) reads the panel's per-slot values: every
/// `ABS_MT_*` code of a slot, as the frame being committed left it.
///
/// Two sources, one per kind of panel stream (docs/routing.md, "The copy's stream"):
/// - the ``ContactTracker`` itself, for a panel whose events the tracker reads as they are
///   (nearly all) or as its protocol A converter turns them: the tracker keeps the values it
///   reads and, once routing starts, the other per-slot codes too, so routing adds nothing to
///   the path of a raw event (a claimed touch costs no more than without routing);
/// - an ``ObservedPanel``, for a panel whose `device.axes` rewrite its events before the
///   tracker reads them: the copy must carry the panel's events as read, so the stage keeps
///   its own table of them.
protocol PanelSlotSource {
    /// The values of slot `slot` (below the router's slot count) for the frame being committed.
    mutating func panelValues(slot: Int) -> SlotCodes
}

/// The panel's events as read, for a panel whose events are rewritten before the tracker
/// reads them (``PanelSlotSource``): every per-slot value, kept per slot as the frame being
/// read has it (*pending*) and as the last `SYN_REPORT` left it (*committed*), and the frame's
/// `MSC_TIMESTAMP`.
struct ObservedPanel: PanelSlotSource {
    private static let firstCode = SlotCodes.firstCode
    private static let codeCount = SlotCodes.count
    private static let trackingOffset = SlotCodes.trackingOffset
    private static let toolOffset = SlotCodes.toolOffset

    let slotCount: Int
    private var slots = PanelSlotTable()
    /// The slot `ABS_MT_*` values go to; ``PanelSlotTable/scratch`` after `ABS_MT_SLOT` named
    /// a slot out of range. Set only with `currentBit`, so value events write it unchecked.
    private var currentSlot = 0
    /// `currentSlot`'s bit in `dirty`; 0 for the scratch slot, which is never committed.
    private var currentBit: UInt64 = 1
    /// The slots whose pending values may differ from their committed ones (bit `slot`).
    private var dirty: UInt64 = 0
    /// The `MSC_TIMESTAMP` of the frame being read.
    private(set) var msc: Int32?
    /// Not discarding after `SYN_DROPPED`.
    private var readsSlots = true

    init(slotCount: Int) {
        self.slotCount = slotCount
    }

    /// One raw event of the panel, as read.
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
            if event.code == MscCode.timestamp { msc = event.value }
        case EventType.syn:
            if event.code == SynCode.dropped {
                settle(committing: false)
                msc = nil
                readsSlots = false
            }
        default:
            // Keys are recomputed for the copy.
            break
        }
    }

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

    /// The values the frame being read gives slot `slot`.
    mutating func panelValues(slot: Int) -> SlotCodes {
        slots.update(slot) { $0.pending }
    }

    /// After `SYN_DROPPED` on a live panel: the slots as the device has them now (nil: every
    /// contact lost), to be committed with the next frame.
    mutating func resynchronise(with snapshot: DeviceSnapshot?) {
        settle(committing: false)
        dirty = slotCount >= 64 ? ~0 : (1 &<< UInt64(slotCount)) &- 1
        msc = nil
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
    }

    /// The frame is committed: its values become the committed ones, its timestamp is spent.
    mutating func commit() {
        settle(committing: true)
        msc = nil
    }

    /// The changed slots' values, 64 bytes each: committed (`committing`), or put back to the
    /// last committed ones; then no slot is changed.
    @inline(__always)
    private mutating func settle(committing: Bool) {
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
}
