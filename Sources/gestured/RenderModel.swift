import GestureCore

/// What `gestured render` draws, gathered from one replay (``RenderCollector``) and bounded by
/// ``RenderLimits``: the view tree, every touch drawn with its path and the view it hit, each
/// recognizer's changes of state, the control events. Times are microseconds since the
/// recording's start, so that two renders of one recording compare equal.
struct RenderModel {
    /// A view of the layout, with its frame in screen points.
    struct View {
        var id: String
        var frame: Rect
        var isControl: Bool
        var isHidden: Bool
        /// Its recognizers' ids and kinds, in the layout's order.
        var recognizers: [(id: String, kind: String)]
    }

    /// A position of a touch at a time.
    struct Sample {
        var time: Int64
        var location: Point
    }

    /// One touch, from where it landed to where it lifted (or was cancelled).
    struct Touch {
        var id: Int
        var began: Int64
        /// When it lifted or was cancelled; nil if the replay never said (it cannot, as a replay
        /// cancels every touch still down at its end).
        var end: Int64?
        /// `ended` or `cancelled`, once it has ended.
        var endPhase: String?
        /// The hit view (the `hitTest` event's), nil when no view took the touch.
        var hitView: String?
        /// The responders of the touch's first delivery, hit view first (empty: never delivered).
        var responders: [String] = []
        /// The recognizers whose gesture took the touch (the `contacts` events' `recognizer`), in
        /// the order they first did.
        var recognizers: [String] = []
        /// The points kept (``RenderLimits/pointsPerTouch``): every `stride`th sample, and the last.
        var points: [Sample] = []
        var samples = 0
        var stride = 1
        /// The last sample, drawn even when the stride skips it.
        var last: Sample
        /// Time ticks: where the touch was every `tickInterval` since it began.
        var ticks: [Sample] = []
        var tickInterval = RenderLimits.tickInterval
        var nextTick: Int64
    }

    /// A change of a recognizer's state, as its `gesture` event said.
    struct Transition {
        var time: Int64
        var state: GestureState
        var touches: [Int]
        /// For `failed`: what else happened at that instant (``RenderCollector`` says how it is
        /// told); nil otherwise.
        var context: String?
        /// For `failed` and `cancelled`: why, as the event's `reason` said it
        /// (``RenderText/reason(_:measured:limit:by:)``); nil when it said none.
        var reason: String?
    }

    /// A recognizer of the layout and its changes of state.
    struct Recognizer {
        var id: String
        var kind: String
        var view: String
        var transitions: [Transition] = []
        var transitionsLeftOut = 0
        /// The state of its last event (a `changed` after `began` is not a change of state).
        var lastState: GestureState?
    }

    /// A control event.
    struct Control {
        var time: Int64
        var view: String
        var event: String
        var touch: Int
    }

    struct Warning {
        var time: Int64
        var message: String
    }

    var configuration: String
    var recording: String
    var screenID: String
    var device = ""
    var screenSize: Size
    var views: [View] = []
    var viewsLeftOut = 0
    var touches: [Touch] = []
    var touchesLeftOut = 0
    var recognizers: [Recognizer] = []
    var controls: [Control] = []
    var controlsLeftOut = 0
    var warnings: [Warning] = []
    var warningsLeftOut = 0
    /// The time of the replay's last event.
    var duration: Int64 = 0

    /// The model's views and recognizers from the layout's tree; no touch yet.
    init(configuration: String, recording: String, screenID: String, screenSize: Size, tree: ViewTree) {
        self.configuration = configuration
        self.recording = recording
        self.screenID = screenID
        self.screenSize = screenSize
        for index in 0..<tree.count {
            let node = tree[index]
            guard views.count < RenderLimits.views else {
                viewsLeftOut += 1
                continue
            }
            let frame = Rect(x: node.screenOrigin.x, y: node.screenOrigin.y, width: node.spec.frame.size.width,
                             height: node.spec.frame.size.height)
            views.append(View(id: node.spec.id, frame: frame,
                              isControl: node.spec.kind == .control, isHidden: node.spec.hidden,
                              recognizers: node.spec.recognizers.map { ($0.id, $0.kind.rawValue) }))
        }
        recognizers = tree.recognizers.map { entry in
            Recognizer(id: entry.spec.id, kind: entry.spec.kind.rawValue, view: tree.id(of: entry.view))
        }
    }
}
