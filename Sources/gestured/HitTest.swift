import CommandLineParsing
import GestureConfig
import GestureCore

/// `gestured hit-test LAYOUT X Y`: the trace of docs/hit-testing.md, "The trace", then `=> VIEW` or `=>
/// none`.
struct HitTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "hit-test",
        abstract: "Print the hit-test trace of a point, one line per call, then the view that takes it.")

    static var arguments: [Argument<Self>] {
        [.positional(\.layout, valueName: "layout", help: "A layout file, or a configuration whose layout to use."),
         // Read by hand: "-5" looks like an option, and a point left of or above the screen is a
         // valid point to ask about.
         .positionals(\.point, valueName: "x y", parsing: .allUnrecognized,
                      help: "X and Y in screen points (negative values are points off the screen's top or left edge).")]
    }

    var layout = ""
    var point: [String] = []

    var x: Double { Double(point[0])! }
    var y: Double { Double(point[1])! }

    func validate() throws(ValidationError) {
        guard point.count == 2 else {
            throw ValidationError(point.count < 2 ? "give the point as X Y, in screen points (for example 120 -5)"
                : "unexpected \(point.dropFirst(2).map { "'\($0)'" }.joined(separator: ", ")) after X Y")
        }
        let limit = LayoutValidator.describe(LayoutLimits.points)
        for (name, text) in zip(["X", "Y"], point) {
            guard let value = Double(text) else {
                throw ValidationError("\(name) is '\(text)', not a number; give a number of points such as 120 or -5.5")
            }
            guard value.isFinite, abs(value) <= LayoutLimits.points else {
                throw ValidationError("\(name) is \(text); use a finite number of points from -\(limit) to \(limit)")
            }
        }
    }

    func run() throws {
        let configuration = try loadConfiguration(layout)
        let tree = ViewTree(validated: configuration.layout)
        let engine = Engine(tree: tree, settings: configuration.settings)
        let result = engine.hitTest(Point(x: x, y: y))
        var lines = result.trace.lines(in: tree)
        lines.append("=> " + (result.view.map { tree.id(of: $0) } ?? "none"))
        try printOutput(lines.joined(separator: "\n") + "\n")
    }
}
