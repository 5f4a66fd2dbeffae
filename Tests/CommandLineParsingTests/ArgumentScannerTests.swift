@testable import CommandLineParsing
import Testing

@Suite("Command-line grammar")
struct GrammarTests {
    @Test func defaultsComeFromTheCommandsInitialValues() {
        #expect(parse(["sample", "in.txt"]) == sample { $0.file = "in.txt" })
    }

    static let equivalentForms: [[String]] = [
        ["sample", "--config", "c.json5", "in.txt"],
        ["sample", "--config=c.json5", "in.txt"],
        ["sample", "in.txt", "--config", "c.json5"],
        ["sample", "--config", "x", "--config", "c.json5", "in.txt"],  // the last wins
    ]

    @Test(arguments: equivalentForms)
    func optionValuesTakeEitherForm(_ words: [String]) {
        #expect(parse(words) == sample { $0.config = "c.json5"; $0.file = "in.txt" })
    }

    @Test(arguments: [["-o", "out"], ["-o=out"], ["--output", "out"], ["--output=out"]])
    func shortNamesTakeValuesToo(_ words: [String]) {
        #expect(parse(["sample"] + words + ["in"]) == sample { $0.output = "out"; $0.file = "in" })
    }

    @Test func anEqualsSignAfterTheFirstBelongsToTheValue() {
        #expect(parse(["sample", "--config=a=b", "in"]) == sample { $0.config = "a=b"; $0.file = "in" })
    }

    @Test func repeatingOptionsKeepEveryValueInOrder() {
        #expect(parse(["sample", "--kinds", "a,b", "in", "--kinds=c"]) == sample { $0.kinds = ["a,b", "c"]; $0.file = "in" })
    }

    @Test func flagsMayBeRepeated() {
        #expect(parse(["sample", "--trace", "in", "--trace"]) == sample { $0.trace = true; $0.file = "in" })
    }

    @Test func optionalPositionalsFillInOrder() {
        #expect(parse(["sample", "a", "b"]) == sample { $0.file = "a"; $0.extra = "b" })
    }

    @Test func aDashAloneIsAValue() {
        #expect(parse(["sample", "-"]) == sample { $0.file = "-" })
        #expect(parse(["sample", "--socket", "-", "in"]) == sample { $0.socket = "-"; $0.file = "in" })
    }

    @Test func anEmptyWordIsAValue() {
        #expect(parse(["sample", ""]) == sample { $0.file = "" })
        #expect(parse(["sample", "--socket", "", "in"]) == sample { $0.socket = ""; $0.file = "in" })
    }

    @Test func doubleDashEndsTheOptions() {
        #expect(parse(["sample", "--", "--trace", "-o"]) == sample { $0.file = "--trace"; $0.extra = "-o" })
        #expect(parse(["sample", "--", "--help"]) == sample { $0.file = "--help" })
        #expect(parse(["sample", "in", "--"]) == sample { $0.file = "in" })
    }

