/// Checks the rules of a layout that span more than one value (SPEC 3): unique ids, redirect
/// targets, recognizer references and failure-requirement cycles, sizes and ranges.
/// Type errors and unknown keys are the configuration reader's job; this works on values, so
/// a layout built in code or changed by `view.update` gets the same checks as one read from a
/// file.
///
/// Problems come in a fixed order: views in pre-order (a view's own values, then its
/// recognizers, then its subviews), then failure-requirement cycles, which span views.
public enum LayoutValidator {
    /// Every problem in the layout rooted at `root`, whose key path is `path`.
    public static func problems(in root: ViewSpec, path: String = "layout") -> [LayoutProblem] {
        var validation = Validation()
        validation.collectIDs(root, path: path)
        _ = validation.check(root, path: path)
        validation.checkCycles()
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
                if let value = parameters[keyPath: slot], value < 1 {
                    problems.append(LayoutProblem(path: keyPath,
                        message: "\(value) is too small; use a whole number of at least 1"))
                }
            case .seconds(let slot):
                checkMeasure(parameters[keyPath: slot], unit: "seconds", keyPath, &problems)
            case .points(let slot):
                checkMeasure(parameters[keyPath: slot], unit: "points", keyPath, &problems)
            case .pointsPerSecond(let slot):
                checkMeasure(parameters[keyPath: slot], unit: "points per second", keyPath, &problems)
            case .radians(let slot):
                checkMeasure(parameters[keyPath: slot], unit: "radians", keyPath, &problems)
            case .ratio(let slot):
                checkMeasure(parameters[keyPath: slot], unit: "(a ratio)", keyPath, &problems)
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
           let maximum = parameters.maximumTouches, minimum >= 1, maximum >= 1, maximum < minimum {
            problems.append(LayoutProblem(path: "\(path).maximumTouches",
                message: "maximumTouches (\(maximum)) is less than minimumTouches (\(minimum)); "
                    + "raise maximumTouches or lower minimumTouches"))
        }
        return problems
    }

