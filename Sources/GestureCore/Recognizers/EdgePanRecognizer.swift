/// Recognizes a one-finger pan whose finger lands within `edgeWidth` of one of `edges` of
/// the screen (UIScreenEdgePanGestureRecognizer); a continuous recognizer, transitions in
/// docs/recognizers.md § Edge pan.
///
/// It follows its first finger only: Apple's edge pan "ignores any touches beyond the first".
/// That finger must land in an edge band, or the edge pan fails at once; after that it is a
/// ``PanRecognizer`` of that one finger with the edge pan's `slop`, and every later finger is
/// held but ignored, so it reaches the views as if the edge pan were not there. A finger
/// exactly `edgeWidth` from the edge is in the band; a finger beyond the screen's edge is too.
struct EdgePanRecognizer: Sendable {
    /// Where the machine is; each case carries only what is valid in it.
    enum State: Sendable {
        /// The inner pan decides.
        case following
        /// Its first finger landed outside every band: failed; the inner pan only keeps the touch
        /// table up to date until `reset()`.
        case rejected
    }

    public let edges: [ScreenEdge]
    public let edgeWidth: Double
    public let screen: Rect

    private(set) var state: State = .following
    private var pan: PanRecognizer

    /// A machine with the parameters in force (``parameterKeys``).
    init(resolved p: ResolvedParameters, context: RecognizerContext) {
        edges = p.words("edges", as: ScreenEdge.self)
        edgeWidth = p.number("edgeWidth")
        screen = context.screen
        pan = PanRecognizer(followingFirstFingerWithSlop: p.number("slop"))
    }

    public var values: GestureValues { pan.values }
    /// Edge pans never wait for time.
    public var deadline: Timestamp? { nil }
    /// Its pan's touch table.
    var touches: RecognizerTouches { pan.touches }
    /// Impossible inputs ignored so far; kept across `reset()`.
    public var anomalies: Int { pan.anomalies }
    /// Why it last failed or was cancelled: its first finger outside every band, or its pan's reason.
    var failure: FailureReason? {
        switch state {
        case .following: pan.failure
        case .rejected: rejection
        }
    }
    /// Why its first finger was rejected: how far it landed from the nearest of its edges.
    private var rejection: FailureReason?
    /// Ended, cancelled or failed: the arena resets it once its touches have ended.
    public var isFinished: Bool {
        switch state {
        case .following: pan.isFinished
        case .rejected: true
        }
    }

    /// Feeds one input; returns what the machine wants.
    public mutating func handle(_ input: RecognizerInput) -> RecognizerVerdict {
        switch (state, input) {
        case (.following, .touchBegan(let s)):
            let first = pan.trackedTouchCount == 0
            let verdict = pan.handle(input)
            guard first, !inBand(s.location) else { return verdict }
            state = .rejected
            rejection = FailureReason(.outsideEdge, measured: edges.map { distance(of: s.location, from: $0) }.min(),
                                      limit: edgeWidth)
            return .failed
        case (.following, .touchMoved), (.following, .touchEnded), (.following, .touchCancelled),
             (.following, .frameEnd), (.following, .deadline):
            return pan.handle(input)
        case (.rejected, .touchBegan), (.rejected, .touchMoved), (.rejected, .touchEnded),
             (.rejected, .touchCancelled), (.rejected, .frameEnd), (.rejected, .deadline):
            _ = pan.handle(input)
            return .none
        }
    }

    /// Back to `possible`, forgetting every touch.
    public mutating func reset() {
        state = .following
        pan.reset()
    }

    /// Whether a landing point is within `edgeWidth` of one of the edges.
    func inBand(_ p: Point) -> Bool {
        edges.contains { distance(of: p, from: $0) <= edgeWidth }
    }

    /// How far inside the screen `p` is from `edge` (negative beyond it).
    private func distance(of p: Point, from edge: ScreenEdge) -> Double {
        switch edge {
        case .left: p.x - screen.minX
        case .right: screen.maxX - p.x
        case .top: p.y - screen.minY
        case .bottom: screen.maxY - p.y
        }
    }
}

/// A screen edge, for edge pans.
public enum ScreenEdge: String, Hashable, Sendable, CaseIterable {
    case left, right, top, bottom
}

/// `edgePan`: ``EdgePanRecognizer``.
extension RecognizerKind { public static let edgePan = RecognizerKind(EdgePanRecognizer.self) }

extension EdgePanRecognizer: RecognizerKindMachine {
    static var quotedName: StaticString { #""edgePan""# }

    /// No finger counts: an edge pan follows its first finger only (Apple).
    static var parameterKeys: [ParameterKey] {
        [.init("edges", .words(ScreenEdge.allCases.map(\.rawValue), noun: "a screen edge")),
         .init("edgeWidth", .points), .init("slop", .points)]
    }

    /// UIScreenEdgePanGestureRecognizer: its one finger must start within 20 pt of the edge;
    /// the pan's slop, 10 pt.
    static var defaults: RecognizerParameters {
        ["edges": ["left"], "edgeWidth": 20.0, "slop": 10.0]
    }
}
