import CommandLineParsing
import GestureConfig

/// `gestured check-config FILE`: a summary and exit 0, or every problem and exit 1.
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "check-config",
        abstract: "Validate a configuration or a bare layout file.",
        discussion: """
            Prints a short summary and exits 0 when the file is valid. Otherwise prints every \
            problem, one per line, as FILE: KEY.PATH: what to change (or FILE:LINE:COLUMN: for \
            syntax errors), and exits 1.
            """)

    static var arguments: [Argument<Self>] {
        [.positional(\.file, valueName: "file", help: "The configuration or layout file (JSON5).")]
    }

    var file = ""

    func run() throws {
        let configuration = try loadConfiguration(file)
        try printOutput(configuration.summary + "\n")
    }
}