    /// The candidate closest to `name` by edit distance (ignoring case, counting a swap of two
    /// neighbouring letters as one edit), or one that starts with it, when it is close enough to
    /// be the likely intent: for "did you mean …?" suggestions here and in the configuration
    /// reader.
    public static func suggestion(for name: String, among candidates: some Sequence<String>) -> String? {
        let typed = Array(name.lowercased())
        guard !typed.isEmpty else { return nil }
        let allowed = typed.count <= 4 ? 1 : typed.count <= 8 ? 2 : 3
        var best: (candidate: String, distance: Int)? = nil
        for candidate in candidates where candidate != name {
            let known = Array(candidate.lowercased())
            var distance = editDistance(typed, known)
            // "userInteraction" for "userInteractionEnabled", "maxTouches" for "maximumTouches":
            // a truncated or abbreviated key is a likely intent.
            if distance > allowed, typed.count >= 4, typed.first == known.first, isSubsequence(typed, of: known) {
                distance = allowed
            }
            // "rotate" for "rotation": a long shared beginning with a different ending.
            let shared = zip(typed, known).prefix { $0 == $1 }.count
            if distance > allowed, shared >= 4, shared >= typed.count - 2 { distance = allowed }
            // No "did you mean "x"?" for "z": an edit must change less than half of the word.
            guard distance * 2 <= max(typed.count, known.count) else { continue }
            if distance <= allowed, distance < (best?.distance ?? Int.max) { best = (candidate, distance) }
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

    private static func checkMeasure(_ value: Double?, unit: String, _ path: String, _ problems: inout [LayoutProblem]) {
        guard let value else { return }
        if !value.isFinite {
            problems.append(LayoutProblem(path: path, message: "\(describe(value)) is not allowed here; use a finite number"))
        } else if value < 0 {
            problems.append(LayoutProblem(path: path,
                message: "\(describe(value)) is negative; use 0 \(unit) or more"))
        }
    }

    /// A number as a person would write it: `2`, not `2.0`.
    static func describe(_ value: Double) -> String {
        if value.isNaN { return "NaN" }
        if value.isInfinite { return value < 0 ? "-Infinity" : "Infinity" }
        if value == value.rounded(), abs(value) < 1e15 { return String(Int(value)) }
        return String(value)
    }

    /// The state of one validation run.
    private struct Validation {
        var problems: [LayoutProblem] = []
        /// First use of each view id.
        var viewPaths: [String: String] = [:]
        /// First use of each recognizer id, and its failure requirements for the cycle check.
        var recognizerPaths: [String: String] = [:]
        var recognizerOrder: [String] = []
        var requirements: [String: [(id: String, path: String)]] = [:]

        /// Records every id before the checks, so a reference to a view or recognizer later in
        /// the tree is known, and duplicates point at the first use.
        mutating func collectIDs(_ view: ViewSpec, path: String) {
            if viewPaths[view.id] == nil { viewPaths[view.id] = path }
            for (index, recognizer) in view.recognizers.enumerated() where recognizerPaths[recognizer.id] == nil {
                recognizerPaths[recognizer.id] = "\(path).recognizers[\(index)]"
                recognizerOrder.append(recognizer.id)
            }
            for (index, subview) in view.subviews.enumerated() {
                collectIDs(subview, path: "\(path).subviews[\(index)]")
            }
        }

        /// Checks `view` and its subtree; returns the ids of the subtree's views below `view`.
        mutating func check(_ view: ViewSpec, path: String) -> Set<String> {
            checkOwnValues(view, path: path)
            for (index, recognizer) in view.recognizers.enumerated() {
                check(recognizer, path: "\(path).recognizers[\(index)]")
            }
            var descendants: Set<String> = []
            for (index, subview) in view.subviews.enumerated() {
                descendants.insert(subview.id)
                descendants.formUnion(check(subview, path: "\(path).subviews[\(index)]"))
            }
            if case .redirect(let target) = view.hitTest {
                checkRedirect(from: view, to: target, descendants: descendants, path: "\(path).hitTest.redirect")
            }
            return descendants
        }

        mutating func add(_ path: String, _ message: String) {
            problems.append(LayoutProblem(path: path, message: message))
        }

        mutating func checkOwnValues(_ view: ViewSpec, path: String) {
            if view.id.isEmpty {
                add("\(path).id", "the id is empty; give the view a name that is unique in the layout")
            } else if let first = viewPaths[view.id], first != path {
                add("\(path).id", "the view id \"\(view.id)\" is already used at \(first); give each view a unique id")
            }
            let frame = [view.frame.origin.x, view.frame.origin.y, view.frame.size.width, view.frame.size.height]
            let names = ["x", "y", "width", "height"]
            for (index, value) in frame.enumerated() {
                if !value.isFinite {
                    add("\(path).frame[\(index)]", "the \(names[index]) is \(describe(value)); use a finite number")
                } else if index >= 2, value < 0 {
                    add("\(path).frame[\(index)]",
                        "the \(names[index]) is \(describe(value)); make it 0 or more (frames grow right and down from x, y)")
                }
            }
            if !view.alpha.isFinite || view.alpha < 0 || view.alpha > 1 {
                add("\(path).alpha", "\(describe(view.alpha)) is outside 0…1; use a value from 0 (transparent) to 1 (opaque)")
            }
            let outset = view.hitOutset
            let sides = [outset.top, outset.left, outset.bottom, outset.right]
            if sides.allSatisfy({ $0 == outset.top || ($0.isNaN && outset.top.isNaN) }) {
                if !outset.top.isFinite {
                    add("\(path).hitOutset", "\(describe(outset.top)) is not allowed here; use a finite number of points")
                }
            } else {
                for (index, value) in sides.enumerated() where !value.isFinite {
                    add("\(path).hitOutset[\(index)]", "\(describe(value)) is not allowed here; use a finite number of points")
                }
            }
            if let slop = view.trackingSlop {
                if view.kind != .control {
                    add("\(path).trackingSlop",
                        "only controls track their touches; remove trackingSlop or make the view a control with kind: \"control\"")
                } else if !slop.isFinite {
                    add("\(path).trackingSlop", "\(describe(slop)) is not allowed here; use a finite number of points")
                } else if slop < 0 {
                    add("\(path).trackingSlop", "\(describe(slop)) is negative; use 0 points or more")
                }
            }
        }

        mutating func checkRedirect(from view: ViewSpec, to target: String, descendants: Set<String>, path: String) {
            if target == view.id {
                add(path, "\"\(target)\" is this view itself; name one of its descendants, or use hitTest: \"default\"")
            } else if descendants.contains(target) {
                return
            } else if viewPaths[target] != nil {
                add(path, "\"\(target)\" is not inside \"\(view.id)\"; a redirect must name one of this view's descendants"
                    + Self.choice(among: descendants.sorted()))
            } else if let near = LayoutValidator.suggestion(for: target, among: descendants.sorted()) {
                add(path, "no view has the id \"\(target)\"; did you mean \"\(near)\"?")
            } else {
                add(path, "no view has the id \"\(target)\"; name one of this view's descendants"
                    + Self.choice(among: descendants.sorted()))
            }
        }

        /// `" (…)"` listing a few valid choices, or advice when there are none.
        static func choice(among ids: [String]) -> String {
            if ids.isEmpty { return " (this view has no subviews, so remove the redirect)" }
            let shown = ids.prefix(5).map { "\"\($0)\"" }.joined(separator: ", ")
            return " (\(shown)\(ids.count > 5 ? ", …" : ""))"
        }

        mutating func check(_ recognizer: RecognizerSpec, path: String) {
            if recognizer.id.isEmpty {
                add("\(path).id", "the id is empty; give the recognizer a name that is unique in the layout")
            } else if let first = recognizerPaths[recognizer.id], first != path {
                add("\(path).id",
                    "the recognizer id \"\(recognizer.id)\" is already used at \(first); give each recognizer a unique id")
            }
            problems += LayoutValidator.problems(in: recognizer.parameters, of: recognizer.kind, path: path)
            let isFirstUse = recognizerPaths[recognizer.id] == path
            for (key, ids) in [("requireToFail", recognizer.requireToFail), ("simultaneousWith", recognizer.simultaneousWith)] {
                for (index, id) in ids.enumerated() {
                    let entryPath = "\(path).\(key)[\(index)]"
                    if id == recognizer.id {
                        add(entryPath, "\"\(id)\" is this recognizer itself; name another recognizer or remove the entry")
                    } else if recognizerPaths[id] == nil {
                        let near = LayoutValidator.suggestion(for: id, among: recognizerOrder)
                        add(entryPath, "no recognizer has the id \"\(id)\"; "
                            + (near.map { "did you mean \"\($0)\"?" } ?? "name a recognizer of this layout or remove the entry"))
                    } else if key == "requireToFail", isFirstUse {
                        requirements[recognizer.id, default: []].append((id, entryPath))
                    }
                }
            }
        }

        /// Depth-first search over `requireToFail` edges in layout order; each back edge closes
        /// one cycle, reported once at that edge's key path.
        mutating func checkCycles() {
            enum Mark { case onStack, done }
            var marks: [String: Mark] = [:]
            var stack: [String] = []
            func visit(_ id: String) {
                marks[id] = .onStack
                stack.append(id)
                for edge in requirements[id] ?? [] {
                    switch marks[edge.id] {
                    case nil:
                        visit(edge.id)
                    case .onStack:
                        let start = stack.lastIndex(of: edge.id)!
                        let members = stack[start...] + [edge.id]
                        add(edge.path, "requireToFail makes a cycle "
                            + members.map { "\"\($0)\"" }.joined(separator: " → ")
                            + ", so none of them can ever recognize; remove one of these requirements")
                    case .done:
                        break
                    }
                }
                stack.removeLast()
                marks[id] = .done
            }
            for id in recognizerOrder where marks[id] == nil { visit(id) }
        }
    }
}