    @Test func anUnconditionalOptionTakesAWordThatLooksLikeAnOption() {
        #expect(errorLine(["sample", "--count", "-1", "in"]) == "Error: --count is -1; use 1 or more")
        #expect(errorLine(["sample", "--count", "--help"])
            == "Error: The value '--help' is invalid for '--count <count>'; use a whole number")
    }

    static let missingValues: [([String], String)] = [
        (["sample", "--config"], "Error: Missing value for '--config <config>'"),
        (["sample", "--config="], "Error: Missing value for '--config <config>'"),
        (["sample", "--socket", "--trace", "in"], "Error: Missing value for '--socket <path>'"),
        (["sample", "--socket", "-x", "in"], "Error: Missing value for '--socket <path>'"),
        (["sample", "--socket", "--", "in"], "Error: Missing value for '--socket <path>'"),
        (["sample", "-o"], "Error: Missing value for '-o <output>'"),
        (["sample", "--count"], "Error: Missing value for '--count <count>'"),
        (["sample", "--limit"], "Error: Missing value for '--limit'"),
    ]

    @Test(arguments: missingValues)
    func aMissingValueNamesTheOption(_ words: [String], _ message: String) {
        #expect(errorLine(words) == message)
    }

    @Test func aMissingValueShowsTheOptionsHelp() {
        guard case .usageError(let text) = parse(["sample", "--socket"]) else { Issue.record("no usage error"); return }
        #expect(text == """
            Error: Missing value for '--socket <path>'
            Help:  --socket <path>  The socket.
            Usage: tool sample [--config <config>] [--output <output>] [--socket <path>] [--kinds <kinds> ...] [--count <count>] [--trace] <file> [<extra>]
              See 'tool sample --help' for more information.
            """)
    }

    static let unknownOptions: [([String], String)] = [
        (["sample", "--bogus", "in"], "Error: Unknown option '--bogus'"),
        (["sample", "--sockt", "x", "in"], "Error: Unknown option '--sockt'. Did you mean '--socket'?"),
        (["sample", "--Socket", "x", "in"], "Error: Unknown option '--Socket'. Did you mean '--socket'?"),
        (["sample", "-socket", "x", "in"], "Error: Unknown option '-socket'. Did you mean '--socket'?"),
        (["sample", "---socket", "x", "in"], "Error: Unknown option '---socket'. Did you mean '--socket'?"),
        (["sample", "-x", "in"], "Error: Unknown option '-x'"),
        (["sample", "-5", "in"], "Error: Unknown option '-5'"),
        (["sample", "-oout", "in"], "Error: Unknown option '-oout'. Did you mean '-o out'?"),
        (["sample", "-o/x", "in"], "Error: Unknown option '-o/x'. Did you mean '-o /x'?"),
        (["sample", "--=x", "in"], "Error: Unknown option '--'"),
        (["sample", "-=", "in"], "Error: Unknown option '-='"),
    ]

    @Test(arguments: unknownOptions)
    func anUnknownOptionIsNamedWithTheClosestKnownOne(_ words: [String], _ message: String) {
        #expect(errorLine(words) == message)
    }

    @Test func aFlagTakesNoValue() {
        #expect(errorLine(["sample", "--trace=yes", "in"])
            == "Error: The option '--trace' does not take any value, but 'yes' was specified.")
    }

    static let wrongPositionals: [([String], String)] = [
        (["sample"], "Error: Missing expected argument '<file>'"),
        (["sample", "a", "b", "c"], "Error: Unexpected argument 'c'"),
        (["sample", "a", "b", "c", ""], "Error: 2 unexpected arguments: 'c', ''"),
        (["required"], "Error: Missing expected argument '--config <config>'"),
    ]

    @Test(arguments: wrongPositionals)
    func positionalsMustMatchTheirCount(_ words: [String], _ message: String) {
        #expect(errorLine(words) == message)
    }

    @Test func aValueOfTheWrongTypeNamesTheOptionAndWhatItTakes() {
        guard case .usageError(let text) = parse(["sample", "--count", "many", "in"]) else { Issue.record("parsed"); return }
        #expect(text.hasPrefix("""
            Error: The value 'many' is invalid for '--count <count>'; use a whole number
            Help:  --count <count>  Stop after this many.
            Usage: tool sample
            """))
    }

    /// An invalid value explains the line better than the positional it swallowed.
    @Test func aValuesTypeIsCheckedBeforeTheNumberOfPositionals() {
        #expect(errorLine(["sample", "--count", "in"])
            == "Error: The value 'in' is invalid for '--count <count>'; use a whole number")
    }

    @Test(arguments: ["1.5", "", " 1", "0x10", "99999999999999999999", "1e3", "١"])
    func onlyDecimalWholeNumbersInRangeAreNumbers(_ text: String) {
        #expect(errorLine(["sample", "--count", text, "in"])
            == "Error: The value '\(text)' is invalid for '--count <count>'; use a whole number")
    }

    @Test func validationErrorsAreUsageErrors() {
        guard case .usageError(let text) = parse(["sample", "--count=0", "in"]) else { Issue.record("parsed"); return }
        #expect(text.hasPrefix("Error: --count is 0; use 1 or more\nUsage: tool sample "))
    }

    @Test func allUnrecognizedTakesNegativeNumbersAndUnknownOptions() {
        #expect(parse(["point", "L", "-5", "-5"]) == .point(["L", "-5", "-5"]))
        #expect(parse(["point", "L", "--x", "-1e3"]) == .point(["L", "--x", "-1e3"]))
        #expect(parse(["point", "L", "--", "-h"]) == .point(["L", "-h"]))
        #expect(parse(["point", "-5", "1", "2"]) == .point(["-5", "1", "2"]))
    }

    @Test func helpStillWinsInAllUnrecognized() {
        guard case .output(let text) = parse(["point", "L", "1", "-h"]) else { Issue.record("no help"); return }
        #expect(text.hasPrefix("OVERVIEW: Take a point."))
    }
}

@Suite("Built-in flags")
struct BuiltInFlagTests {
    @Test(arguments: [["--help"], ["-h"], ["in", "--bogus", "--help"], ["--help", "--bogus"], ["--version", "--help"],
                      ["--help", "--version"], ["--count", "5", "--help"], ["-h", "--socket", ""]])
    func helpAnswersWhateverElseTheLineHolds(_ words: [String]) {
        guard case .output(let text) = parse(["sample"] + words) else { Issue.record("no help for \(words)"); return }
        #expect(text.hasPrefix("OVERVIEW: Do a sample thing."))
    }

    @Test(arguments: [["--version"], ["in", "--bogus", "--version"], ["--version", "x", "y", "z"]])
    func versionAnswersWhateverElseTheLineHolds(_ words: [String]) {
        #expect(parse(["sample"] + words) == .output("1.2.3"))
        #expect(parse(words) == .output("1.2.3") || words.first != "--version")
    }

    @Test func anErrorOnTheWayBeatsHelp() {
        #expect(errorLine(["sample", "--socket", "--help"]) == "Error: Missing value for '--socket <path>'")
        #expect(errorLine(["sample", "--trace=1", "--help"])
            == "Error: The option '--trace' does not take any value, but '1' was specified.")
    }

    @Test func theValueOfAnOptionIsNoBuiltIn() {
        #expect(parse(["sample", "--socket=--help", "in"]) == sample { $0.socket = "--help"; $0.file = "in" })
    }

    @Test func helpThenDumpHelpThenVersion() {
        guard case .output(let help) = parse(["sample", "--version", "--experimental-dump-help", "-h"]),
              case .output(let json) = parse(["sample", "--version", "--experimental-dump-help"]),
              case .output(let rootJSON) = parse(["--version", "--experimental-dump-help"]),
              case .output(let helpJSON) = parse(["help", "--version", "--experimental-dump-help"]) else {
            Issue.record("no output"); return
        }
        #expect(help.hasPrefix("OVERVIEW: "))
        #expect(json.hasPrefix("{") && rootJSON.hasPrefix("{"))
        #expect(helpJSON.contains("\"commandName\" : \"help\""))
    }

    @Test func dumpHelpIsJSON() {
        guard case .output(let text) = parse(["sample", "--experimental-dump-help"]) else { Issue.record("no JSON"); return }
        #expect(text.hasPrefix("{\n  \"command\" : {\n    \"abstract\" : \"Do a sample thing.\",\n"))
        #expect(text.hasSuffix("  \"serializationVersion\" : 0\n}"))
        #expect(!text.contains("\"limit\"") || text.contains("\"shouldDisplay\" : false"))
    }
}

@Suite("The program's own words")
struct ProgramTests {
    @Test func noWordsIsTheProgramsHelp() {
        #expect(parse([]) == parse(["--help"]))
        #expect(parse([]) == parse(["help"]))
        #expect(parse([]) == parse(["--"]))
    }

    @Test(arguments: [["bogus"], ["Sample"], [""]])
    func anUnknownSubcommandIsAnUnexpectedArgument(_ words: [String]) {
        #expect(errorLine(words) == "Error: Unexpected argument '\(words[0])'")
    }

    @Test func theProgramsUnknownOptionsAndWordsAreErrors() {
        #expect(parse(["--bogus", "sample"]) == .usageError("""
            Error: Unknown option '--bogus'
            Usage: tool <subcommand>
              See 'tool --help' for more information.
            """))
        #expect(errorLine(["", "sample"]) == "Error: 2 unexpected arguments: '', 'sample'")
        #expect(errorLine(["--", "sample"]) == "Error: Unexpected argument 'sample'")
    }

    @Test func helpSubcommandShowsTheNamedCommand() {
        #expect(parse(["help", "sample"]) == parse(["sample", "--help"]))
        #expect(parse(["help", "sample", "point"]) == parse(["sample", "--help"]))
        #expect(parse(["help", "bogus"]) == parse(["--help"]))
        #expect(parse(["help", "--help"]) == parse(["--help"]))
        #expect(parse(["help", "--version"]) == .output("1.2.3"))
    }

    @Test func helpSubcommandHasItsOwnHelp() {
        #expect(parse(["help", "help"]) == .output("""
            OVERVIEW: Show subcommand help information.

            USAGE: tool help [<subcommands> ...]

            ARGUMENTS:
              <subcommands>

            OPTIONS:
              --version               Show the version.

            """))
    }

    @Test func helpSubcommandRefusesUnknownOptions() {
        #expect(parse(["help", "-x"]) == .usageError("Error: Unknown option '-x'\nUsage: tool help [<subcommands> ...]"))
    }
}

@Suite("Hostile command lines")
struct HostileCommandLineTests {
    /// Whatever the words, the parser answers (a command, a text, or a usage error) and never
    /// traps: replacement characters from non-UTF-8 bytes, NULs, huge and many words.
    @Test(arguments: [
        ["\u{FFFD}"], ["--\u{FFFD}"], ["sample", "\u{FFFD}\u{FFFD}"], ["sample", "--count", "\u{FFFD}"],
        ["sample", "\u{0}"], ["sample", "--\u{0}=\u{0}"], ["sample", "-\u{0}"], ["-"], ["--="], ["-="], ["="],
        ["sample", "--", "--", "--"], ["sample", "-o", "--", "x"], ["sample", "-é", "x"], ["sample", "-👍🏽"],
        ["sample", "--config=", "--config"], ["help", "\u{FFFD}", "-"], ["point", "--", "--"],
        ["sample", String(repeating: "-", count: 10_000)], ["sample", "--" + String(repeating: "x", count: 100_000)],
    ])
    func anyWordsGetAnAnswer(_ words: [String]) {
        _ = parse(words)
        _ = parse(words, width: 1)
        _ = parse(words, width: 0)
        _ = parse(words, width: -5)
    }

    @Test func manyWordsParseInLinearTime() {
        let words = ["sample", "in"] + Array(repeating: "--kinds=a", count: 200_000)
        #expect(parse(words) == sample { $0.file = "in"; $0.kinds = Array(repeating: "a", count: 200_000) })
        let extras = ["point", "L"] + Array(repeating: "-1", count: 200_000)
        guard case .point(let point) = parse(extras) else { Issue.record("not a point"); return }
        #expect(point.count == 200_001)
    }

    /// 5,000 command lines made of the pieces that trip parsers up, from a fixed seed: each
    /// gets an answer, and a parsed command only when every word was accounted for.
    @Test func randomCommandLinesGetAnAnswer() {
        let pieces = ["-", "--", "-o", "-h", "--help", "--version", "--count", "--count=", "--kinds", "--trace",
                      "--trace=1", "=", "x", "-1", "", "\u{FFFD}", "sample", "point", "required", "help", "--config",
                      "-oo", "--=", "-=x", "--experimental-dump-help", "--socket", "-5", "--x"]
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next(_ bound: Int) -> Int {
            // xorshift64*: the same lines on every run.
            state ^= state >> 12; state ^= state << 25; state ^= state >> 27
            return Int((state &* 0x2545_F491_4F6C_DD1D) >> 33) % bound
        }
        for _ in 0..<5_000 {
            let words = (0..<next(8)).map { _ in pieces[next(pieces.count)] }
            switch parse(words) {
            case .usageError(let text): #expect(text.hasPrefix("Error: "), "\(words)")
            case .output(let text): #expect(!text.isEmpty, "\(words)")
            case .sample, .point, .required: break
            }
        }
    }

    @Test func anErrorQuotesTheWordAsGiven() {
        #expect(errorLine(["sample", "--\u{FFFD}"]) == "Error: Unknown option '--\u{FFFD}'")
    }
}
