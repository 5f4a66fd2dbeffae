/// One recognizer state machine of any kind, so the arena can hold them in one array.
///
/// How to drive it (docs/recognizers.md § Driving a machine): give it, per input frame, the
/// frame's touch changes for the touches attached to it, in frame order, then `.frameEnd`
/// with the frame's time. Before a frame at time t, give `.deadline(d)` for a reported
/// `deadline` d ≤ t (a machine also fires an overdue deadline itself when an input at or
/// after it arrives). After a terminal verdict it returns `.none` to everything, still
/// forgetting touches that end; call `reset()` once `trackedTouchCount` is 0.
public struct AnyRecognizer: Sendable {
    /// The kind's machine in its own allocation, behind one class reference, so that a slot
    /// of the arena stays a small plain value; every call reaches the machine through its
    /// kind's static witnesses (``RecognizerKindMachine``), each specialised for its kind
    /// (docs/performance.md § One file per recognizer kind). Copy-on-write: a box that
    /// another value also holds is copied before it changes, checked here for every change
    /// except on the arena's path, where ``SlotBanks/claimMachines()`` checks once per call
    /// into the engine (``handleOwned(_:)``, ``moveQuietly(_:)``).
    private var box: MachineBox

    public let kind: RecognizerKind
    /// The next time the machine needs a `.deadline` input, or nil. Kept here after every
    /// input, because the arena asks for it twice per frame for every recognizer.
    public private(set) var deadline: Timestamp?
    /// Impossible inputs ignored so far (never reset): a sign of an arena or input bug. Kept
    /// here after every input, like ``deadline``.
    public private(set) var anomalies = 0

    /// `parameters` as resolved by ``GestureSettings/resolved(_:)``.
    public init(parameters: ResolvedParameters, context: RecognizerContext) {
        kind = parameters.kind
        box = MachineBox(kind.machine, kind.machine.allocate(parameters, context: context))
        deadline = nil
    }

    /// The kind's machine type: its static witnesses reach the machine in the box.
    @inline(__always)
    private var machine: any RecognizerKindMachine.Type { kind.machine }

    /// The box, copied first if another value holds it too.
    @inline(__always)
    private mutating func unique() {
        if !isKnownUniquelyReferenced(&box) { box = box.copy() }
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerVerdict {
        unique()
        return machine.handle(box.address, input, deadline: &deadline, anomalies: &anomalies)
    }

    /// ``handle(_:)`` without the copy-on-write check: the caller has made sure that no
    /// other value holds the box (the arena, once per call into the engine:
    /// ``SlotBanks/claimMachines()``). Checked in debug builds.
    @inline(__always)
    mutating func handleOwned(_ input: RecognizerInput) -> RecognizerVerdict {
        assert(isKnownUniquelyReferenced(&box), "a machine shared with another value was changed in place")
        return machine.handle(box.address, input, deadline: &deadline, anomalies: &anomalies)
    }

    /// Whether no other value holds the machine (the arena's debug checks).
    mutating func ownsMachine() -> Bool { isKnownUniquelyReferenced(&box) }

    /// Gives this value a machine of its own, a copy, if another value holds its box too.
    mutating func makeMachineOwned() { unique() }

    /// A move of `sample`'s touch, answered without ``handle(_:)`` when the machine does not
    /// judge moves (a pan, a pinch, a rotation: they judge movement at the frame's end) and
    /// no deadline is due: its touch table is updated, as `handle` would, and it returns true.
    /// False, having done nothing, for the other machines: give them `handle(.touchMoved)`.
    /// The caller has made sure that no other value holds the box, as for ``handleOwned(_:)``.
    @inline(__always)
    mutating func moveQuietly(_ sample: TouchSample) -> Bool {
        if let deadline, sample.time >= deadline { return false }
        assert(isKnownUniquelyReferenced(&box), "a machine shared with another value was changed in place")
        return machine.moveQuietly(box.address, sample, anomalies: &anomalies)
    }

    public mutating func reset() {
        unique()
        deadline = machine.reset(box.address)
    }

    /// The current values (valid after began/changed/ended/recognized).
    public var values: GestureValues { machine.values(box.address) }

    /// The touches it holds (down, delivered to it), in the order they began. Allocates:
    /// prefer `trackedTouchCount` and `isTracking(_:)` per frame.
    public var trackedTouches: [TouchID] { machine.touchIDs(box.address) }

    public var trackedTouchCount: Int { machine.touchCount(box.address) }

    public func isTracking(_ touch: TouchID) -> Bool { touchStatus(touch).tracking }

    /// Whether it holds `touch` aside, not as part of its gesture: a finger beyond the ones
    /// it follows (docs/recognizers.md). Such a touch reaches the views as if the recognizer
    /// were not there.
    public func isIgnoring(_ touch: TouchID) -> Bool { touchStatus(touch).ignoring }

    /// Whether it holds `touch`, and holds it aside: ``isTracking(_:)`` and
    /// ``isIgnoring(_:)`` in one search.
    func touchStatus(_ touch: TouchID) -> TouchStatus { machine.touchStatus(box.address, touch) }

    /// After a terminal verdict, until `reset()`.
    public var isFinished: Bool { machine.isFinished(box.address) }

    /// Why it last failed or was cancelled: read with a `.failed` or `.cancelled` verdict.
    public var failure: FailureReason? { machine.failure(box.address) }
}

/// One machine's allocation, which ``AnyRecognizer`` holds: memory laid out for the kind's
/// machine type, made, copied and destroyed through that type's static witnesses. Final and
/// not generic, so holding it costs one reference and no call goes through a class's table.
/// The machine sits behind a pointer, not in a stored property: a class's stored property is
/// checked for exclusive access at run time on every access.
///
/// `@unchecked Sendable`: its only holder is ``AnyRecognizer``, which copies a box before
/// every change unless its reference is the only one (`isKnownUniquelyReferenced`, as
/// `Array` does), or, on the arena's path, changes it only after ``SlotBanks/claimMachines()``
/// made every box of the arena its own. A box reachable from two values is therefore never
/// written, so no two threads can reach one machine while either writes it.
final class MachineBox: @unchecked Sendable {
    /// The machine's memory, initialised to a machine of ``kind``.
    let address: UnsafeMutableRawPointer
    private let kind: any RecognizerKindMachine.Type

    init(_ kind: any RecognizerKindMachine.Type, _ address: UnsafeMutableRawPointer) {
        self.kind = kind
        self.address = address
    }

    deinit { kind.destroy(address) }

    /// A new box holding a copy of the machine.
    func copy() -> MachineBox { MachineBox(kind, kind.copy(address)) }
}
