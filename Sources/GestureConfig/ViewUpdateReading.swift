import GestureCore

/// `view.update` (docs/protocol.md, "Changing the layout"): changing some keys of one view of a running
/// layout, read and validated with the same messages `check-config` gives, at the view's key path in the
/// layout.
extension ConfigurationLoader {
    /// The keys `view.update` may change: every view key but `id` (other views refer to it) and
    /// `subviews` (a change of structure is a `layout.set`).
    public static let updatableViewKeys = SchemaReader.viewKeys.filter { $0 != "id" && $0 != "subviews" }

    /// `layout` with the view `id` changed by `changes` (an object of view keys). Throws every
    /// problem: of the changes themselves, and of the whole layout after them (a frame with a
    /// negative size, a redirect to a view that is not a descendant, …). Returns `nil` when the
    /// layout has no view `id`.
    public static func updateView(_ id: String, with changes: JSONValue, in layout: ViewSpec,
                                  file: String) throws(ConfigurationError) -> ViewSpec? {
        guard let indexPath = indexPath(of: id, in: layout) else { return nil }
        let path = indexPath.reduce("layout") { SchemaReader.path(SchemaReader.path($0, "subviews"), $1) }
        var reader = SchemaReader()
        var updated = layout
        if let members = reader.object(changes, at: path, expected: "an object of view keys") {
            modify(&updated, at: indexPath[...]) { view in reader.apply(members, to: &view, at: path) }
        }
        let semantic = LayoutValidator.problems(in: updated, path: "layout").filter { !reader.isReplaced($0.path) }
        let problems = reader.problems + semantic
        if !problems.isEmpty {
            throw ConfigurationError(file: file, problems: problems.map { ConfigurationProblem(file: file, $0) })
        }
        return updated
    }

    /// The subview indices leading from the root to the view `id` (empty for the root): a
    /// pre-order walk with an explicit stack, as every walk over a client's layout.
    static func indexPath(of id: String, in root: ViewSpec) -> [Int]? {
        var stack: [(view: ViewSpec, path: [Int])] = [(root, [])]
        while let (view, path) = stack.popLast() {
            if view.id == id { return path }
            for (index, subview) in view.subviews.enumerated().reversed() { stack.append((subview, path + [index])) }
        }
        return nil
    }

    /// Applies `body` to the view at `path`: the views along the path are taken out, the last
    /// one changed, and each put back into its superview, without recursion.
    private static func modify(_ root: inout ViewSpec, at path: ArraySlice<Int>, _ body: (inout ViewSpec) -> Void) {
        var chain = [root]
        for index in path { chain.append(chain[chain.count - 1].subviews[index]) }
        body(&chain[chain.count - 1])
        for (level, index) in path.enumerated().reversed() {
            chain[level].subviews[index] = chain[level + 1]
        }
        root = chain[0]
    }
}

extension SchemaReader {
    /// Sets the keys present in `members` on `view`, reading each as ``view(_:at:)`` does.
    mutating func apply(_ members: [String: JSONValue], to view: inout ViewSpec, at path: String) {
        let key = { (name: String) in Self.path(path, name) }
        if let value = members["frame"],
           let numbers = numbers(value, at: key("frame"), names: Self.frameNames, expected: Self.frameExpected) {
            view.frame = Rect(x: numbers[0], y: numbers[1], width: numbers[2], height: numbers[3])
        }
        if let hidden = bool(members["hidden"], at: key("hidden")) { view.hidden = hidden }
        if let alpha = number(members["alpha"], at: key("alpha"), expected: "a number from 0 to 1") { view.alpha = alpha }
        if let enabled = bool(members["userInteractionEnabled"], at: key("userInteractionEnabled")) {
            view.userInteractionEnabled = enabled
        }
        if let outset = hitOutset(members["hitOutset"], at: key("hitOutset")) { view.hitOutset = outset }
        if let hitTest = hitTestOverride(members["hitTest"], at: key("hitTest")) { view.hitTest = hitTest }
        if let passThrough = bool(members["passThrough"], at: key("passThrough")) { view.passThrough = passThrough }
        if let kind = word(members["kind"], at: key("kind"), as: ViewKind.self, naming: "a view kind") { view.kind = kind }
        if let handles = bool(members["handlesTouches"], at: key("handlesTouches")) { view.handlesTouchesOverride = handles }
        if let multiple = bool(members["multipleTouchEnabled"], at: key("multipleTouchEnabled")) {
            view.multipleTouchEnabled = multiple
        }
        if let exclusive = bool(members["exclusiveTouch"], at: key("exclusiveTouch")) { view.exclusiveTouch = exclusive }
        if let slop = number(members["trackingSlop"], at: key("trackingSlop"), expected: "a number of points") {
            view.trackingSlop = slop
        }
        if let rule = routingRule(members["routing"], at: key("routing")) { view.routing = rule }
        if let recognizers = array(members["recognizers"], at: key("recognizers"),
                                   expected: "an array of recognizers [{ id, type, … }]", element: { reader, value, path in
                                       reader.recognizer(value, at: path)
                                   }) {
            view.recognizers = recognizers
        }
        reportUnknownKeys(in: members, at: path, known: ConfigurationLoader.updatableViewKeys, what: "view.update") { key in
            switch key {
            case "id": "a view's id cannot change (other views and recognizers refer to it); send layout.set with the new layout"
            case "subviews": "view.update changes one view's own keys; send layout.set to change the subviews"
            default: nil
            }
        }
    }
}
