@testable import CommandLineParsing

/// A command with one argument of every kind, for the parser's tests.
struct Sample: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "sample", abstract: "Do a sample thing.",
        discussion: "A longer paragraph about the sample command, long enough to be wrapped at eighty columns by the help.")

    static var arguments: [Argument<Self>] {
        [.option("config", \.config, help: "The configuration file."),
         .option("output", short: "o", \.output, help: "Write here."),
         .option("socket", \.socket, valueName: "path", help: "The socket."),
         .option("kinds", \.kinds, help: "Event kinds."),
         .option("count", \.count, parsing: .unconditional, help: "Stop after this many."),
         .option("limit", \.limit, isHidden: true, help: "A hidden limit."),
         .flag("trace", \.trace, help: "Trace everything."),
         .positional(\.file, valueName: "file", help: "The input file."),
         .positional(\.extra, valueName: "extra", help: "An optional second file.")]
    }

    var config = "/etc/sample.json5"
    var output: String?
    var socket: String?
    var kinds: [String] = []
    var count: Int?
    var limit = 4096
    var trace = false
    var file = ""
    var extra: String?

    func validate() throws(ValidationError) {
        if let count, count < 1 { throw ValidationError("--count is \(count); use 1 or more") }
    }

    func run() throws {}
}

/// A command whose positional words may start with `-`, as `hit-test`'s point.
struct Point: ParsableCommand {
    static let configuration = CommandConfiguration(name: "point", abstract: "Take a point.")

    static var arguments: [Argument<Self>] {
        [.positional(\.layout, valueName: "layout", help: "A layout."),
         .positionals(\.point, valueName: "x y", parsing: .allUnrecognized, help: "X and Y.")]
    }

    var layout = ""
    var point: [String] = []

    func run() throws {}
}

/// A command that must be given an option.
struct Required: ParsableCommand {
    static let configuration = CommandConfiguration(name: "required", abstract: "Needs --config.")

    static var arguments: [Argument<Self>] {
        [.requiredOption("config", \.config, help: "The configuration.")]
    }

    var config = ""

    func run() throws {}
}

var sampleProgram: CommandLineProgram {
    CommandLineProgram(name: "tool", abstract: "A tool of subcommands.", version: "1.2.3",
                       commands: [Sample.self, Point.self, Required.self])
}

/// What a command line came to, in a form tests compare.
enum Result: Equatable {
    case output(String)
    case usageError(String)
    case sample(Sample)
    case point([String])
    case required(String)
}

extension Sample: Equatable {
    static func == (a: Sample, b: Sample) -> Bool {
        (a.config, a.output, a.socket, a.count) == (b.config, b.output, b.socket, b.count)
            && (a.limit, a.trace, a.file, a.extra) == (b.limit, b.trace, b.file, b.extra) && a.kinds == b.kinds
    }
}

func parse(_ words: [String], width: Int = 80) -> Result {
    switch sampleProgram.invocation(for: words, width: width) {
    case .output(let text): return .output(text)
    case .usageError(let text): return .usageError(text)
    case .run(let command):
        if let sample = command as? Sample { return .sample(sample) }
        if let point = command as? Point { return .point([point.layout] + point.point) }
        if let required = command as? Required { return .required(required.config) }
        fatalError("an unknown command")
    }
}

/// The first line of a usage error ("Error: …"), or nil when the words were no usage error.
func errorLine(_ words: [String]) -> String? {
    guard case .usageError(let text) = parse(words) else { return nil }
    return text.split(separator: "\n").first.map(String.init)
}

func sample(_ change: (inout Sample) -> Void) -> Result {
    var command = Sample()
    change(&command)
    return .sample(command)
}
