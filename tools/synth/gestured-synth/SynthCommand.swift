import ArgumentParser
import Foundation
import TouchSynthesis

/// `gestured-synth`: renders gesture scripts into evemu recordings of a virtual panel
/// (tools/synth/README.md). A developer tool: it makes the project's demo and test recordings
/// and is not installed with the daemon.
@main
struct SynthCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gestured-synth",
        abstract: "Render gesture scripts into evemu recordings of a virtual touch panel.",
        discussion: """
            Each SCRIPT (e.g. config/recordings/lobby-session.touches) names its panel, an evemu \
            description, and lists fingers going down, moving and lifting. The recording is \
            written beside the script with the extension .evemu, unless --output says otherwise. \
            The format is in tools/synth/README.md.
            """
    )

    @Option(name: .shortAndLong, help: "Write the recording here (one SCRIPT only); - for standard output.")
    var output: String?

    @Flag(help: "Write nothing: exit 1 if a recording differs from what its script renders.")
    var check = false

    @Argument(help: "Gesture scripts.")
    var scripts: [String]

    func validate() throws {
        if output != nil, scripts.count != 1 { throw ValidationError("--output takes exactly one SCRIPT") }
        if output != nil, check { throw ValidationError("--check compares the recordings beside the scripts; drop --output") }
    }

    func run() throws {
        var stale: [String] = []
        for script in scripts {
            let text: String
            do {
                text = try RecordingSynthesis.render(scriptAt: script)
            } catch {
                FileHandle.standardError.write(Data("\(error)\n".utf8))
                throw ExitCode(1)
            }
            let path = output ?? RecordingSynthesis.outputPath(forScript: script)
            if check {
                let existing = FileManager.default.contents(atPath: path)
                if existing != Data(text.utf8) { stale.append(path) }
            } else if path == "-" {
                FileHandle.standardOutput.write(Data(text.utf8))
            } else {
                do {
                    try Data(text.utf8).write(to: URL(fileURLWithPath: path), options: .atomic)
                } catch {
                    FileHandle.standardError.write(Data("\(path): cannot write the recording: \(error.localizedDescription)\n".utf8))
                    throw ExitCode(1)
                }
                FileHandle.standardError.write(Data("wrote \(path)\n".utf8))
            }
        }
        if !stale.isEmpty {
            for path in stale {
                FileHandle.standardError.write(Data("\(path) differs from what its script renders; run scripts/recordings.sh\n".utf8))
            }
            throw ExitCode(1)
        }
    }
}
