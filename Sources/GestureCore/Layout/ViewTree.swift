/// The position of a view in a ``ViewTree`` (pre-order: the root is 0, a view comes before
/// its subviews, subviews back to front).
public typealias ViewIndex = Int

/// A validated layout compiled for the engine: views in pre-order with parent and subview
/// indices and each view's origin on the screen. Immutable, so touches that are down keep the
/// tree they were hit-tested in when the layout is replaced.
public final class ViewTree: Sendable {
    /// One compiled view.
    public struct Node: Sendable {
        public let spec: ViewSpec
        public let parent: ViewIndex?
        /// Back to front.
        public let subviews: [ViewIndex]
        /// The view's origin in screen points (frames are relative to the superview).
        public let screenOrigin: Point
        /// The index of the `hitTest: { redirect }` target.
        public let redirectTarget: ViewIndex?
        /// `handlesTouches`, resolved against the kind's default.
        public let handlesTouches: Bool
    }

    public let nodes: [Node]
    /// Every recognizer of the layout, in tree order then attachment order, with its view.
    public let recognizers: [(spec: RecognizerSpec, view: ViewIndex)]
    private let indexByID: [String: ViewIndex]
    /// Each view's id as a JSON string, quoted and escaped once here, all end to end: view
    /// `i`'s is `quotedIDBytes[quotedIDStarts[i] ..< quotedIDStarts[i + 1]]`. A touch delivery
    /// names its view and every responder on every frame; one buffer is read through one
    /// pointer, with no array per view to retain.
    public let quotedIDBytes: [UInt8]
    /// Where each view's quoted id starts in ``quotedIDBytes``, and its end (one more entry).
    public let quotedIDStarts: [Int]
    /// The responder a delivery goes on to after view `i`: its superview, unless `i` handles
    /// touches or is the root (-1). ``ResponderChain``'s rule, as one array read.
    public let nextResponders: [Int]
    /// The bytes of view `i`'s responders' quoted ids, with a comma between each: the room a
    /// delivery's `responders` list takes.
    public let quotedChainLengths: [Int]

    /// Compiles `root` after validating it; throws every problem found.
    public convenience init(root: ViewSpec, path: String = "layout") throws(LayoutError) {
        let problems = LayoutValidator.problems(in: root, path: path)
        if !problems.isEmpty { throw LayoutError(problems: problems) }
        self.init(validated: root)
    }

    /// Compiles a layout that ``LayoutValidator`` accepted.
    public init(validated root: ViewSpec) {
        // Pre-order with an explicit stack (subviews pushed in reverse so they come out back
        // to front): no recursion, whatever the depth of a layout built in code.
        var flat: [(spec: ViewSpec, parent: ViewIndex?, origin: Point)] = []
        var children: [[ViewIndex]] = []
        var stack: [(spec: ViewSpec, parent: ViewIndex?, parentOrigin: Point)] = [(root, nil, .zero)]
        while let (spec, parent, parentOrigin) = stack.popLast() {
            let index = flat.count
            let origin = parentOrigin + spec.frame.origin
            var stripped = spec
            stripped.subviews = []
            flat.append((stripped, parent, origin))
            children.append([])
            if let parent { children[parent].append(index) }
            for subview in spec.subviews.reversed() { stack.append((subview, index, origin)) }
        }
        var byID: [String: ViewIndex] = [:]
        for (index, entry) in flat.enumerated() where byID[entry.spec.id] == nil { byID[entry.spec.id] = index }
        indexByID = byID
        var idBytes: [UInt8] = []
        var idStarts: [Int] = [0]
        var next: [Int] = []
        var chainLengths: [Int] = []
        idStarts.reserveCapacity(flat.count + 1)
        for (index, entry) in flat.enumerated() {
            idBytes.append(contentsOf: JSONWriter.quoted(entry.spec.id))
            idStarts.append(idBytes.count)
            // Pre-order: a superview's index is below its subviews', so its chain is known.
            let forward = entry.spec.handlesTouches ? -1 : (entry.parent ?? -1)
            next.append(forward)
            let own = idStarts[index + 1] - idStarts[index]
            chainLengths.append(forward < 0 ? own : own + 1 + chainLengths[forward])
        }
        quotedIDBytes = idBytes
        quotedIDStarts = idStarts
        nextResponders = next
        quotedChainLengths = chainLengths
        var recognizers: [(spec: RecognizerSpec, view: ViewIndex)] = []
        nodes = flat.enumerated().map { index, entry in
            var target: ViewIndex? = nil
            if case .redirect(let id) = entry.spec.hitTest { target = byID[id] }
            for recognizer in entry.spec.recognizers { recognizers.append((recognizer, index)) }
            return Node(spec: entry.spec, parent: entry.parent, subviews: children[index], screenOrigin: entry.origin,
                        redirectTarget: target, handlesTouches: entry.spec.handlesTouches)
        }
        self.recognizers = recognizers
    }

    public var root: ViewIndex { 0 }
    public var count: Int { nodes.count }

    public subscript(index: ViewIndex) -> Node { nodes[index] }

    public func id(of index: ViewIndex) -> String { nodes[index].spec.id }

    public func index(of id: String) -> ViewIndex? { indexByID[id] }

    /// `point` (screen) in the local coordinates of the view at `index`.
    public func convert(screen point: Point, to index: ViewIndex) -> Point { point - nodes[index].screenOrigin }

    /// True if `descendant` is `ancestor` or lies inside its subtree.
    public func isDescendant(_ descendant: ViewIndex, of ancestor: ViewIndex) -> Bool {
        var current: ViewIndex? = descendant
        while let view = current {
            if view == ancestor { return true }
            current = nodes[view].parent
        }
        return false
    }

    /// Whether the view can receive touches: neither it nor an ancestor is hidden, nearly
    /// transparent (`alpha <= 0.01`) or without user interaction (docs/hit-testing.md, "The algorithm").
    public func receivesTouches(_ index: ViewIndex) -> Bool {
        var current: ViewIndex? = index
        while let view = current {
            let spec = nodes[view].spec
            if spec.hidden || !spec.userInteractionEnabled || spec.alpha <= 0.01 { return false }
            current = nodes[view].parent
        }
        return true
    }

    /// The routing rule of touches that begin on `index`: its own, else the nearest
    /// ancestor's (docs/routing.md); nil when no view up to the root states one.
    public func routingRule(of index: ViewIndex) -> RoutingRule? {
        var view: ViewIndex? = index
        while let current = view {
            if let rule = nodes[current].spec.routing { return rule }
            view = nodes[current].parent
        }
        return nil
    }

    /// The view and its ancestors up to the root, nearest first.
    public func ancestry(of index: ViewIndex) -> [ViewIndex] {
        var chain: [ViewIndex] = []
        var current: ViewIndex? = index
        while let view = current {
            chain.append(view)
            current = nodes[view].parent
        }
        return chain
    }
}
