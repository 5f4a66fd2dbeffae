/// One recognizer of a layout inside the arena: its machine, its public state and the touches
/// of its current sequence (since its last reset).
struct RecognizerSlot {
    let spec: RecognizerSpec
    let tree: ViewTree
    /// The view it is attached to.
    let view: ViewIndex
    var machine: AnyRecognizer
    var state: GestureState = .possible
    /// A `began` or `recognized` the machine asked for while a recognizer it requires to fail
    /// was still undecided (SPEC 5.6 `requireToFail`).
    var pending: RecognizerVerdict?
    /// Touches of the current sequence still down at the input.
    var activeTouches: [TouchID] = []
    /// Every touch of the current sequence, down or lifted (a double tap owns both taps).
    var sequenceTouches: [TouchID] = []
    /// Arena indices of the recognizers named by `requireToFail`.
    var requiredToFail: [Int] = []
    /// Arena indices of the recognizers it may recognize together with (either side's
    /// `simultaneousWith`).
    var simultaneous: [Int] = []
    /// The layout was replaced: the slot finishes its current sequence and takes no new touches.
    var retired = false
    let cancelsTouchesInView: Bool
    let delaysTouchesBegan: Bool
    let delaysTouchesEnded: Bool
    /// The most touches it can hold at once; more are not given to it (SPEC 5.2).
    let touchCapacity: Int

    init(spec: RecognizerSpec, tree: ViewTree, view: ViewIndex, parameters: RecognizerParameters,
         context: RecognizerContext) {
        self.spec = spec
        self.tree = tree
        self.view = view
        machine = AnyRecognizer(kind: spec.kind, parameters: parameters, context: context)
        cancelsTouchesInView = spec.cancelsTouchesInView ?? true
        delaysTouchesBegan = spec.delaysTouchesBegan ?? false
        delaysTouchesEnded = spec.delaysTouchesEnded ?? true
        switch spec.kind {
        case .tap, .longPress, .swipe: touchCapacity = parameters.touches ?? 1
        case .pan, .edgePan: touchCapacity = parameters.maximumTouches ?? Int.max
        case .pinch, .rotation: touchCapacity = 2
        }
    }

    /// Received touches since its last reset.
    var isEngaged: Bool { !sequenceTouches.isEmpty }

    /// Recognized, or began and not yet ended: it owns its touches.
    var isActive: Bool { state == .began || state == .changed || state == .recognized }

    var isTerminal: Bool {
        switch state {
        case .recognized, .ended, .cancelled, .failed: true
        case .possible, .began, .changed: false
        }
    }

    func shares(_ other: RecognizerSlot) -> Bool {
        sequenceTouches.contains { other.sequenceTouches.contains($0) }
    }
}
