/// The state of ``ContactTracker/maximumSlots`` (64) slots, stored inline in the tracker
/// rather than in an array.
///
/// Nearly every event a touchscreen sends writes one value of one slot, a few hundred
/// thousand a minute with ten fingers down. In an array each write costs a uniqueness check
/// (a runtime call, for copy-on-write) and a bounds check; here it is one store at a computed
/// address. The table has a fixed size, so the tracker allocates nothing for its slots, its
/// memory is bounded whatever a device declares, and copying a tracker still copies its
/// slots (value semantics, as with an array).
///
/// One more slot, ``scratch``, takes the events addressed to a slot out of range, so that the
/// path of every value event is the same store with no test for "no slot".
///
/// Swift 6.1, which the package supports, has no fixed-size array type; a tuple of 9 rows of
/// 8 slots is one. Its elements are laid out one stride apart, as C arrays imported as
/// tuples are, so the table is reached through a pointer to its first slot.
struct SlotTable: Sendable {
    typealias Slot = ContactTracker.Slot
    private typealias Row = (Slot, Slot, Slot, Slot, Slot, Slot, Slot, Slot)

    /// How many slots the table holds for contacts (``ContactTracker/maximumSlots``).
    static let capacity = 64
    /// The slot after them: values written to it are never read.
    static let scratch = 64

    private var rows: (Row, Row, Row, Row, Row, Row, Row, Row, Row)

    /// A table of slots in their initial state (`Slot()`).
    init() {
        let row: Row = (Slot(), Slot(), Slot(), Slot(), Slot(), Slot(), Slot(), Slot())
        rows = (row, row, row, row, row, row, row, row, row)
        assert(MemoryLayout<Row>.stride == 8 * MemoryLayout<Slot>.stride, "rows must be contiguous slots")
    }

    /// Runs `body` with the table's slots as one buffer of ``capacity`` slots (the buffer
    /// checks indices in debug builds only; the tracker's slot numbers are below its slot
    /// count, at most ``capacity``, by construction). ``scratch`` is not in it.
    @inline(__always)
    mutating func withSlots<Result>(_ body: (UnsafeMutableBufferPointer<Slot>) throws -> Result) rethrows -> Result {
        try withUnsafeMutableBytes(of: &rows) { bytes in
            try body(UnsafeMutableBufferPointer(start: bytes.baseAddress!.assumingMemoryBound(to: Slot.self),
                                                count: Self.capacity))
        }
    }

    /// Runs `body` on the slot numbered `slot`, which the caller guarantees is below
    /// ``capacity`` or ``scratch`` (checked in debug builds only): for the tracker's current
    /// slot, set only by selecting a slot below its slot count or the scratch slot, on the path
    /// of every value event.
    @inline(__always)
    mutating func updateUnchecked<Result>(_ slot: Int, _ body: (inout Slot) throws -> Result) rethrows -> Result {
        assert(UInt(bitPattern: slot) <= UInt(Self.scratch), "slot out of range")
        return try withUnsafeMutableBytes(of: &rows) { bytes in
            try body(&bytes.baseAddress!.assumingMemoryBound(to: Slot.self)[slot])
        }
    }

    /// Runs `body` on the slot numbered `slot`: below ``capacity``, or ``scratch`` (checked).
    @inline(__always)
    mutating func update<Result>(_ slot: Int, _ body: (inout Slot) throws -> Result) rethrows -> Result {
        precondition(UInt(bitPattern: slot) <= UInt(Self.scratch), "slot out of range")
        return try withUnsafeMutableBytes(of: &rows) { bytes in
            try body(&bytes.baseAddress!.assumingMemoryBound(to: Slot.self)[slot])
        }
    }
}
