/// Recognizes a pan whose fingers land within `edgeWidth` of one of `edges` of the screen
/// (UIScreenEdgePanGestureRecognizer); a continuous recognizer, transitions in
/// docs/recognizers.md § Edge pan.
///
/// While the pan has not begun, every finger must land in an edge band, or the edge pan
/// fails at once; after that it is exactly a ``PanRecognizer`` with the edge pan's
/// `minimumTouches`, `maximumTouches` and `slop`. A finger exactly `edgeWidth` from the edge
/// is in the band; a finger beyond the screen's edge is too.
struct EdgePanRecognizer: Sendable {
    /// Where the machine is; each case carries only what is valid in it.
    enum State: Sendable {
        /// The inner pan decides.
        case following
        /// A finger landed outside every band: failed; the inner pan only keeps the touch
        /// table up to date until `reset()`.
        case rejected
    }

    public let edges: [ScreenEdge]
    public let edgeWidth: Double
    public let screen: Rect

    private(set) var state: State = .following
    private var pan: PanRecognizer

    public init(parameters: RecognizerParameters, context: RecognizerContext) {
        let defaults = GestureSettings.defaults(for: .edgePan)
        edges = parameters.edges ?? defaults.edges ?? [.left]
        edgeWidth = parameters.edgeWidth ?? defaults.edgeWidth ?? 20
        screen = context.screen
        pan = PanRecognizer(parameters: parameters, defaults: defaults)
    }

    public var values: GestureValues { pan.values }
    /// Edge pans never wait for time.
    public var deadline: Timestamp? { nil }
    public var trackedTouches: [TouchID] { pan.trackedTouches }
    public var trackedTouchCount: Int { pan.trackedTouchCount }
    public func isTracking(_ touch: TouchID) -> Bool { pan.isTracking(touch) }
    /// Impossible inputs ignored so far; kept across `reset()`.
    public var anomalies: Int { pan.anomalies }
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
            let verdict = pan.handle(input)
            guard !pan.isFinished, !pan.hasBegun, !inBand(s.location) else { return verdict }
            state = .rejected
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
        edges.contains { edge in
            switch edge {
            case .left: p.x - screen.minX <= edgeWidth
            case .right: screen.maxX - p.x <= edgeWidth
            case .top: p.y - screen.minY <= edgeWidth
            case .bottom: screen.maxY - p.y <= edgeWidth
            }
        }
    }
}
