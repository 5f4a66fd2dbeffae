/// One view of a layout as the configuration describes it (docs/layout.md, "Views"). A tree of these is
/// compiled into a ``ViewTree`` after validation.
public struct ViewSpec: Hashable, Sendable {
    public var id: String
    /// In the superview's coordinate space (the root's is the screen).
    public var frame: Rect
    /// Back to front: later entries are in front of earlier ones.
    public var subviews: [ViewSpec]
    public var hidden: Bool
    public var alpha: Double
    public var userInteractionEnabled: Bool
    public var hitOutset: EdgeInsets
    public var hitTest: HitTestOverride
    public var passThrough: Bool
    public var kind: ViewKind
    /// `nil` means the default of the kind: `true` for controls, `false` for views.
    public var handlesTouchesOverride: Bool?
    public var multipleTouchEnabled: Bool
    public var exclusiveTouch: Bool
    /// Controls only: how far outside its bounds a tracked touch still counts as inside
    /// (`nil`: the global default of ``GestureSettings``).
    public var trackingSlop: Double?
    public var recognizers: [RecognizerSpec]
    /// How touches that begin on this view are routed (docs/routing.md); `nil`: the
    /// superview's rule (the root's: the configuration's `routing.default`).
    public var routing: RoutingRule?

    public init(id: String, frame: Rect, subviews: [ViewSpec] = [], hidden: Bool = false, alpha: Double = 1,
                userInteractionEnabled: Bool = true, hitOutset: EdgeInsets = .zero,
                hitTest: HitTestOverride = .default, passThrough: Bool = false, kind: ViewKind = .view,
                handlesTouches: Bool? = nil, multipleTouchEnabled: Bool = false, exclusiveTouch: Bool = false,
                trackingSlop: Double? = nil, recognizers: [RecognizerSpec] = [], routing: RoutingRule? = nil) {
        self.id = id
        self.frame = frame
        self.subviews = subviews
        self.hidden = hidden
        self.alpha = alpha
        self.userInteractionEnabled = userInteractionEnabled
        self.hitOutset = hitOutset
        self.hitTest = hitTest
        self.passThrough = passThrough
        self.kind = kind
        self.handlesTouchesOverride = handlesTouches
        self.multipleTouchEnabled = multipleTouchEnabled
        self.exclusiveTouch = exclusiveTouch
        self.trackingSlop = trackingSlop
        self.recognizers = recognizers
        self.routing = routing
    }

    /// Whether the view consumes touch deliveries (docs/touches.md, "The responder chain").
    public var handlesTouches: Bool {
        get { handlesTouchesOverride ?? (kind == .control) }
        set { handlesTouchesOverride = newValue }
    }
}

/// A view's replacement of the default hit test (docs/hit-testing.md, "Overrides").
public enum HitTestOverride: Hashable, Sendable {
    case `default`
    /// Neither the view nor anything inside it takes the touch.
    case none
    /// The view absorbs touches inside it without asking its subviews.
    case `self`
    /// Run the default; if it returns any view, return this descendant instead.
    case redirect(String)
}

/// Whether a view is a plain view or a control that tracks its touches (docs/layout.md, "Views";
/// docs/touches.md, "Controls").
public enum ViewKind: String, Hashable, Sendable, CaseIterable {
    case view
    case control
}
