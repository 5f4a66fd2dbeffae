/// A built-in recognizer kind (docs/recognizers.md): its name in configuration files and
/// gesture events, and the machine that implements it. Everything about one kind (its
/// parameters and defaults, their ranges, its state machine and the values it reports) lives
/// in the kind's own file, as a ``RecognizerKindMachine``; ``allCases`` is the one table that
/// registers it.
public struct RecognizerKind: Hashable, Sendable, RawRepresentable, CaseIterable, CustomStringConvertible {
    /// The kind's machine type, which also answers every question about the kind.
    let machine: any RecognizerKindMachine.Type

    init(_ machine: any RecognizerKindMachine.Type) {
        self.machine = machine
    }

    /// Every built-in kind, in the order configuration errors list them: the registration
    /// table. A new kind is one file and one entry here.
    public static let allCases: [RecognizerKind] = [.tap, .longPress, .pan, .swipe, .pinch, .rotation, .edgePan, .transform]

    /// The kind named `rawValue` in configuration files, or nil.
    public init?(rawValue: String) {
        guard let kind = Self.allCases.first(where: { $0.rawValue == rawValue }) else { return nil }
        self = kind
    }

    /// The kind's name in configuration files and gesture events (`"longPress"`).
    public var rawValue: String { machine.name }

    public var description: String { rawValue }

    /// Discrete recognizers go `possible → recognized | failed`; the others are continuous.
    public var isDiscrete: Bool { machine.isDiscrete }

    /// The parameters the kind accepts, as spelled in configuration files, with their units
    /// and ranges. Configuration reading and validation are driven by this table.
    public var parameterKeys: [ParameterKey] { machine.parameterKeys }

    /// The most bytes any kind's own values take in a gesture event
    /// (``RecognizerKindMachine/ownValuesLength``): the encoder's room for them.
    static let maximumOwnValuesLength = allCases.map { $0.machine.ownValuesLength }.max() ?? 0

    public static func == (lhs: RecognizerKind, rhs: RecognizerKind) -> Bool {
        ObjectIdentifier(lhs.machine) == ObjectIdentifier(rhs.machine)
    }

    public func hash(into hasher: inout Hasher) {
        hasher.combine(ObjectIdentifier(machine))
    }
}

/// One recognizer kind as the engine knows it, conformed to by the kind's machine in the
/// kind's own file: what the kind is (its name, parameters, defaults and the arena's facts
/// about it) and how the arena drives it (docs/recognizers.md § Driving a machine).
///
/// ``AnyRecognizer`` keeps a machine in a ``MachineBox`` and reaches it through the kind's
/// static witnesses (the last group below, which every kind takes as they are written in
/// the extension): a call through the kind's metatype lands in a copy specialised for the
/// kind, and the machine is changed in place, where an enum of machines moved the
/// 200–300-byte machine out and back on every input (docs/performance.md § One file per
/// recognizer kind).
protocol RecognizerKindMachine: Sendable {
    /// The name in configuration files and gesture events as a quoted JSON string, written
    /// into every gesture event as constant text: the one place a kind spells its name.
    static var quotedName: StaticString { get }
    /// Discrete (`possible → recognized | failed`) or continuous (the default).
    static var isDiscrete: Bool { get }
    /// The parameters the kind accepts (configuration keys, units, ranges).
    static var parameterKeys: [ParameterKey] { get }
    /// Every parameter of ``parameterKeys`` at its built-in value, with the unit and where
    /// the number came from beside it: the one place a kind's defaults are written.
    static var defaults: RecognizerParameters { get }
    /// `parameters` (defaults, then the `gestures` overrides, then the recognizer's own
    /// values) completed with values the kind takes from other settings (a long press's taps
    /// follow the tap rules). The default returns them unchanged.
    static func completing(_ parameters: RecognizerParameters, settings: GestureSettings) -> RecognizerParameters
    /// Whether the recognizer gives way to a control under its touch (a single tap does).
    /// False by default.
    static func yieldsToControls(_ parameters: ResolvedParameters) -> Bool
    /// How many lifted touches its sequence keeps (``RecognizerSlot``); by default as many as
    /// fingers can be down.
    static func liftedTouchLimit(_ parameters: ResolvedParameters) -> Int
    /// Writes the values a gesture event of the kind carries after its `touches` (docs/events.md
    /// § `gesture`), each with its leading comma. The default writes the shared fields of
    /// ``GestureValues`` that are set; a kind with values of its own (``GestureValues/own``)
    /// writes them too, in its own file.
    static func encodeValues(_ values: GestureValues, _ out: inout JSONWriter.Cursor)
    /// The most bytes ``encodeValues(_:_:)`` writes beyond what the shared fields take
    /// (``EventEncoder``'s room for a gesture event); 0 by default.
    static var ownValuesLength: Int { get }

    /// A machine with `parameters` in force, every key of ``parameterKeys`` set.
    init(resolved parameters: ResolvedParameters, context: RecognizerContext)

