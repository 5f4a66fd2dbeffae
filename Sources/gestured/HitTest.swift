import ArgumentParser
import GestureConfig
import GestureCore

/// `gestured hit-test LAYOUT X Y`: the trace of SPEC 4, then `=> VIEW` or `=> none`.
struct HitTest: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "hit-test",
        abstract: "Print the hit-test trace of a point, one line per call, then the view that takes it.")

    @Argument(help: "A layout file, or a configuration whose layout to use.")
    var layout: String

    @Argument(help: "X in screen points.")
    var x: Double

    @Argument(help: "Y in screen points.")
    var y: Double

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
