#if canImport(Glibc)
import Glibc
#endif
import CommandLineParsing
import GestureSystem
import SystemPackage

/// The `gestured` command: argument parsing and wiring only.
@main
enum Gestured {
    /// Every subcommand, and the text of `gestured --help`.
    static var program: CommandLineProgram {
        CommandLineProgram(
            name: "gestured",
            abstract: "Gesture-recognizer arbitration daemon for Linux touch kiosks.",
            discussion: """
                gestured hit-tests every touch into a configured view tree as UIKit does, lets the \
                gesture recognizers of the view and its ancestors compete, and publishes touch \
                deliveries, gestures and control events as JSON Lines.
                """,
            version: GesturedVersion.string,
            commands: [Run.self, Replay.self, Record.self, Synth.self, Devices.self, Tail.self, HitTest.self, CheckConfig.self,
                       Map.self, Render.self, Calibrate.self])
    }

    static func main() {
        exit(status(for: Array(CommandLine.arguments.dropFirst()), width: Terminal.columns()))
    }

    /// Parses `words`, prints what they ask for or runs the command, and returns the exit
    /// status: 0, 1 when the command failed (its message printed) or the status it names (78:
    /// `run` refused its configuration), 64 for a usage error.
    static func status(for words: [String], width: Int) -> Int32 {
        switch program.invocation(for: words, width: width) {
        case .output(let text):
            // Help goes to a terminal or a pager; a closed one has nobody to tell.
            _ = try? FileDescriptor.standardOutput.writeAll(Array((text + "\n").utf8), subject: "standard output")
            return 0
        case .usageError(let text):
            printError(text)
            return CommandLineProgram.usageErrorStatus
        case .run(let command):
            do {
                try command.run()
                return 0
            } catch let failure as CommandFailure {
                return failure.status
            } catch {
                printError("Error: \(error)")
                return 1
            }
        }
    }
}

/// The version printed by `--version` and in the socket's `hello`.
enum GesturedVersion {
    static let string = "0.1.0"
}
