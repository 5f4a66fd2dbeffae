/// The touches one recognizer state machine holds: where each landed, where it is now, and
/// whether the gesture uses it. Every machine keeps one of these next to its state enum
/// because the touches are valid in every state (the arena needs them even after a terminal
/// verdict, to know when all of them ended and the machine may be reset — docs/recognizers-and-arbitration.md § States).
struct RecognizerTouches: Sendable {
    /// One touch as the machine remembers it.
    struct Entry: Sendable {
        var id: TouchID
        /// Where the finger landed (tap and long-press movement limits measure from here).
        var start: Point
        var location: Point
        /// A finger beyond the ones the gesture follows (a long press that began, a pan at
        /// `maximumTouches` that began, an edge pan's second finger, a pinch's or rotation's
        /// third): held, but not part of the gesture, so it reaches the views as if the
        /// recognizer were not there (docs/recognizers-and-arbitration.md § Which recognizers
        /// see a touch).
        var ignored: Bool
    }

    private(set) var entries: [Entry] = []

    /// Whether a touch of the gesture (not one held aside) moved to a new location since the
    /// last frame's end. Apple's continuous recognizers change "whenever a finger moves"
    /// (docs/recognizers.md § Changed whenever a finger moves), even when the values they
    /// measure stay the same; the driver clears it after every `.frameEnd`.
    private(set) var gestureMovedInFrame = false

    /// Reserves room for the usual number of fingers once, so `handle` does not allocate.
    init(capacity: Int) {
        entries.reserveCapacity(capacity)
    }

    /// The time an input happened at: touch inputs carry it in their sample.
    static func time(of input: RecognizerInput) -> Timestamp {
        switch input {
        case .touchBegan(let s), .touchMoved(let s), .touchEnded(let s), .touchCancelled(let s): s.time
        case .frameEnd(let t), .deadline(let t): t
        }
    }

    /// Whether `input` is possible: not a second began for a held touch, nor a change of a
    /// touch it never saw. The machine ignores an impossible input and counts an anomaly.
    func accepts(_ input: RecognizerInput) -> Bool {
        switch input {
        case .touchBegan(let s): index(of: s.touch) == nil
        case .touchMoved(let s), .touchEnded(let s), .touchCancelled(let s): index(of: s.touch) != nil
        case .frameEnd, .deadline: true
        }
    }

    /// Bookkeeping before the state machine sees an accepted `input`: a began touch is
    /// added, a moved, ended or cancelled touch gets its new location.
    mutating func admit(_ input: RecognizerInput) {
        switch input {
        case .touchBegan(let s):
            entries.append(Entry(id: s.touch, start: s.location, location: s.location, ignored: false))
        case .touchMoved(let s):
            if let i = index(of: s.touch) { relocate(i, to: s.location) }
        case .touchEnded(let s), .touchCancelled(let s):
            if let i = index(of: s.touch) { entries[i].location = s.location }
        case .frameEnd, .deadline:
            break
        }
    }

    /// Moves entry `i`, noting a move of the gesture's own fingers.
    @inline(__always)
    private mutating func relocate(_ i: Int, to location: Point) {
        if !entries[i].ignored && entries[i].location != location { gestureMovedInFrame = true }
        entries[i].location = location
    }

    /// `touch` moved to `location`: false when it is not tracked (what ``accepts(_:)`` says of
    /// a move), else its entry updated as ``admit(_:)`` does, with one search instead of two.
    @inline(__always)
    mutating func move(_ touch: TouchID, to location: Point) -> Bool {
        guard let i = index(of: touch) else { return false }
        relocate(i, to: location)
        return true
    }

    /// A move given to a machine that does not judge moves, with no deadline due: what its
    /// driver (``RecognizerStateMachine/drive(_:)``) does for it, without the input enum or the
    /// verdict: the touch's entry moved, or `count` (the machine's anomalies) raised for an
    /// untracked touch, and copied to `reported`. Returns true: the move is taken. Called by
    /// each such kind on its own stored table and count, so that neither is reached through
    /// the protocol's accessors (a call and a coroutine for every move).
    @inline(__always)
    mutating func moveQuietly(_ sample: TouchSample, anomalies count: inout Int, reported: inout Int) -> Bool {
        if !move(sample.touch, to: sample.location) { count += 1 }
        reported = count
        return true
    }

    /// Bookkeeping after the state machine saw `input`: an ended or cancelled touch is
    /// forgotten (done after, so the transition still sees the touch where it lifted); after
    /// a frame's end, no finger has moved in the next frame yet.
    mutating func retire(_ input: RecognizerInput) {
        switch input {
        case .touchEnded(let s), .touchCancelled(let s):
            if let i = index(of: s.touch) { entries.remove(at: i) }
        case .frameEnd:
            gestureMovedInFrame = false
        case .touchBegan, .touchMoved, .deadline:
            break
        }
    }

    func index(of touch: TouchID) -> Int? {
        entries.firstIndex { $0.id == touch }
    }

    func entry(_ touch: TouchID) -> Entry? {
        index(of: touch).map { entries[$0] }
    }

    /// Whether `sample`'s touch is farther than `limit` from where it landed: the movement
    /// limit of taps and of long presses before they begin.
    func hasMoved(_ sample: TouchSample, fartherThan limit: Double) -> Bool {
        guard let entry = entry(sample.touch) else { return false }
        return entry.start.distance(to: sample.location) > limit
    }

    /// Why a tap or long press fails when `sample`'s touch moved farther than `limit` from
    /// where it landed (``hasMoved(_:fartherThan:)`` said so): the distance and the limit.
    func movedTooFar(_ sample: TouchSample, limit: Double) -> FailureReason {
        FailureReason(.movedTooFar, measured: entry(sample.touch).map { $0.start.distance(to: sample.location) }, limit: limit)
    }

    func isIgnored(_ touch: TouchID) -> Bool {
        entry(touch)?.ignored ?? false
    }

    mutating func ignore(_ touch: TouchID) {
        if let i = index(of: touch) { entries[i].ignored = true }
    }

    /// A finger held aside becomes part of the gesture (a pinch re-forming its pair).
    mutating func unignore(_ touch: TouchID) {
        if let i = index(of: touch) { entries[i].ignored = false }
    }

    /// The earliest-landed finger held aside, if any.
    func firstIgnored() -> TouchID? {
        entries.first(where: \.ignored)?.id
    }

    var count: Int { entries.count }

    /// The touches the gesture uses, optionally leaving one out (the one joining or leaving).
    func participatingCount(excluding excluded: TouchID? = nil) -> Int {
        var n = 0
        for e in entries where !e.ignored && e.id != excluded { n += 1 }
        return n
    }

    /// The centroid of the touches the gesture uses (`.zero` when there are none).
    func centroid(excluding excluded: TouchID? = nil) -> Point {
        var x = 0.0, y = 0.0, n = 0.0
        for e in entries where !e.ignored && e.id != excluded {
            x += e.location.x
            y += e.location.y
            n += 1
        }
        return n == 0 ? .zero : Point(x: x / n, y: y / n)
    }

    var ids: [TouchID] { entries.map(\.id) }

    /// Sets every touch's start to where it is now: a swipe measures each finger from where
    /// it was when all of them were down.
    mutating func restartAll() {
        for i in entries.indices { entries[i].start = entries[i].location }
    }

    mutating func removeAll() {
        entries.removeAll(keepingCapacity: true)
        gestureMovedInFrame = false
    }
}