    /// Feeds one input; returns what the machine wants.
    mutating func handle(_ input: RecognizerInput) -> RecognizerVerdict
    /// Back to `possible`, forgetting every touch.
    mutating func reset()
    /// The next time the machine needs a `.deadline` input, or nil.
    var deadline: Timestamp? { get }
    /// Impossible inputs ignored so far; kept across `reset()`.
    var anomalies: Int { get }
    /// The current values (valid after began/changed/ended/recognized).
    var values: GestureValues { get }
    /// The touches it holds, in the order they began, and which it holds aside.
    var touches: RecognizerTouches { get }
    /// After a terminal verdict, until `reset()`.
    var isFinished: Bool { get }
    /// Why it last failed or was cancelled (valid with a `.failed` or `.cancelled` verdict).
    var failure: FailureReason? { get }

    /// ``handle(_:)``, then the machine's deadline and anomaly count handed out within the
    /// same access (one call through the kind's witness instead of three).
    mutating func handle(_ input: RecognizerInput, deadline: inout Timestamp?, anomalies: inout Int) -> RecognizerVerdict
    /// A move of `sample`'s touch answered without ``handle(_:)`` when the machine does not
    /// judge moves (its touch table updated, as `handle` would): true. False, having done
    /// nothing, for a machine that judges moves (the default). The caller has checked the
    /// deadline. A kind whose machine does not judge moves implements it in its own file,
    /// where its type is concrete: a default written once for every such machine reached
    /// the touch table through the protocol's `modify` accessor, a call and a coroutine
    /// resumed for every move (docs/performance.md § One file per recognizer kind).
    mutating func quietMove(_ sample: TouchSample, anomalies: inout Int) -> Bool
    /// Whether it holds `touch`, and holds it aside, in one search of its touch table.
    func touchStatus(_ touch: TouchID) -> TouchStatus

    // A machine of the kind at `machine`, memory that ``allocate(_:context:)`` returned, as
    // ``AnyRecognizer`` reaches it. Requirements with the one implementation below, so that
    // a call through the kind's metatype runs that implementation specialised for the kind,
    // inlined into the kind's witness (one call per input). The conforming type must not be
    // generic: a generic type's witnesses run unspecialised (``TwoFingerKind``).

    /// New memory holding a machine with `parameters` in force.
    static func allocate(_ parameters: ResolvedParameters, context: RecognizerContext) -> UnsafeMutableRawPointer
    /// New memory holding a copy of the machine.
    static func copy(_ machine: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer
    /// Destroys the machine and frees its memory.
    static func destroy(_ machine: UnsafeMutableRawPointer)
    /// ``handle(_:deadline:anomalies:)`` on the machine.
    static func handle(_ machine: UnsafeMutableRawPointer, _ input: RecognizerInput,
                       deadline: inout Timestamp?, anomalies: inout Int) -> RecognizerVerdict
    /// ``quietMove(_:anomalies:)`` on the machine.
    static func moveQuietly(_ machine: UnsafeMutableRawPointer, _ sample: TouchSample, anomalies: inout Int) -> Bool
    /// Resets the machine; returns its deadline after.
    static func reset(_ machine: UnsafeMutableRawPointer) -> Timestamp?
    /// The machine's ``values``.
    static func values(_ machine: UnsafeMutableRawPointer) -> GestureValues
    /// The touches the machine holds, in the order they began (allocates).
    static func touchIDs(_ machine: UnsafeMutableRawPointer) -> [TouchID]
    /// How many touches the machine holds.
    static func touchCount(_ machine: UnsafeMutableRawPointer) -> Int
    /// ``touchStatus(_:)`` of the machine.
    static func touchStatus(_ machine: UnsafeMutableRawPointer, _ touch: TouchID) -> TouchStatus
    /// The machine's ``isFinished``.
    static func isFinished(_ machine: UnsafeMutableRawPointer) -> Bool
    /// The machine's ``failure``.
    static func failure(_ machine: UnsafeMutableRawPointer) -> FailureReason?
}

extension RecognizerKindMachine {
    @inline(__always)
    private static func typed(_ machine: UnsafeMutableRawPointer) -> UnsafeMutablePointer<Self> {
        machine.assumingMemoryBound(to: Self.self)
    }

    @inline(__always)
    static func allocate(_ parameters: ResolvedParameters, context: RecognizerContext) -> UnsafeMutableRawPointer {
        let memory = UnsafeMutablePointer<Self>.allocate(capacity: 1)
        memory.initialize(to: Self(resolved: parameters, context: context))
        return UnsafeMutableRawPointer(memory)
    }

    @inline(__always)
    static func copy(_ machine: UnsafeMutableRawPointer) -> UnsafeMutableRawPointer {
        let memory = UnsafeMutablePointer<Self>.allocate(capacity: 1)
        memory.initialize(to: typed(machine).pointee)
        return UnsafeMutableRawPointer(memory)
    }

    @inline(__always)
    static func destroy(_ machine: UnsafeMutableRawPointer) {
        typed(machine).deinitialize(count: 1)
        typed(machine).deallocate()
    }

    @inline(__always)
    static func handle(_ machine: UnsafeMutableRawPointer, _ input: RecognizerInput,
                       deadline: inout Timestamp?, anomalies: inout Int) -> RecognizerVerdict {
        typed(machine).pointee.handle(input, deadline: &deadline, anomalies: &anomalies)
    }

