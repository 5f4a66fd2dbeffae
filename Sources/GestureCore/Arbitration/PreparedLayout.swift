/// A layout's recognizers made ready for the arena: one ``RecognizerSlot`` per recognizer with
/// its resolved parameters, its machine and the lists of who requires and may recognize with
/// whom, all with indices relative to the layout's first recognizer, and where each view's
/// recognizers start. Making them is nearly all the work of taking a new layout
/// (docs/performance.md measures it for 10,000 recognizers); it depends only on the tree and the ``Basis`` (the
/// settings and the screen), so a driver makes it away from its event loop
/// (docs/decisions.md, *Taking a layout off the loop*), and the engine installs it between two
/// frames in time independent of the layout's size: the slots become a bank of the arena as
/// they are (``SlotBanks``).
///
/// A layout prepared for settings or a screen that changed before it was installed is made
/// again by the engine, on the spot: the result is the same as if it had never been prepared.
public struct PreparedLayout: Sendable {
    /// What the recognizers' parameters and machines were made with.
    public struct Basis: Hashable, Sendable {
        public var settings: GestureSettings
        public var screen: Rect

        public init(settings: GestureSettings, screen: Rect) {
            self.settings = settings
            self.screen = screen
        }
    }

    public let tree: ViewTree
    public let basis: Basis
    /// The layout's recognizers in tree order; every index in their lists counts from 0.
    var slots: [RecognizerSlot]
    /// View `v`'s recognizers are `slots[viewStarts[v] ..< viewStarts[v + 1]]`.
    let viewStarts: [Int]
    /// Recognizers looked at while making the lists (``GestureArena/visits``, added when installed).
    let visits: Int
    /// The ids of the layout's disabled recognizers: a recognizer of this id that is
    /// recognizing when the layout comes is cancelled, one that has not begun fails
    /// (``GestureArena/disable(_:at:events:cancellations:)``).
    let disabledIDs: Set<String>

    /// Makes the recognizers of `tree` for `basis`: linear in the recognizers and the entries
    /// of their lists.
    public init(tree: ViewTree, basis: Basis) {
        self.tree = tree
        self.basis = basis
        let context = RecognizerContext(screen: basis.screen)
        var starts = [Int](repeating: 0, count: tree.count + 1)
        for entry in tree.recognizers { starts[entry.view + 1] += 1 }
        for view in 0..<tree.count { starts[view + 1] += starts[view] }
        viewStarts = starts
        var slots: [RecognizerSlot] = []
        slots.reserveCapacity(tree.recognizers.count)
        var indexByID: [String: Int] = [:]
        var disabledIDs: Set<String> = []
        for (offset, entry) in tree.recognizers.enumerated() {
            indexByID[entry.spec.id] = offset
            if !entry.spec.enabled { disabledIDs.insert(entry.spec.id) }
            slots.append(RecognizerSlot(spec: entry.spec, tree: tree, view: entry.view,
                                        parameters: basis.settings.resolved(entry.spec), context: context))
        }
        // Both directions of each list, each pair once: a search of the list built so far for
        // every entry was a million steps for one recognizer naming 1,000. A recognizer's own
        // `simultaneousWith` first, then merged with the lists that name it.
        var visits = 0
        var namedBy = [[Int]](repeating: [], count: slots.count)
        for index in slots.indices {
            let required = slots[index].spec.requireToFail.compactMap { indexByID[$0] }
            let simultaneous = slots[index].spec.simultaneousWith.compactMap { indexByID[$0] }
            visits += required.count + simultaneous.count
            slots[index].requiredToFail = required
            slots[index].simultaneous = simultaneous
            // Ascending and once each, as `index` only grows.
            for other in required where slots[other].requiredBy.last != index { slots[other].requiredBy.append(index) }
            for other in simultaneous where other != index { namedBy[other].append(index) }
        }
        var marks = SlotSet()
        for index in slots.indices {
            visits += slots[index].simultaneous.count + namedBy[index].count
            for other in slots[index].simultaneous where other != index { marks.insert(other) }
            for other in namedBy[index] { marks.insert(other) }
            slots[index].simultaneous = marks.members
            marks.removeAll()
        }
        self.slots = slots
        self.visits = visits
        self.disabledIDs = disabledIDs
    }

    /// The recognizers the layout has.
    public var recognizerCount: Int { slots.count }
}

/// What the engine let go of (the slots of dropped layouts, replaced trees) and what a driver
/// adds to it (the layout a `layout.set` replaced): released wherever the holder of this value
/// drops it. Freeing 10,000 recognizers and their views is milliseconds of `free`; a driver
/// with an event loop hands this to another thread, so the loop does not pay for it.
public struct ReleasedStorage: Sendable {
    @usableFromInline private(set) var items: [any Sendable] = []

    public init() {}

    @inlinable public var isEmpty: Bool { items.isEmpty }

    /// Keeps `item` until this value is released.
    public mutating func add(_ item: any Sendable) {
        items.append(item)
    }

    /// Takes over everything `other` holds.
    public mutating func add(contentsOf other: ReleasedStorage) {
        items.append(contentsOf: other.items)
    }
}
