/// Checks the rules of a layout that span more than one value (docs/layout.md, "Validation"): unique ids,
/// redirect targets, recognizer references and failure-requirement cycles, sizes and the ranges of
/// ``LayoutLimits``. Type errors and unknown keys are the configuration reader's job; this
/// works on values, so a layout built in code or changed by `view.update` gets the same checks
/// as one read from a file.
///
/// Problems come in a fixed order: views in pre-order (a view's own values, then its
/// recognizers, then its subviews, then its redirect), then failure-requirement cycles, which
/// span views. Every walk is iterative and linear in the layout's size (plus the bounded
/// "did you mean" searches): a layout too large or too deep for ``LayoutLimits`` is refused
/// before anything else is checked, and at most ``LayoutLimits/maximumProblems`` problems are
/// listed.
public enum LayoutValidator {
    /// Every problem in the layout rooted at `root`, whose key path is `path`.
    public static func problems(in root: ViewSpec, path: String = "layout") -> [LayoutProblem] {
        var validation = Validation(rootPath: path)
        guard validation.flatten(root) else { return validation.problems }
        validation.collectIDs()
        validation.checkViews()
        validation.checkCycles()
        validation.closeList()
        return validation.problems
    }

    /// Every problem in one set of recognizer parameters of type `kind` (a recognizer's own
    /// values, or the global `gestures` overrides of that type), whose key path is `path`.
    public static func problems(in parameters: RecognizerParameters, of kind: RecognizerKind,
                                path: String) -> [LayoutProblem] {
        var problems: [LayoutProblem] = []
        for key in RecognizerParameters.keys(for: kind) {
            let keyPath = "\(path).\(key.name)"
            switch key.slot {
            case .count(let slot):
                // Int.max is how the defaults say "no maximum" (pan's maximumTouches); a file
                // cannot write it (numbers beyond 2^53 are out of range there).
                guard let value = parameters[keyPath: slot], value != Int.max || key.name != "maximumTouches" else { break }
                let range = countRange(key.name, of: kind)
                let noun = key.name == "taps" ? "taps" : "touches"
                if value < range.lowerBound {
                    problems.append(LayoutProblem(path: keyPath, message: "\(value) is too small; use a whole number of "
                        + "\(noun) from \(range.lowerBound) to \(range.upperBound)"))
                } else if value > range.upperBound {
                    problems.append(LayoutProblem(path: keyPath, message: "\(value) is too large; use a whole number of "
                        + "\(noun) from \(range.lowerBound) to \(range.upperBound)"))
                }
            case .seconds(let slot):
                checkMeasure(parameters[keyPath: slot], in: LayoutLimits.seconds, unit: "seconds", keyPath, &problems)
            case .points(let slot):
                checkMeasure(parameters[keyPath: slot], in: LayoutLimits.distance, unit: "points", keyPath, &problems)
            case .pointsPerSecond(let slot):
                checkMeasure(parameters[keyPath: slot], in: LayoutLimits.velocity, unit: "points per second", keyPath, &problems)
            case .radians(let slot):
                checkMeasure(parameters[keyPath: slot], in: LayoutLimits.radians, unit: "radians (a full turn)", keyPath,
                             &problems)
            case .ratio(let slot):
                checkMeasure(parameters[keyPath: slot], in: LayoutLimits.ratio, unit: "(a ratio)", keyPath, &problems)
            case .directions(let slot):
                if let value = parameters[keyPath: slot], value.isEmpty {
                    problems.append(LayoutProblem(path: keyPath, message: "the list is empty; list at least one of "
                        + SwipeDirection.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")))
                }
            case .edges(let slot):
                if let value = parameters[keyPath: slot], value.isEmpty {
                    problems.append(LayoutProblem(path: keyPath, message: "the list is empty; list at least one of "
                        + ScreenEdge.allCases.map { "\"\($0.rawValue)\"" }.joined(separator: ", ")))
                }
            }
        }
        let names = Set(RecognizerParameters.keys(for: kind).map(\.name))
        if names.contains("maximumTouches"), let minimum = parameters.minimumTouches,
           let maximum = parameters.maximumTouches, LayoutLimits.touches.contains(minimum), maximum >= 1,
           maximum < minimum {
            problems.append(LayoutProblem(path: "\(path).maximumTouches",
                message: "maximumTouches (\(maximum)) is less than minimumTouches (\(minimum)); "
                    + "raise maximumTouches or lower minimumTouches"))
        }
        return problems
    }

    /// The range of a count parameter, by name.
    public static func countRange(_ name: String, of kind: RecognizerKind) -> ClosedRange<Int> {
        guard name == "taps" else { return LayoutLimits.touches }
        return kind == .longPress ? LayoutLimits.longPressTaps : LayoutLimits.taps
    }

    /// The candidate closest to `name` by edit distance (ignoring case, counting a swap of two
    /// neighbouring letters as one edit), or one that starts with it, when it is close enough to
    /// be the likely intent: for "did you mean …?" suggestions here and in the configuration
    /// reader. For the small fixed sets of keys and words.
    public static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
        var budget = Int.max
        return suggestion(for: name, among: candidates, budget: &budget)
    }

    /// ``suggestion(for:among:)`` spending at most about `budget` steps (cells of edit-distance
    /// tables, letters compared) and taking them off it, for searches among names a client
    /// chose: once the budget is spent, the best candidate so far (or none) is the answer.
    /// Names longer than 64 characters get no suggestion.
    public static func suggestion(for name: String, among candidates: some Sequence<String>,
                                  budget: inout Int) -> String? {
        let typed = Array(name.lowercased())
        guard !typed.isEmpty, typed.count <= 64 else { return nil }
        let allowed = typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3
        var best: (candidate: String, distance: Int)? = nil
        for candidate in candidates where candidate != name {
            guard budget > 0 else { break }
            // Each candidate costs its letters and a copy, whatever the comparison finds.
            budget -= typed.count + candidate.utf8.count + 32
            let known = Array(candidate.lowercased().prefix(4 * 64))
            var distance = Int.max
            // An edit distance is at least the difference in length: compute it only when it
            // can be small enough, and the cheap prefix and subsequence rules otherwise.
            if abs(known.count - typed.count) <= allowed {
                budget -= typed.count * known.count
                distance = editDistance(typed, known)
            }
            // "userInteraction" for "userInteractionEnabled", "maxTouches" for "maximumTouches":
            // a truncated or abbreviated key is a likely intent.
            if distance > allowed, typed.count >= 4, typed.first == known.first, isSubsequence(typed, of: known) {
                distance = allowed
            }
            // "rotate" for "rotation": a long shared beginning with a different ending.
            let shared = zip(typed, known).prefix { $0 == $1 }.count
            if distance > allowed, shared >= 4, shared >= typed.count - 2 { distance = allowed }
            // No "did you mean "x"?" for "z": an edit must change less than half of the word.
            guard distance <= allowed, distance * 2 <= max(typed.count, known.count) else { continue }
            if distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
        }
        return best?.candidate
    }

    /// True when the letters of `short` appear in `long` in the same order.
    private static func isSubsequence(_ short: [Character], of long: [Character]) -> Bool {
        var remaining = long[...]
        for letter in short {
            guard let found = remaining.firstIndex(of: letter) else { return false }
            remaining = remaining[(found + 1)...]
        }
        return true
    }

    /// Optimal string alignment distance: insertions, deletions, substitutions and swaps of
    /// neighbours, the usual typos in hand-written keys.
    private static func editDistance(_ a: [Character], _ b: [Character]) -> Int {
        if a.isEmpty { return b.count }
        if b.isEmpty { return a.count }
        var previous2 = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            for j in 1...b.count {
                let cost = a[i - 1] == b[j - 1] ? 0 : 1
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + cost)
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], previous2[j - 2] + 1)
                }
            }
            (previous2, previous, current) = (previous, current, previous2)
        }
        return previous[b.count]
    }

    private static func checkMeasure(_ value: Double?, in range: ClosedRange<Double>, unit: String, _ path: String,
                                     _ problems: inout [LayoutProblem]) {
        guard let value, let message = rangeProblem(value, in: range, unit: unit) else { return }
        problems.append(LayoutProblem(path: path, message: message))
    }

    /// What is wrong with `value` for `range` ("-1 is negative; use 0 to 3600 seconds"), or
    /// `nil` when it is in range; for the configuration reader's settings too.
    public static func rangeProblem(_ value: Double, in range: ClosedRange<Double>, unit: String) -> String? {
        let allowed = "use \(describe(range.lowerBound)) to \(describe(range.upperBound)) \(unit)"
        if !value.isFinite { return "\(describe(value)) is not allowed here; \(allowed)" }
        if value < range.lowerBound {
            return "\(describe(value)) is " + (value < 0 && range.lowerBound >= 0 ? "negative" : "too small") + "; \(allowed)"
        }
        if value > range.upperBound { return "\(describe(value)) is too large; \(allowed)" }
        return nil
    }

    /// What is wrong with a routing rule's values (docs/routing.md), at `path`: a hold's time,
    /// fingers and distance each within ``RoutingLimits``.
    public static func routingProblems(in rule: RoutingRule, at path: String) -> [LayoutProblem] {
        guard case .hold(let hold) = rule else { return [] }
        var problems: [LayoutProblem] = []
        let seconds = RoutingLimits.holdSeconds
        if !hold.seconds.isFinite || !seconds.contains(hold.seconds) {
            problems.append(LayoutProblem(path: "\(path).hold", message: "\(describe(hold.seconds)) is outside the hold's "
                + "range; use \(describe(seconds.lowerBound)) to \(describe(seconds.upperBound)) seconds (1 to 1000 ms)"))
        }
        if let fingers = hold.fingers, !RoutingLimits.holdFingers.contains(fingers) {
            problems.append(LayoutProblem(path: "\(path).fingers", message: "\(fingers) is outside the range; use a whole "
                + "number of fingers from \(RoutingLimits.holdFingers.lowerBound) to \(RoutingLimits.holdFingers.upperBound)"))
        }
        switch hold.distance {
        case .points(let points)?:
            if !points.isFinite || !RoutingLimits.holdPoints.contains(points) {
                problems.append(LayoutProblem(path: "\(path).distance", message: "\(describe(points)) is not allowed; use "
                    + "more than 0 and at most \(describe(LayoutLimits.points)) points"))
            }
        case .millimetres(let millimetres)?:
            if !millimetres.isFinite || !RoutingLimits.holdMillimetres.contains(millimetres) {
                problems.append(LayoutProblem(path: "\(path).distance", message: "\(describe(millimetres)) mm is not allowed; "
                    + "use more than 0 and at most \(describe(LayoutLimits.millimetres.upperBound)) millimetres"))
            }
        case nil:
            break
        }
        return problems
    }

    /// A number as a person would write it: `2`, not `2.0`.
    public static func describe(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    /// One view of the layout, flattened in pre-order.
    private struct FlatView {
        var spec: ViewSpec
        var parent: Int?
        /// Its index among its superview's subviews.
        var indexInParent: Int
        /// 1 for the root.
        var depth: Int
        /// One past the last view of its subtree: its descendants are `index + 1 ..< end`.
        var end = 0
    }

    /// One recognizer of the layout, in tree order.
    private struct FlatRecognizer {
        var view: Int
        var index: Int
    }

    /// A `requireToFail` edge of the cycle check.
    private struct Requirement {
        /// The required recognizer, by first-use number.
        var target: Int
        /// Where the entry is: the recognizer (tree order) and the list index.
        var recognizer: Int
        var entry: Int
    }

    /// The state of one validation run. Key paths are built only for the problems reported.
    private struct Validation {
        let rootPath: String
        var views: [FlatView] = []
        var recognizers: [FlatRecognizer] = []
        var problems: [LayoutProblem] = []
        /// Problems found beyond ``LayoutLimits/maximumProblems``.
        var omitted = 0
        var suggestionBudget = LayoutLimits.suggestionBudget
        /// First view with each id.
        var viewFirst: [String: Int] = [:]
        /// First use of each recognizer id, as its number in ``recognizerOrder``.
        var recognizerFirst: [String: Int] = [:]
        /// Recognizer ids in order of first use, and where each first use is (tree order).
        var recognizerOrder: [String] = []
        var firstUse: [Int] = []
        /// `requireToFail` edges of each first use, for the cycle check.
        var requirements: [[Requirement]] = []

        init(rootPath: String) { self.rootPath = rootPath }

        var isFull: Bool { problems.count >= LayoutLimits.maximumProblems }

        mutating func add(_ path: String, _ message: String) {
            if isFull {
                omitted += 1
            } else {
                problems.append(LayoutProblem(path: path, message: message))
            }
        }

        /// Says how many problems were left out.
        mutating func closeList() {
            if omitted > 0 {
                problems.append(LayoutProblem(path: rootPath, message: "\(omitted) more problem\(omitted == 1 ? " is" : "s are") "
                    + "not listed (at most \(LayoutLimits.maximumProblems) are); fix these and check again"))
            }
        }

        // MARK: Paths

        func path(ofView index: Int) -> String {
            var steps: [Int] = []
            var current = index
            while let parent = views[current].parent {
                steps.append(views[current].indexInParent)
                current = parent
            }
            var path = rootPath
            for step in steps.reversed() { path += ".subviews[\(step)]" }
            return path
        }

        func path(ofRecognizer number: Int) -> String {
            "\(path(ofView: recognizers[number].view)).recognizers[\(recognizers[number].index)]"
        }

        // MARK: Walks

        /// Lists the views in pre-order with an explicit stack; refuses a layout beyond the
        /// size and depth limits (returns false) before any other check.
        mutating func flatten(_ root: ViewSpec) -> Bool {
            var stack: [(spec: ViewSpec, parent: Int?, indexInParent: Int, depth: Int)] = [(root, nil, 0, 1)]
            var recognizerCount = 0
            while let item = stack.popLast() {
                guard views.count < LayoutLimits.maximumViews else {
                    add(rootPath, "the layout has more than \(LayoutLimits.maximumViews) views; that is the limit "
                        + "(docs/limits.md), so split the screen into fewer views")
                    return false
                }
                views.append(FlatView(spec: item.spec, parent: item.parent, indexInParent: item.indexInParent, depth: item.depth))
                let index = views.count - 1
                guard item.depth <= LayoutLimits.maximumDepth else {
                    add(path(ofView: index), "views nest more than \(LayoutLimits.maximumDepth) levels deep here; that is "
                        + "the limit (docs/limits.md), so flatten the layout")
                    return false
                }
                recognizerCount += item.spec.recognizers.count
                guard recognizerCount <= LayoutLimits.maximumRecognizers else {
                    add(rootPath, "the layout has more than \(LayoutLimits.maximumRecognizers) recognizers; that is the "
                        + "limit (docs/limits.md)")
                    return false
                }
                for (position, subview) in item.spec.subviews.enumerated().reversed() {
                    stack.append((subview, index, position, item.depth + 1))
                }
            }
            // Subtree ends: each view's subtree is itself and its subviews' subtrees.
            var sizes = [Int](repeating: 1, count: views.count)
            for index in views.indices.reversed() {
                if let parent = views[index].parent { sizes[parent] += sizes[index] }
                views[index].end = index + sizes[index]
            }
            return true
        }

        /// Records every id before the checks, so a reference to a view or recognizer later in
        /// the tree is known, and duplicates point at the first use.
        mutating func collectIDs() {
            for (index, view) in views.enumerated() {
                if viewFirst[view.spec.id] == nil { viewFirst[view.spec.id] = index }
                for (position, recognizer) in view.spec.recognizers.enumerated() {
                    recognizers.append(FlatRecognizer(view: index, index: position))
                    if recognizerFirst[recognizer.id] == nil {
                        recognizerFirst[recognizer.id] = recognizerOrder.count
                        recognizerOrder.append(recognizer.id)
                        firstUse.append(recognizers.count - 1)
                    }
                }
            }
            requirements = Array(repeating: [], count: recognizerOrder.count)
        }

        /// Each view's own values and recognizers in pre-order; a view's redirect once its
        /// subtree has been checked.
        mutating func checkViews() {
            var redirects: [Int] = []
            var recognizerNumber = 0
            for index in views.indices {
                while let last = redirects.last, views[last].end <= index {
                    redirects.removeLast()
                    checkRedirect(of: last)
                }
                checkOwnValues(index)
                for recognizer in views[index].spec.recognizers {
                    check(recognizer, number: recognizerNumber)
                    recognizerNumber += 1
                }
                if case .redirect = views[index].spec.hitTest { redirects.append(index) }
            }
            while let last = redirects.popLast() { checkRedirect(of: last) }
        }

        // MARK: Views

        mutating func checkOwnValues(_ index: Int) {
            let view = views[index].spec
            if view.id.isEmpty {
                add("\(path(ofView: index)).id", "the id is empty; give the view a name that is unique in the layout")
            } else if let first = viewFirst[view.id], first != index {
                add("\(path(ofView: index)).id", "the view id \"\(view.id)\" is already used at \(self.path(ofView: first)); "
                    + "give each view a unique id")
            }
            let frame = [view.frame.origin.x, view.frame.origin.y, view.frame.size.width, view.frame.size.height]
            let names = ["x", "y", "width", "height"]
            let limit = LayoutValidator.describe(LayoutLimits.points)
            for (position, value) in frame.enumerated() {
                let isSize = position >= 2
                let allowed = isSize ? "from 0 to \(limit) points" : "from -\(limit) to \(limit) points"
                if !value.isFinite {
                    add("\(path(ofView: index)).frame[\(position)]", "the \(names[position]) is \(describe(value)); use a finite number \(allowed)")
                } else if isSize, value < 0 {
                    add("\(path(ofView: index)).frame[\(position)]", "the \(names[position]) is \(describe(value)); make it \(allowed) "
                        + "(frames grow right and down from x, y)")
                } else if abs(value) > LayoutLimits.points {
                    add("\(path(ofView: index)).frame[\(position)]", "the \(names[position]) is \(describe(value)); use a number \(allowed)")
                }
            }
            if !view.alpha.isFinite || !LayoutLimits.alpha.contains(view.alpha) {
                add("\(path(ofView: index)).alpha", "\(describe(view.alpha)) is outside 0…1; use a value from 0 (transparent) to 1 (opaque)")
            }
            let outset = view.hitOutset
            let sides = [outset.top, outset.left, outset.bottom, outset.right]
            let outsetRange = -LayoutLimits.points...LayoutLimits.points
            if sides.allSatisfy({ $0 == outset.top || ($0.isNaN && outset.top.isNaN) }) {
                if let message = rangeProblem(outset.top, in: outsetRange, unit: "points") {
                    add("\(path(ofView: index)).hitOutset", message)
                }
            } else {
                for (position, value) in sides.enumerated() {
                    if let message = rangeProblem(value, in: outsetRange, unit: "points") {
                        add("\(path(ofView: index)).hitOutset[\(position)]", message)
                    }
                }
            }
            if let rule = view.routing {
                for problem in LayoutValidator.routingProblems(in: rule, at: "\(path(ofView: index)).routing") {
                    add(problem.path, problem.message)
                }
            }
            if let slop = view.trackingSlop {
                if view.kind != .control {
                    add("\(path(ofView: index)).trackingSlop",
                        "only controls track their touches; remove trackingSlop or make the view a control with kind: \"control\"")
                } else if let message = rangeProblem(slop, in: LayoutLimits.distance, unit: "points") {
                    add("\(path(ofView: index)).trackingSlop", message)
                }
            }
        }

        /// The ids of the descendants of the view at `index`, sorted, for messages.
        func descendantIDs(of index: Int) -> [String] {
            Set(views[(index + 1)..<views[index].end].map(\.spec.id)).sorted()
        }

        mutating func checkRedirect(of index: Int) {
            guard case .redirect(let target) = views[index].spec.hitTest else { return }
            let view = views[index].spec
            let inside = (index + 1)..<views[index].end
            if target == view.id {
                add("\(path(ofView: index)).hitTest.redirect",
                    "\"\(target)\" is this view itself; name one of its descendants, or use hitTest: \"default\"")
                return
            }
            guard let first = viewFirst[target] else {
                guard !isFull else {
                    omitted += 1
                    return
                }
                let descendants = descendantIDs(of: index)
                if let near = LayoutValidator.suggestion(for: target, among: descendants, budget: &suggestionBudget) {
                    add("\(path(ofView: index)).hitTest.redirect", "no view has the id \"\(target)\"; did you mean \"\(near)\"?")
                } else {
                    add("\(path(ofView: index)).hitTest.redirect", "no view has the id \"\(target)\"; name one of this "
                        + "view's descendants" + Self.choice(among: descendants))
                }
                return
            }
            // A repeated id may be both inside and outside; a view belongs to at most
            // maximumDepth subtrees, so these scans are linear in all.
            if inside.contains(first) || inside.contains(where: { views[$0].spec.id == target }) { return }
            guard !isFull else {
                omitted += 1
                return
            }
            add("\(path(ofView: index)).hitTest.redirect", "\"\(target)\" is not inside \"\(view.id)\"; a redirect must "
                + "name one of this view's descendants" + Self.choice(among: descendantIDs(of: index)))
        }

        /// `" (…)"` listing a few valid choices, or advice when there are none.
        static func choice(among ids: [String]) -> String {
            if ids.isEmpty { return " (this view has no subviews, so remove the redirect)" }
            let shown = ids.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
            return " (\(shown)\(ids.count > 5 ? ", …" : ""))"
        }

        // MARK: Recognizers

        mutating func check(_ recognizer: RecognizerSpec, number: Int) {
            let firstUse = recognizerFirst[recognizer.id].map { self.firstUse[$0] }
            if recognizer.id.isEmpty {
                add("\(path(ofRecognizer: number)).id", "the id is empty; give the recognizer a name that is unique in the layout")
            } else if let firstUse, firstUse != number {
                add("\(path(ofRecognizer: number)).id", "the recognizer id \"\(recognizer.id)\" is already used at "
                    + "\(self.path(ofRecognizer: firstUse)); give each recognizer a unique id")
            }
            for problem in LayoutValidator.problems(in: recognizer.parameters, of: recognizer.kind, path: "") {
                add(path(ofRecognizer: number) + problem.path, problem.message)
            }
            let isFirstUse = firstUse == number
            for (key, ids) in [("requireToFail", recognizer.requireToFail), ("simultaneousWith", recognizer.simultaneousWith)] {
                if ids.count > LayoutLimits.maximumReferences {
                    add("\(path(ofRecognizer: number)).\(key)", "\(ids.count) entries; a recognizer may name at most "
                        + "\(LayoutLimits.maximumReferences) (docs/limits.md)")
                    continue
                }
                for (entry, id) in ids.enumerated() {
                    if id == recognizer.id {
                        add("\(path(ofRecognizer: number)).\(key)[\(entry)]",
                            "\"\(id)\" is this recognizer itself; name another recognizer or remove the entry")
                    } else if let target = recognizerFirst[id] {
                        if key == "requireToFail", isFirstUse, let own = recognizerFirst[recognizer.id] {
                            requirements[own].append(Requirement(target: target, recognizer: number, entry: entry))
                        }
                    } else if isFull {
                        omitted += 1
                    } else {
                        let near = LayoutValidator.suggestion(for: id, among: recognizerOrder, budget: &suggestionBudget)
                        add("\(path(ofRecognizer: number)).\(key)[\(entry)]", "no recognizer has the id \"\(id)\"; "
                            + (near.map { "did you mean \"\($0)\"?" } ?? "name a recognizer of this layout or remove the entry"))
                    }
                }
            }
        }

        /// Depth-first search over `requireToFail` edges in layout order, with an explicit
        /// stack; each back edge closes one cycle, reported once at that edge's key path.
        mutating func checkCycles() {
            let unvisited: UInt8 = 0, onStack: UInt8 = 1, done: UInt8 = 2
            var marks = [UInt8](repeating: unvisited, count: recognizerOrder.count)
            /// Where each recognizer on the stack is, to cut a cycle out of it.
            var stackIndex = [Int](repeating: -1, count: recognizerOrder.count)
            var stack: [(node: Int, edge: Int)] = []
            for start in recognizerOrder.indices where marks[start] == unvisited {
                marks[start] = onStack
                stackIndex[start] = 0
                stack.append((start, 0))
                while let (node, edge) = stack.last {
                    guard edge < requirements[node].count else {
                        marks[node] = done
                        stack.removeLast()
                        continue
                    }
                    stack[stack.count - 1].edge += 1
                    let requirement = requirements[node][edge]
                    switch marks[requirement.target] {
                    case unvisited:
                        marks[requirement.target] = onStack
                        stackIndex[requirement.target] = stack.count
                        stack.append((requirement.target, 0))
                    case onStack:
                        guard !isFull else {
                            omitted += 1
                            continue
                        }
                        let members = stack[stackIndex[requirement.target]...].map { recognizerOrder[$0.node] }
                            + [recognizerOrder[requirement.target]]
                        let quoted = members.map { "\"\($0)\"" }
                        let shown = quoted.count <= 12 ? quoted
                            : quoted.prefix(8) + ["… \(quoted.count - 11) more …"] + quoted.suffix(3)
                        add("\(path(ofRecognizer: requirement.recognizer)).requireToFail[\(requirement.entry)]",
                            "requireToFail makes a cycle " + shown.joined(separator: " → ")
                                + ", so none of them can ever recognize; remove one of these requirements")
                    default:
                        break
                    }
                }
            }
        }
    }
}
