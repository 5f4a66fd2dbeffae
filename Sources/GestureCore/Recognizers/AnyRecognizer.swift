/// One recognizer state machine of any kind, so the arena can hold them in one array.
///
/// How to drive it (docs/recognizers.md § Driving a machine): give it, per input frame, the
/// frame's touch changes for the touches attached to it, in frame order, then `.frameEnd`
/// with the frame's time. Before a frame at time t, give `.deadline(d)` for a reported
/// `deadline` d ≤ t (a machine also fires an overdue deadline itself when an input at or
/// after it arrives). After a terminal verdict it returns `.none` to everything, still
/// forgetting touches that end; call `reset()` once `trackedTouchCount` is 0.
public struct AnyRecognizer: Sendable {
    /// The kind's machine behind one class reference, so that a slot of the arena stays a
    /// plain value (an `any` machine made every slot a value the compiler copies through its
    /// witnesses: +21 % instructions, docs/performance.md § One file per recognizer kind).
    /// Copy-on-write: a storage that another value also holds is copied before it changes.
    private var storage: RecognizerStorage

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
        storage = parameters.kind.machine.storage(parameters, context: context)
        deadline = nil
    }

    /// The storage, copied first if another value holds it too.
    @inline(__always)
    private mutating func unique() {
        if !isKnownUniquelyReferenced(&storage) { storage = storage.copy() }
    }

    public mutating func handle(_ input: RecognizerInput) -> RecognizerVerdict {
        unique()
        return storage.handle(input, deadline: &deadline, anomalies: &anomalies)
    }

    /// A move of `sample`'s touch, answered without ``handle(_:)`` when the machine does not
    /// judge moves (a pan, a pinch, a rotation: they judge movement at the frame's end) and
    /// no deadline is due: its touch table is updated, as `handle` would, and it returns true.
    /// False, having done nothing, for the other machines: give them `handle(.touchMoved)`.
    @inline(__always)
    mutating func moveQuietly(_ sample: TouchSample) -> Bool {
        if let deadline, sample.time >= deadline { return false }
        unique()
        return storage.quietMove(sample, anomalies: &anomalies)
    }

    public mutating func reset() {
        unique()
        deadline = storage.reset()
    }

    /// The current values (valid after began/changed/ended/recognized).
    public var values: GestureValues { storage.values }

    /// The touches it holds (down, delivered to it), in the order they began. Allocates:
    /// prefer `trackedTouchCount` and `isTracking(_:)` per frame.
    public var trackedTouches: [TouchID] { storage.touches.ids }

    public var trackedTouchCount: Int { storage.touches.count }

    public func isTracking(_ touch: TouchID) -> Bool { storage.touchStatus(touch).tracking }

    /// Whether it holds `touch` aside, not as part of its gesture: a finger beyond the ones
    /// it follows (docs/recognizers.md). Such a touch reaches the views as if the recognizer
    /// were not there.
    public func isIgnoring(_ touch: TouchID) -> Bool { storage.touchStatus(touch).ignoring }

    /// Whether it holds `touch`, and holds it aside: ``isTracking(_:)`` and
    /// ``isIgnoring(_:)`` in one search.
    func touchStatus(_ touch: TouchID) -> TouchStatus { storage.touchStatus(touch) }

    /// After a terminal verdict, until `reset()`.
    public var isFinished: Bool { storage.isFinished }
}

/// Where an ``AnyRecognizer`` keeps its machine: one subclass per kind
/// (``MachineStorage``), whose overrides call the kind's machine directly.
///
/// `@unchecked Sendable`: the only holder is ``AnyRecognizer``, which copies a storage before
/// every change unless its reference is the only one (`isKnownUniquelyReferenced`, as
/// `Array` does). A storage reachable from two values is therefore never written, so no two
/// threads can reach one machine while either writes it.
class RecognizerStorage: @unchecked Sendable {
    func handle(_ input: RecognizerInput, deadline: inout Timestamp?, anomalies: inout Int) -> RecognizerVerdict {
        Self.abstract()
    }
    func quietMove(_ sample: TouchSample, anomalies: inout Int) -> Bool { Self.abstract() }
    /// Resets the machine; returns its deadline after.
    func reset() -> Timestamp? { Self.abstract() }
    var values: GestureValues { Self.abstract() }
    var touches: RecognizerTouches { Self.abstract() }
    func touchStatus(_ touch: TouchID) -> TouchStatus { Self.abstract() }
    var isFinished: Bool { Self.abstract() }
    /// A new storage holding a copy of the machine.
    func copy() -> RecognizerStorage { Self.abstract() }

    private static func abstract() -> Never {
        preconditionFailure("engine bug: RecognizerStorage is only made as a MachineStorage")
    }
}

/// One kind's machine in its own allocation, reached through a pointer: a class's stored
/// property would be checked for exclusive access at run time on every input.
final class MachineStorage<Machine: RecognizerKindMachine>: RecognizerStorage, @unchecked Sendable {
    private let machine: UnsafeMutablePointer<Machine>

    init(_ machine: Machine) {
        self.machine = .allocate(capacity: 1)
        self.machine.initialize(to: machine)
    }

    deinit {
        machine.deinitialize(count: 1)
        machine.deallocate()
    }

    override func handle(_ input: RecognizerInput, deadline: inout Timestamp?, anomalies: inout Int) -> RecognizerVerdict {
        machine.pointee.handle(input, deadline: &deadline, anomalies: &anomalies)
    }

    override func quietMove(_ sample: TouchSample, anomalies: inout Int) -> Bool {
        machine.pointee.quietMove(sample, anomalies: &anomalies)
    }

    override func reset() -> Timestamp? {
        machine.pointee.reset()
        return machine.pointee.deadline
    }

    override var values: GestureValues { machine.pointee.values }
    override var touches: RecognizerTouches { machine.pointee.touches }

    override func touchStatus(_ touch: TouchID) -> TouchStatus {
        machine.pointee.touchStatus(touch)
    }

    override var isFinished: Bool { machine.pointee.isFinished }

    override func copy() -> RecognizerStorage { MachineStorage(machine.pointee) }
}

extension RecognizerKindMachine {
    /// A machine of this kind with `parameters` in force, in its storage.
    static func storage(_ parameters: ResolvedParameters, context: RecognizerContext) -> RecognizerStorage {
        MachineStorage(Self(resolved: parameters, context: context))
    }
}
