import ArgumentParser
import GestureConfig

/// `gestured check-config FILE`: a summary and exit 0, or every problem and exit 1.
struct CheckConfig: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check-config",
        abstract: "Validate a configuration or a bare layout file.",
        discussion: """
            Prints a short summary and exits 0 when the file is valid. Otherwise prints every \
            problem, one per line, as FILE: KEY.PATH: what to change (or FILE:LINE:COLUMN: for \
            syntax errors), and exits 1.
            """)

    @Argument(help: "The configuration or layout file (JSON5).")
    var file: String

    func run() throws {
        let configuration = try loadConfiguration(file)
        try printOutput(configuration.summary + "\n")
    }
}
