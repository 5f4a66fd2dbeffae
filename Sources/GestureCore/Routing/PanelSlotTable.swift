/// The panel's per-slot values as ``ObservedPanel`` keeps them for the routing stage (a panel
/// whose `device.axes` rewrite its events): for each of ``ContactTracker/maximumSlots`` slots,
/// every per-slot code (`ABS_MT_TOUCH_MAJOR` … `ABS_MT_TOOL_Y`) as the frame being read has it
/// (*pending*) and as the last `SYN_REPORT` left it (*committed*), stored inline rather than in
/// arrays.
///
/// One value is written here for nearly every event such a panel sends, whatever the touch's
/// route: a claimed touch's values are what a later contact in the same slot starts from (the
/// kernel sends only values that changed). In an array each write cost a uniqueness check (a
/// runtime call) and a bounds check; here it is one store at a computed address, as in the
/// contact tracker's ``SlotTable``. A commit copies a changed slot's 64 bytes as one vector.
///
/// One more slot, ``scratch``, takes the values addressed to a slot out of range: they are
/// never committed or read.
struct PanelSlotTable: Sendable {
    /// One slot's pending and committed values.
    struct Slot: Sendable {
        var pending = SlotCodes()
        var committed = SlotCodes()
    }

    private typealias Row = (Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot)

    /// How many slots the table holds for contacts (``ContactTracker/maximumSlots``).
    static let capacity = 64
    /// The slot after them: values written to it are never read.
    static let scratch = 64

    private var rows: (Row, Row, Row, Row, Row, Row, Row, Row, Row)

    /// Every slot empty: tracking id -1, the other values 0 (the kernel's initial slots,
    /// `input_mt_init_slots`).
    init() {
        let slot = Slot()
        let row: Row = (slot, slot, slot, slot, slot, slot, slot, slot)
        rows = (row, row, row, row, row, row, row, row, row)
        assert(MemoryLayout<Row>.stride == 8 * MemoryLayout<Slot>.stride, "rows must be contiguous slots")
        assert(MemoryLayout<Slot>.stride == 2 * MemoryLayout<SlotCodes>.stride, "pending must be at a slot's start")
    }

    /// Writes a pending value of `slot`, which the caller guarantees is below ``capacity`` or
    /// ``scratch`` (checked in debug builds only), `offset` below ``SlotCodes/count``: the
    /// router's current slot, on the path of every value event.
    @inline(__always)
    mutating func storePending(_ value: Int32, slot: Int, offset: Int) {
        assert(UInt(bitPattern: slot) <= UInt(Self.scratch) && UInt(bitPattern: offset) < UInt(SlotCodes.count))
        withUnsafeMutableBytes(of: &rows) { bytes in
            bytes.storeBytes(of: value, toByteOffset: slot &* MemoryLayout<Slot>.stride &+ offset &* 4, as: Int32.self)
        }
    }

    /// Runs `body` on the slot numbered `slot`, below ``capacity`` (checked).
    @inline(__always)
    mutating func update<Result>(_ slot: Int, _ body: (inout Slot) throws -> Result) rethrows -> Result {
        precondition(UInt(bitPattern: slot) < UInt(Self.capacity), "slot out of range")
        return try withUnsafeMutableBytes(of: &rows) { bytes in
            try body(&bytes.baseAddress.unsafelyUnwrapped.assumingMemoryBound(to: Slot.self)[slot])
        }
    }
}
