/// The events of engine calls, in order, as the engine appends them and a driver reads them.
///
/// Each event is kept as a plain record (no references): what it refers to — the touches of
/// a delivery, the values of a gesture event, the tree of its views — lives once in the
/// collection's pools, not in every event. Appending a frame's events, reading them in place
/// and clearing them retains and releases nothing: kept as ``EngineEvent`` values, each
/// delivery retained its tree and its touch pool when made, again when read out to be
/// encoded, and released both through its enum's value witnesses when cleared, for nothing
/// but bookkeeping (measured: docs/performance.md, "Measured reasons behind the code's shape").
///
/// Reading an element (`events[i]`) makes the ``EngineEvent`` (tests, tools), with its
/// touches or values copied into a pool of its own: the collection's pools never leave it,
/// and a collection written to while a copy of it shares a pool copies the pool first (a
/// value, like an array), so a pool is only written or emptied where nothing else can read it
/// (what makes their `@unchecked Sendable` sound); an event made from a record stays valid
/// whatever happens to the collection afterwards.
public struct EngineEvents: RandomAccessCollection, Sendable {
    /// One event, with no reference in it.
    struct Record {
        enum Kind: UInt8 { case touches, gesture, other }
        var time: Timestamp
        var kind: Kind
        /// A delivery's phase.
        var phase: TouchPhase
        /// A delivery's hit view.
        var view: Int32
        /// A delivery's tree, in ``trees``.
        var tree: Int32
        /// A delivery's first touch in ``touchPool``; a gesture event's entry in
        /// ``gesturePool``; any other event's place in ``others``.
        var start: Int32
        /// A delivery's number of touches.
        var count: Int32
    }

    /// The events: the first ``endIndex`` of them. The array never shrinks, so clearing the
    /// events is setting the count to 0 and a record is stored over an old one.
    private(set) var records: [Record] = []
    /// Usable from inline code: a driver asks whether a batch is empty after every raw event.
    @usableFromInline private(set) var recordCount = 0
    /// The touches of the deliveries (``TouchList``): the engine appends each delivered touch
    /// once, and a delivery is a range of it.
    private(set) var touchPool = TouchPool()
    /// The values of the gesture events (``GestureEvent``).
    private(set) var gesturePool = GesturePool()
    /// The trees the deliveries' views are in: nearly always one, the current layout.
    private(set) var trees: [ViewTree] = []
    /// ``trees`` again, unretained, for an encoder: a tree read from ``trees`` for each
    /// delivery was retained and released for it.
    private(set) var unretainedTrees: [Unmanaged<ViewTree>] = []
    /// Control events and hit tests: rare, kept whole.
    private var others: [EngineEvent] = []
    /// Scratch for ``moveTail(from:to:)``.
    private var tail: [Record] = []

    public init() {}

    @inlinable public var startIndex: Int { 0 }
    @inlinable public var endIndex: Int { recordCount }
    @inlinable public var isEmpty: Bool { recordCount == 0 }

    /// The event at `position`, made from its record.
    public subscript(position: Int) -> EngineEvent {
        precondition(position >= 0 && position < recordCount, "EngineEvents index out of range")
        let record = records[position]
        switch record.kind {
        case .touches:
            let start = Int(record.start)
            return .touches(TouchesEvent(time: record.time, phase: record.phase, tree: trees[Int(record.tree)],
                                         view: Int(record.view),
                                         touches: TouchList(touchPool.touches[start..<start + Int(record.count)])))
        case .gesture:
            return .gesture(GestureEvent(copying: Int(record.start), of: gesturePool))
        case .other:
            return others[Int(record.start)]
        }
    }

    /// What subscription filters look at in the event at `position`, without making the event.
    public func summary(at position: Int) -> EventSummary {
        precondition(position >= 0 && position < recordCount, "EngineEvents index out of range")
        let record = records[position]
        switch record.kind {
        case .touches:
            return EventSummary(kind: "touches", views: .tree(trees[Int(record.tree)], view: Int(record.view),
                                                              responders: true))
        case .gesture:
            let entry = gesturePool.entries[Int(record.start)]
            return EventSummary(kind: "gesture", views: .tree(entry.tree, view: entry.view, responders: false),
                                recognizer: entry.recognizer, isTraceOnly: entry.state == .failed)
        case .other:
            return EventSummary(others[Int(record.start)])
        }
    }