    @inline(__always)
    static func moveQuietly(_ machine: UnsafeMutableRawPointer, _ sample: TouchSample, anomalies: inout Int) -> Bool {
        typed(machine).pointee.quietMove(sample, anomalies: &anomalies)
    }

    @inline(__always)
    static func reset(_ machine: UnsafeMutableRawPointer) -> Timestamp? {
        typed(machine).pointee.reset()
        return typed(machine).pointee.deadline
    }

    @inline(__always)
    static func values(_ machine: UnsafeMutableRawPointer) -> GestureValues { typed(machine).pointee.values }

    @inline(__always)
    static func touchIDs(_ machine: UnsafeMutableRawPointer) -> [TouchID] { typed(machine).pointee.touches.ids }

    @inline(__always)
    static func touchCount(_ machine: UnsafeMutableRawPointer) -> Int { typed(machine).pointee.touches.count }

    @inline(__always)
    static func touchStatus(_ machine: UnsafeMutableRawPointer, _ touch: TouchID) -> TouchStatus {
        typed(machine).pointee.touchStatus(touch)
    }

    @inline(__always)
    static func isFinished(_ machine: UnsafeMutableRawPointer) -> Bool { typed(machine).pointee.isFinished }

    static func failure(_ machine: UnsafeMutableRawPointer) -> FailureReason? { typed(machine).pointee.failure }
}

extension RecognizerKindMachine {
    /// The name in configuration files and gesture events: ``quotedName`` without its quotes.
    static var name: String {
        quotedName.withUTF8Buffer { String(decoding: $0.dropFirst().dropLast(), as: UTF8.self) }
    }

    static var isDiscrete: Bool { false }

    static func completing(_ parameters: RecognizerParameters, settings: GestureSettings) -> RecognizerParameters {
        parameters
    }

    static func yieldsToControls(_ parameters: ResolvedParameters) -> Bool { false }

    static func liftedTouchLimit(_ parameters: ResolvedParameters) -> Int { LayoutLimits.touches.upperBound }

    static var ownValuesLength: Int { 0 }

    /// The shared fields that are set, in the order docs/events.md lists them. UIKit names the
    /// pinch's and the rotation's rate `velocity`.
    static func encodeValues(_ v: GestureValues, _ out: inout JSONWriter.Cursor) {
        encodeSharedValues(v, namingRates: false, &out)
        encodeDirection(v, &out)
    }

    /// The shared fields of `v` that are set. A scale's or rotation's rate is `velocity`, as
    /// UIKit names both, unless `namingRates` (a kind that reports both names them apart:
    /// `scaleVelocity`, `rotationVelocity`).
    @inline(__always)
    static func encodeSharedValues(_ v: GestureValues, namingRates: Bool, _ out: inout JSONWriter.Cursor) {
        if let taps = v.taps { out.raw(#","taps":"#); out.int(taps) }
        if let t = v.translation {
            out.raw(#","translationX":"#); out.number(t.x)
            out.raw(#","translationY":"#); out.number(t.y)
        }
        if let velocity = v.velocity {
            out.raw(#","velocityX":"#); out.number(velocity.x)
            out.raw(#","velocityY":"#); out.number(velocity.y)
        }
        if let scale = v.scale { out.raw(#","scale":"#); out.number(scale) }
        if let rotation = v.rotation { out.raw(#","rotation":"#); out.number(rotation) }
        if let scaleRate = v.scaleVelocity {
            if namingRates { out.raw(#","scaleVelocity":"#) } else { out.raw(#","velocity":"#) }
            out.number(scaleRate)
        }
        if let turnRate = v.rotationVelocity {
            if namingRates { out.raw(#","rotationVelocity":"#) } else { out.raw(#","velocity":"#) }
            out.number(turnRate)
        }
    }

    /// A swipe's direction, when set (after the shared numbers, as docs/events.md lists it).
    @inline(__always)
    static func encodeDirection(_ v: GestureValues, _ out: inout JSONWriter.Cursor) {
        if let direction = v.direction {
            out.raw(#","direction":"#)
            out.plainString(direction.rawValue)
        }
    }

    @inline(__always)
    mutating func handle(_ input: RecognizerInput, deadline: inout Timestamp?, anomalies: inout Int) -> RecognizerVerdict {
        let verdict = handle(input)
        deadline = self.deadline
        anomalies = self.anomalies
        return verdict
    }

    mutating func quietMove(_ sample: TouchSample, anomalies: inout Int) -> Bool { false }

    func touchStatus(_ touch: TouchID) -> TouchStatus {
        guard let index = touches.index(of: touch) else { return TouchStatus(tracking: false, ignoring: false) }
        return TouchStatus(tracking: true, ignoring: touches.entries[index].ignored)
    }
}

/// Whether a recognizer holds a touch, and holds it aside. A struct, not a tuple: a tuple
/// returned through an unspecialised call was looked up in the runtime's tuple metadata
/// cache on every call.
struct TouchStatus: Sendable {
    var tracking: Bool
    var ignoring: Bool
}
