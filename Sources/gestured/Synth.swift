import CommandLineParsing
import GestureSystem
import SystemPackage
import TouchSynthesis

/// `gestured synth SCRIPT`: an evemu recording synthesised from a gesture script, positions in
/// screen points or a web page's CSS pixels (docs/command-line.md § synth), for `gestured
/// replay` and `evemu-play`; in the daemon's binary so a web developer needs no Swift toolchain.
struct Synth: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "synth",
        abstract: "Synthesise an evemu recording from a gesture script (positions in points or CSS pixels).",
        discussion: """
            SCRIPT lists fingers going down, moving and lifting (down F X Y, move F X Y [over D], \
            up F, wait D), one frame per line. A `screen W H` line gives the screen the positions \
            refer to; `units css` takes them in a web page's CSS pixels, made screen points by \
            `page origin X Y` (the viewport's corner on the screen, in points) and `page scale S` \
            (points per CSS pixel: devicePixelRatio × zoom) or `page viewport W H` (innerWidth \
            and innerHeight). Without a `panel FILE` line the recording is of gestured's own \
            virtual touchscreen. The recording goes to standard output, or to --output.
            """)

    static var arguments: [Argument<Self>] {
        [.option("output", short: "o", \.output, valueName: "file",
                 help: "Write the recording to this file instead of standard output."),
         .positional(\.script, valueName: "script", help: "The gesture script.")]
    }

    var output: String?
    var script = ""

    func validate() throws(ValidationError) {
        if let output, output.isEmpty { throw ValidationError("--output is empty; name the evemu file to write") }
    }

    func run() throws {
        let text: String
        do {
            text = try RecordingSynthesis.render(scriptAt: script, tool: "gestured synth")
        } catch {
            throw failure("gestured: \(error)")
        }
        guard let output, output != "-" else {
            try printOutput(text)
            return
        }
        do {
            try WholeFileWriter.writeWhole([(output, text)])
        } catch {
            throw failure("gestured: \(error); choose a writable path for --output")
        }
    }
}
