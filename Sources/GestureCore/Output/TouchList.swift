/// The touches of one delivery, as a ``TouchesEvent`` carries them: a range of a touch pool.
///
/// The engine appends each delivered touch to the pool of its ``EngineEvents`` once, and a
/// delivery's record is a range of it; an event handed out as a value gets its touches copied
/// into a pool of its own, so a pool is never written while an event elsewhere reads it.
public struct TouchList: RandomAccessCollection, Sendable {
    private let pool: TouchPool?
    private let start: Int
    public let count: Int

    /// No touches.
    public init() {
        pool = nil
        start = 0
        count = 0
    }

    /// A list of its own (tests, tools).
    public init(_ touches: some Sequence<TouchInfo>) {
        let pool = TouchPool()
        for touch in touches { _ = pool.append(touch) }
        self.init(pool: pool, start: 0, count: pool.count)
    }

    init(pool: TouchPool, start: Int, count: Int) {
        (self.pool, self.start, self.count) = (pool, start, count)
    }

    public var startIndex: Int { 0 }
    public var endIndex: Int { count }

    /// The touches in place, for an encoder that reads each once (no copy, no check per touch).
    public func withUnsafeBufferPointer<R>(_ body: (UnsafeBufferPointer<TouchInfo>) -> R) -> R {
        guard let pool, count > 0 else { return body(UnsafeBufferPointer(start: nil, count: 0)) }
        return pool.touches.withUnsafeBufferPointer { all in
            body(UnsafeBufferPointer(rebasing: all[start..<start + count]))
        }
    }

    public subscript(position: Int) -> TouchInfo {
        precondition(position >= 0 && position < count, "TouchList index out of range")
        return pool!.touches[start + position]
    }
}

/// The touches of deliveries: an ``EngineEvents``' own pool (the engine appends to it, and it
/// is emptied for reuse, while nothing outside can read it) or one event's alone (see
/// ``TouchList``), which is what makes the `@unchecked Sendable` sound.
final class TouchPool: @unchecked Sendable {
    /// Unchecked: the engine is the only writer, one append at a time, and readers come after
    /// (``TouchList``); a dynamic exclusivity check on every append of every frame bought
    /// nothing (two runtime calls per touch delivered).
    @exclusivity(unchecked) var touches: [TouchInfo] = []
    /// How many of ``touches`` are the pool's: the array never shrinks, so emptying the pool
    /// for reuse is setting this to 0 (cheaper than `removeAll(keepingCapacity:)`;
    /// docs/performance.md, "Measured reasons behind the code's shape") and a touch is stored
    /// over an old one.
    @exclusivity(unchecked) private(set) var count = 0

    /// Adds `touch`; returns its slot.
    @inline(__always)
    func append(_ touch: TouchInfo) -> Int {
        let slot = count
        if slot < touches.count { touches[slot] = touch } else { touches.append(touch) }
        count = slot &+ 1
        return slot
    }

    /// Empties the pool for reuse (only when nothing refers to it: see ``TouchList``).
    func removeAll() { count = 0 }

    /// A pool of its own with the same touches (an ``EngineEvents`` written to while a copy of
    /// it holds this one).
    func copy() -> TouchPool {
        let copy = TouchPool()
        copy.touches = Array(touches[0..<count])
        copy.count = count
        return copy
    }
}