    /// Forgets every event, keeping the storage. The last tree is kept for the next events
    /// (nearly always the same layout: not released and retained again every frame). A pool
    /// something else still holds (none should: see above) is replaced rather than emptied.
    public mutating func removeAll() {
        recordCount = 0
        if trees.count > 1 {
            unretainedTrees.removeFirst(trees.count - 1)
            trees.removeFirst(trees.count - 1)
        }
        if !others.isEmpty { others.removeAll(keepingCapacity: true) }
        if isKnownUniquelyReferenced(&touchPool) {
            touchPool.removeAll()
        } else {
            touchPool = TouchPool()
        }
        if isKnownUniquelyReferenced(&gesturePool) {
            if !gesturePool.entries.isEmpty { gesturePool.removeAll() }
        } else {
            gesturePool = GesturePool()
        }
    }

    // MARK: - Appending (the engine)

    /// Appends a touch to the touch pool; returns its slot.
    @inline(__always)
    mutating func addTouch(_ touch: TouchInfo) -> Int {
        // A value: a copy of the collection made before keeps the touches it had.
        if _slowPath(!isKnownUniquelyReferenced(&touchPool)) { touchPool = touchPool.copy() }
        return touchPool.append(touch)
    }

    /// The gesture pool, to add an entry to (``GesturePool/add(time:recognizer:quotedRecognizer:kind:tree:view:state:touches:ignoring:values:)``):
    /// a pool of its own first if a copy of the collection shares it.
    @inline(__always)
    mutating func gesturePoolForAdding() -> GesturePool {
        if _slowPath(!isKnownUniquelyReferenced(&gesturePool)) { gesturePool = gesturePool.copy() }
        return gesturePool
    }

    /// The touch in the pool at `slot`.
    @inline(__always)
    func touch(at slot: Int) -> TouchInfo { touchPool.touches[slot] }

    /// A delivery of the touches at `start ..< start + count` of the pool to `view` of `tree`
    /// (identified by `treeID`: a tree is only read when the collection meets it first).
    @inline(__always)
    mutating func appendTouches(time: Timestamp, phase: TouchPhase, treeID: ObjectIdentifier,
                                tree: @autoclosure () -> ViewTree, view: ViewIndex, start: Int, count: Int) {
        var index = trees.count - 1
        if index < 0 || ObjectIdentifier(trees[index]) != treeID {
            index = trees.firstIndex { ObjectIdentifier($0) == treeID } ?? {
                let tree = tree()
                trees.append(tree)
                unretainedTrees.append(Unmanaged.passUnretained(tree))
                return trees.count - 1
            }()
        }
        append(Record(time: time, kind: .touches, phase: phase, view: Int32(truncatingIfNeeded: view),
                      tree: Int32(truncatingIfNeeded: index), start: Int32(truncatingIfNeeded: start),
                      count: Int32(truncatingIfNeeded: count)))
    }

    /// A gesture event whose values are entry `entry` of ``gesturePool``.
    @inline(__always)
    mutating func appendGesture(time: Timestamp, entry: Int) {
        append(Record(time: time, kind: .gesture, phase: .began, view: 0, tree: 0,
                      start: Int32(truncatingIfNeeded: entry), count: 0))
    }

    /// An event kept whole: the engine's control events and hit tests (rare).
    mutating func append(_ event: EngineEvent) {
        append(Record(time: event.time, kind: .other, phase: .began, view: 0, tree: 0,
                      start: Int32(truncatingIfNeeded: others.count), count: 0))
        others.append(event)
    }

    /// Moves the events from `start` to the end so that they come before the one at `position`
    /// (recognitions' cancellations, sent after the recognition's event was appended).
    mutating func moveTail(from start: Int, to position: Int) {
        guard position >= 0, position < start, start < recordCount else { return }
        tail.removeAll(keepingCapacity: true)
        tail.append(contentsOf: records[start..<recordCount])
        // The events from `position` on move back by the tail's length, the last first.
        var index = start - 1
        while index >= position {
            records[index + tail.count] = records[index]
            index -= 1
        }
        for (offset, record) in tail.enumerated() { records[position + offset] = record }
    }

    @inline(__always)
    private mutating func append(_ record: Record) {
        if recordCount < records.count { records[recordCount] = record } else { records.append(record) }
        recordCount &+= 1
    }

    /// The records, the touch pool's touches and the trees (unretained: ``trees`` holds them
    /// while `body` runs), in place, for an encoder.
    func withContents<R>(_ body: (UnsafeBufferPointer<Record>, UnsafeBufferPointer<TouchInfo>,
                                  UnsafeBufferPointer<Unmanaged<ViewTree>>) -> R) -> R {
        records.withUnsafeBufferPointer { all in
            let records = UnsafeBufferPointer(rebasing: all[..<recordCount])
            return touchPool.touches.withUnsafeBufferPointer { touches in
                unretainedTrees.withUnsafeBufferPointer { trees in
                    withExtendedLifetime(self.trees) { body(records, touches, trees) }
                }
            }
        }
    }
}
