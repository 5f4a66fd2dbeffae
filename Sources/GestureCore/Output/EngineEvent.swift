/// A touch phase as delivered to views and recognizers (docs/touches.md, "Touches").
public enum TouchPhase: String, Hashable, Sendable {
    case began, moved, ended, cancelled
}

/// One resolved event of the engine (docs/events.md), before it gets a sequence number.
/// Views are named by their tree and index, so building an event copies no strings.
public enum EngineEvent: Sendable {
    case touches(TouchesEvent)
    case gesture(GestureEvent)
    case control(ControlEvent)
    case hitTest(HitTestEvent)

    public var time: Timestamp {
        switch self {
        case .touches(let e): e.time
        case .gesture(let e): e.time
        case .control(let e): e.time
        case .hitTest(let e): e.time
        }
    }
}

/// A touch as one delivery carries it. Kept small (radius and force as `Float`), since a
/// delivery stores its touches inline and events are copied along the pipeline.
public struct TouchInfo: Hashable, Sendable {
    public var id: TouchID
    public var phase: TouchPhase
    /// Screen points.
    public var location: Point
    /// In the hit view's own coordinates.
    public var viewLocation: Point
    /// Screen points, where the touch was at the previous delivery.
    public var previousLocation: Point
    private var storedTapCount: Int32
    private var storedMajorRadius: Float
    private var storedForce: Float
    /// Where the touch goes (docs/routing.md), when the configuration routes touches.
    public var route: Route?

    public init(id: TouchID, phase: TouchPhase, location: Point, viewLocation: Point, previousLocation: Point,
                tapCount: Int, majorRadius: Double?, force: Double?, route: Route? = nil) {
        self.id = id
        self.phase = phase
        self.location = location
        self.viewLocation = viewLocation
        self.previousLocation = previousLocation
        storedTapCount = Int32(clamping: tapCount)
        storedMajorRadius = majorRadius.map(Float.init) ?? .nan
        storedForce = force.map(Float.init) ?? .nan
        self.route = route
    }

    public var tapCount: Int { Int(storedTapCount) }
    /// Points, when the device reports a contact size.
    public var majorRadius: Double? { storedMajorRadius.isNaN ? nil : Double(storedMajorRadius) }
    /// `0 ... 1` of the pressure range, when the device reports pressure.
    public var force: Double? { storedForce.isNaN ? nil : Double(storedForce) }
}

/// `touchesBegan/Moved/Ended/Cancelled` delivered to a hit view and forwarded along the
/// responder chain.
public struct TouchesEvent: Sendable {
    public var time: Timestamp
    public var phase: TouchPhase
    public var tree: ViewTree
    /// The hit view of these touches.
    public var view: ViewIndex
    public var touches: TouchList

    public init(time: Timestamp, phase: TouchPhase, tree: ViewTree, view: ViewIndex, touches: TouchList) {
        (self.time, self.phase, self.tree, self.view, self.touches) = (time, phase, tree, view, touches)
    }

    /// The responders that received the delivery, in order (the hit view first).
    public var responders: ResponderChain { ResponderChain(from: view, in: tree) }
}

/// The public state of a recognizer as gesture events report it (docs/recognizers-and-arbitration.md,
/// "States").
public enum GestureState: String, Hashable, Sendable {
    case possible, began, changed, ended, cancelled, recognized, failed
}

/// A recognizer changed state (or, while `began`/`changed`, its values changed).
///
/// An entry of the engine's per-call gesture pool, as a delivery's touches are of its touch
/// pool (``TouchList``): the event itself is two words. Held inline, its values (over 130
/// bytes) made every ``EngineEvent`` 202 bytes, and every copy of any event a `memcpy`.
public struct GestureEvent: Sendable {
    private let pool: GesturePool
    private let index: Int

    init(pool: GesturePool, index: Int) {
        (self.pool, self.index) = (pool, index)
    }

    /// Entry `index` of `pool` copied into a pool of its own (an event handed out of
    /// ``EngineEvents``, whose pools stay its own).
    init(copying index: Int, of pool: GesturePool) {
        let own = GesturePool()
        let entry = pool.entries[index]
        let ownEntry = own.add(time: entry.time, recognizer: entry.recognizer, quotedRecognizer: entry.quotedRecognizer,
                               kind: entry.kind, tree: entry.tree, view: entry.view, state: entry.state,
                               touches: GestureEvent(pool: pool, index: index).touches, values: entry.values)
        if let failure = pool.failure(of: index) { own.failures.append(.init(failure, entry: ownEntry)) }
        self.init(pool: own, index: ownEntry)
    }

