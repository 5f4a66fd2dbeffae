/// A set of the arena's recognizer indices that keeps the order they joined in (unless one
/// is removed alone): a bit per index says whether it is a member, and a list holds the
/// members. Joining and asking cost
/// one word; emptying the set costs its members, not the layout's recognizers. The engine and
/// the arena keep their per-frame sets in these, so no frame walks every recognizer of a
/// layout or searches a list for each one (issue 25).
struct SlotSet {
    private var words: [UInt64] = []
    /// The members, in the order they joined.
    private(set) var members: [Int] = []

    var count: Int { members.count }
    var isEmpty: Bool { members.isEmpty }

    @inline(__always)
    func contains(_ index: Int) -> Bool {
        let word = index &>> 6
        return word < words.count && words[word] & (1 &<< UInt64(index & 63)) != 0
    }

    /// Adds `index` after the members unless it is one; returns whether it was added.
    @inline(__always)
    @discardableResult
    mutating func insert(_ index: Int) -> Bool {
        let word = index &>> 6
        if word >= words.count { grow(toHold: index) }
        let bit: UInt64 = 1 &<< UInt64(index & 63)
        if words[word] & bit != 0 { return false }
        words[word] |= bit
        members.append(index)
        return true
    }

    /// Room for indices up to `index` (a larger layout): rare, so kept out of line.
    @inline(never)
    private mutating func grow(toHold index: Int) {
        words.append(contentsOf: repeatElement(0, count: (index &>> 6) + 1 - words.count))
    }

    /// Empties the set, keeping its storage.
    mutating func removeAll() {
        // Every member goes, so a member's whole word can be cleared.
        for index in members { words[index &>> 6] = 0 }
        members.removeAll(keepingCapacity: true)
    }

    /// Removes the member at `position` of ``members``; the last member takes its place, so
    /// this is for sets whose order does not matter.
    @inline(__always)
    mutating func remove(atPosition position: Int) {
        let index = members[position]
        words[index &>> 6] &= ~(1 &<< UInt64(index & 63))
        let last = members.removeLast()
        if position < members.count { members[position] = last }
    }

    /// Removes the members `dropped` says to, keeping the others' order.
    mutating func removeAll(where dropped: (Int) -> Bool) {
        let kept = members.filter { !dropped($0) }
        removeAll()
        for index in kept { insert(index) }
    }
}
