/// The arena's recognizers, a bank per layout: the current layout's, and the retired layouts'
/// that touches began in or that still have something to decide. A recognizer's index is its
/// bank's base (the bank number times ``capacity``) plus its place in the layout, so it never
/// changes while the recognizer lives: a layout goes in by taking a free bank, and leaves by
/// emptying its bank, each in time independent of the layouts' sizes — nothing is copied, no
/// index held by a touch or a list moves (a flat array copied and shifted 20 MB of slots for
/// each `layout.set` of 10,000 recognizers while a finger was down, docs/decisions.md,
/// *Taking a layout off the loop*). The lowest free bank is taken, so the indices stay below
/// the banks in use times ``capacity`` (the ``SlotSet``s indexed by them stay small).
struct SlotBanks {
    /// A bank holds up to 2^14 recognizers: more than a layout may have
    /// (``LayoutLimits/maximumRecognizers``, which ``LayoutValidator`` enforces).
    static let shift = 14
    static let capacity = 1 << shift
    private static let offsetMask = capacity - 1

    private var banks: [[RecognizerSlot]] = []
    private var inUse: [Bool] = []
    /// When each bank's layout went in (a count of layouts installed): the order of age.
    private(set) var ages: [Int] = []
    private var installed = 0
    /// The banks in use, oldest layout first; the last is the current layout's.
    private(set) var order: [Int] = []

    /// Held by this value only, unless the value was copied (an engine copied): then every
    /// machine may be held by the copy too.
    private var holder = Holder()
    /// Whether every machine of every bank was last found held by this value alone. A bank
    /// that goes in may share its machines (and its array) with the layout it came from.
    private var machinesOwned = true

    /// A reference whose count tells whether the banks were copied.
    private final class Holder: Sendable {}

    /// The bank of the recognizer at `index`.
    @inline(__always)
    static func bank(of index: Int) -> Int { index &>> shift }

    /// The index of the first recognizer of the bank that holds `index`: what the indices in a
    /// recognizer's lists (which name recognizers of its own layout) count from.
    @inline(__always)
    static func base(of index: Int) -> Int { index & ~offsetMask }

    @inline(__always)
    subscript(index: Int) -> RecognizerSlot {
        _read { yield banks[index &>> Self.shift][index & Self.offsetMask] }
        _modify { yield &banks[index &>> Self.shift][index & Self.offsetMask] }
    }

    /// Calls `body` with a pointer to the recognizer at `index`: one bounds and uniqueness
    /// check for all that `body` reads and changes.
    @inline(__always)
    mutating func withSlot<Result>(_ index: Int, _ body: (UnsafeMutablePointer<RecognizerSlot>) -> Result) -> Result {
        banks[index &>> Self.shift].withUnsafeMutableBufferPointer { bank in
            body(bank.baseAddress.unsafelyUnwrapped + (index & Self.offsetMask))
        }
    }

    /// Makes every machine of the arena its own, so that the arena may change them in place
    /// with no copy-on-write check until the caller returns (``AnyRecognizer/handleOwned(_:)``,
    /// ``AnyRecognizer/moveQuietly(_:)``): the engine calls this first in each of its calls
    /// that feeds the recognizers. Sound because a machine's box can only be shared in two
    /// ways, both seen here: these banks were copied (an engine copied; then ``holder`` is
    /// held twice), or a bank went in sharing its slots with a ``PreparedLayout``
    /// (``add(_:)`` clears ``machinesOwned``). The arena itself never keeps a copy of a slot
    /// while it changes a machine (it reads slots in place), and nothing else reaches them.
    /// One check per call when nothing changed; after a copy or a new layout, one per
    /// recognizer, copying the machines still shared.
    @inline(__always)
    mutating func claimMachines() {
        if machinesOwned && isKnownUniquelyReferenced(&holder) { return }
        claimEveryMachine()
    }

    @inline(never)
    private mutating func claimEveryMachine() {
        for bank in order {
            for position in banks[bank].indices { banks[bank][position].machine.makeMachineOwned() }
        }
        if !isKnownUniquelyReferenced(&holder) { holder = Holder() }
        machinesOwned = true
    }

    /// The recognizers of every bank in use.
    var count: Int {
        var total = 0
        for bank in order { total += banks[bank].count }
        return total
    }

    /// Whether the recognizer at `a` comes before the one at `b`: an older layout's first,
    /// then in the order of their layout.
    @inline(__always)
    static func precedes(_ a: Int, _ b: Int, ages: [Int]) -> Bool {
        let bankA = a &>> shift, bankB = b &>> shift
        return bankA == bankB ? a < b : ages[bankA] < ages[bankB]
    }

    /// Puts a layout's recognizers (their lists counting from 0) in the lowest free bank, as
    /// the newest layout; returns the bank's base. Takes `slots` as they are: no copy.
    mutating func add(_ slots: [RecognizerSlot]) -> Int {
        precondition(slots.count <= Self.capacity, "a layout LayoutValidator accepted has at most "
                     + "\(LayoutLimits.maximumRecognizers) recognizers, not \(slots.count)")
        let bank = inUse.firstIndex(of: false) ?? banks.count
        if bank == banks.count {
            banks.append([])
            inUse.append(false)
            ages.append(0)
        }
        banks[bank] = slots
        machinesOwned = false
        inUse[bank] = true
        ages[bank] = installed
        installed += 1
        order.append(bank)
        return bank &<< Self.shift
    }

    /// Empties `bank` and returns its recognizers (for the caller to release where it likes).
    mutating func remove(bank: Int) -> [RecognizerSlot] {
        var slots: [RecognizerSlot] = []
        swap(&slots, &banks[bank])
        inUse[bank] = false
        order.removeAll { $0 == bank }
        return slots
    }
}