    /// An event of its own (tests, tools).
    public init(time: Timestamp, recognizer: String, kind: RecognizerKind, tree: ViewTree, view: ViewIndex,
                state: GestureState, touches: [TouchID], values: GestureValues, failure: GestureFailure? = nil) {
        let pool = GesturePool()
        let index = pool.add(time: time, recognizer: recognizer, quotedRecognizer: JSONWriter.quoted(recognizer),
                             kind: kind, tree: tree, view: view, state: state, touches: touches, values: values)
        if let failure { pool.failures.append(.init(failure, entry: index)) }
        self.init(pool: pool, index: index)
    }

    public var time: Timestamp { pool.entries[index].time }
    public var recognizer: String { pool.entries[index].recognizer }
    public var kind: RecognizerKind { pool.entries[index].kind }
    public var tree: ViewTree { pool.entries[index].tree }
    /// The view the recognizer is attached to.
    public var view: ViewIndex { pool.entries[index].view }
    public var state: GestureState { pool.entries[index].state }
    /// The ids of the gesture's touches (an array made from the pool's flat storage when the
    /// recognizer held fingers aside; the encoder reads them in place with ``touchCount`` and
    /// ``touch(at:)``).
    public var touches: [TouchID] {
        let entry = pool.entries[index]
        if entry.touchStart < 0 { return entry.touchList }
        return Array(pool.touchIDs[entry.touchStart..<entry.touchStart + entry.touchCount])
    }
    /// How many touches the gesture has.
    var touchCount: Int { pool.entries[index].touchCount }
    /// The `position`th of ``touches``, read in place.
    func touch(at position: Int) -> TouchID {
        let start = pool.entries[index].touchStart
        return start < 0 ? pool.entries[index].touchList[position] : pool.touchIDs[start + position]
    }
    public var values: GestureValues { pool.entries[index].values }
    /// Why the recognizer failed or was cancelled (a `failed` or `cancelled` event), else nil.
    public var failure: GestureFailure? { pool.failure(of: index)?.failure }
    /// The failure with the other recognizer's id as a JSON string, for the encoder.
    var failureRecord: GesturePool.Failure? { pool.failure(of: index) }
    /// ``recognizer`` as a JSON string (quoted once, when the arena was built).
    var quotedRecognizer: [UInt8] { pool.entries[index].quotedRecognizer }
}

/// The gesture events of engine calls. Like ``TouchPool``: an ``EngineEvents``' own (only the
/// engine appends, and an event handed out of it gets a pool of its own), or one event's
/// alone; never written while another thread can read it, which is what makes
/// `@unchecked Sendable` sound.
final class GesturePool: @unchecked Sendable {
    struct Entry {
        var time: Timestamp
        var recognizer: String
        var quotedRecognizer: [UInt8]
        var kind: RecognizerKind
        var tree: ViewTree
        var view: ViewIndex
        var state: GestureState
        /// Its touches: `touchList` when `touchStart` is -1, else
        /// `touchIDs[touchStart ..< touchStart + touchCount]`.
        var touchList: [TouchID]
        var touchStart: Int
        var touchCount: Int
        var values: GestureValues
    }

    /// Why the recognizer of entry `entry` failed or was cancelled.
    struct Failure {
        var entry: Int
        var failure: GestureFailure
        /// ``GestureFailure/by`` as a JSON string.
        var quotedBy: [UInt8]?

        init(_ failure: GestureFailure, entry: Int, quotedBy: [UInt8]? = nil) {
            self.entry = entry
            self.failure = failure
            self.quotedBy = quotedBy ?? failure.by.map(JSONWriter.quoted)
        }

        init(_ other: Failure, entry: Int) {
            self = other
            self.entry = entry
        }
    }

