/// Checks the rules of a layout that span more than one value (SPEC 3): unique ids, redirect
/// targets, recognizer references and failure-requirement cycles, sizes and ranges.
/// Type errors and unknown keys are the configuration reader's job; this works on values.
public enum LayoutValidator {
    /// Every problem in the layout rooted at `root`, whose key path is `path`.
    public static func problems(in root: ViewSpec, path: String = "layout") -> [LayoutProblem] {
        // Placeholder until the full validator lands: ids only.
        var problems: [LayoutProblem] = []
        var seen: [String: String] = [:]
        func visit(_ view: ViewSpec, _ path: String) {
            if let first = seen[view.id] {
                problems.append(LayoutProblem(path: "\(path).id",
                    message: "the view id \"\(view.id)\" is already used at \(first); give each view a unique id"))
            } else {
                seen[view.id] = path
            }
            for (i, sub) in view.subviews.enumerated() { visit(sub, "\(path).subviews[\(i)]") }
        }
        visit(root, path)
        return problems
    }
}