    /// Unchecked exclusivity, as ``TouchPool/touches``.
    @exclusivity(unchecked) var entries: [Entry] = []
    /// The reasons of the entries whose state is `failed` or `cancelled`, in entry order: few,
    /// so kept apart from the entries (every `changed` of a pan would carry the room).
    @exclusivity(unchecked) var failures: [Failure] = []
    /// The touch ids of the entries whose recognizer holds fingers aside, each entry's in one
    /// range: the list without them was an array of its own, allocated for every event (a
    /// pinch with a third finger down).
    @exclusivity(unchecked) var touchIDs: [TouchID] = []

    /// Appends an entry with `touches`; returns its index.
    func add(time: Timestamp, recognizer: String, quotedRecognizer: [UInt8], kind: RecognizerKind, tree: ViewTree,
             view: ViewIndex, state: GestureState, touches: [TouchID], values: GestureValues) -> Int {
        add(time: time, recognizer: recognizer, quotedRecognizer: quotedRecognizer, kind: kind, tree: tree, view: view,
            state: state, touches: touches, ignoring: [], values: values)
    }

    /// Appends an entry whose touches are `touches` without those in `ignored`; returns its index.
    func add(time: Timestamp, recognizer: String, quotedRecognizer: [UInt8], kind: RecognizerKind, tree: ViewTree,
             view: ViewIndex, state: GestureState, touches: [TouchID], ignoring ignored: [TouchID],
             values: GestureValues) -> Int {
        // Nearly always nothing is held aside and the list is shared as it is (a retain);
        // otherwise the touches kept go into the pool's flat array, a range per entry.
        var start = -1
        var count = touches.count
        if !ignored.isEmpty {
            start = touchIDs.count
            for touch in touches where !ignored.contains(touch) { touchIDs.append(touch) }
            count = touchIDs.count - start
        }
        entries.append(Entry(time: time, recognizer: recognizer, quotedRecognizer: quotedRecognizer, kind: kind, tree: tree,
                             view: view, state: state, touchList: start < 0 ? touches : [], touchStart: start,
                             touchCount: count, values: values))
        return entries.count - 1
    }

    /// Gives entry `entry` (the last added) its failure: `reason`, caused by the recognizer `by`.
    func addFailure(_ reason: FailureReason, by: (id: String, quoted: [UInt8])?, to entry: Int) {
        var reason = reason
        reason.by = nil
        failures.append(Failure(GestureFailure(reason: reason, by: by?.id), entry: entry, quotedBy: by?.quoted))
    }

    /// The failure of entry `entry`, if it has one: searched from the end, where the entries
    /// of the current call are.
    func failure(of entry: Int) -> Failure? {
        var position = failures.count
        while position > 0 {
            position -= 1
            if failures[position].entry == entry { return failures[position] }
            if failures[position].entry < entry { return nil }
        }
        return nil
    }

    /// A pool of its own with the same entries (see ``TouchPool/copy()``).
    func copy() -> GesturePool {
        let copy = GesturePool()
        copy.entries = entries
        copy.touchIDs = touchIDs
        copy.failures = failures
        return copy
    }

    /// Empties the pool for reuse, keeping its storage.
    func removeAll() {
        entries.removeAll(keepingCapacity: true)
        touchIDs.removeAll(keepingCapacity: true)
        failures.removeAll(keepingCapacity: true)
    }
}

/// Why a recognizer failed or was cancelled, as its gesture event reports it.
public struct GestureFailure: Hashable, Sendable {
    public var reason: FailureReason
    /// The id of the recognizer that caused it (another that began or recognized), if one did.
    public var by: String?

    public init(reason: FailureReason, by: String? = nil) {
        self.reason = reason
        self.by = by
    }
}

/// The control events of `UIControl` (docs/touches.md, "Controls").
public enum ControlEventKind: String, Hashable, Sendable {
    case touchDown, touchDownRepeat, touchDragInside, touchDragOutside, touchDragEnter, touchDragExit
    case touchUpInside, touchUpOutside, touchCancel
}

/// A control event of a control that tracks a touch.
public struct ControlEvent: Sendable {
    public var time: Timestamp
    public var tree: ViewTree
    public var view: ViewIndex
    public var event: ControlEventKind
    public var touch: TouchID
}

/// The hit test of a touch that began, with its trace (only when tracing).
public struct HitTestEvent: Sendable {
    public var time: Timestamp
    /// `nil` for a hit test asked for a point, without a touch.
    public var touch: TouchID?
    public var location: Point
    public var tree: ViewTree
    public var view: ViewIndex?
    public var trace: HitTestTrace
}
