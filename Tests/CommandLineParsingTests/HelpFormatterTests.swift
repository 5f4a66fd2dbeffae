@testable import CommandLineParsing
import Testing

@Suite("Help text")
struct HelpTextTests {
    @Test func aCommandsHelpListsItsArgumentsAndOptions() {
        #expect(parse(["sample", "--help"]) == .output("""
            OVERVIEW: Do a sample thing.

            A longer paragraph about the sample command, long enough to be wrapped at
            eighty columns by the help.

            USAGE: tool sample [--config <config>] [--output <output>] [--socket <path>] [--kinds <kinds> ...] [--count <count>] [--trace] <file> [<extra>]

            ARGUMENTS:
              <file>                  The input file.
              <extra>                 An optional second file.

            OPTIONS:
              --config <config>       The configuration file. (default: /etc/sample.json5)
              -o, --output <output>   Write here.
              --socket <path>         The socket.
              --kinds <kinds>         Event kinds.
              --count <count>         Stop after this many.
              --trace                 Trace everything.
              --version               Show the version.
              -h, --help              Show help information.

            """))
    }

    @Test func theProgramsHelpListsItsSubcommands() {
        #expect(parse(["--help"]) == .output("""
            OVERVIEW: A tool of subcommands.

            USAGE: tool <subcommand>

            OPTIONS:
              --version               Show the version.
              -h, --help              Show help information.

            SUBCOMMANDS:
              sample                  Do a sample thing.
              point                   Take a point.
              required                Needs --config.

              See 'tool help <subcommand>' for detailed help.
            """))
    }

    @Test func aRequiredOptionIsNotBracketed() {
        guard case .output(let text) = parse(["required", "-h"]) else { Issue.record("no help"); return }
        #expect(text.contains("USAGE: tool required --config <config>\n"))
    }

    @Test func aLabelTooWideForTheGutterPutsItsHelpOnTheNextLine() {
        guard case .output(let text) = parse(["point", "-h"]) else { Issue.record("no help"); return }
        #expect(text.contains("  <layout>                A layout.\n  <x y>                   X and Y.\n"))
    }

    static let wrapping: [(String, Int, Int, String)] = [
        ("one two three", 80, 0, "one two three"),
        ("one two three", 8, 0, "one two\nthree"),
        ("one two three", 10, 2, "  one two\n  three"),
        ("averyveryverylongword next", 8, 0, "averyveryverylongword\nnext"),
        ("first\n\nsecond", 80, 4, "    first\n\n    second"),
        ("", 80, 4, ""),
        ("x y", 3, 26, "x\ny"),   // narrower than the gutter: a word a line, never a trap
    ]

    @Test(arguments: wrapping)
    func wrapsAtSpacesAndKeepsLineBreaks(_ text: String, _ columns: Int, _ indent: Int, _ expected: String) {
        let wrapped = HelpFormatter.wrap(text, to: columns, indent: indent)
        if indent >= columns {
            #expect(wrapped.split(separator: "\n").map { String($0.drop { $0 == " " }) } == ["x", "y"])
        } else {
            #expect(wrapped == expected)
        }
    }

    @Test func theTerminalsWidthWrapsTheHelp() {
        guard case .output(let wide) = parse(["sample", "--help"], width: 200),
              case .output(let narrow) = parse(["sample", "--help"], width: 40) else { Issue.record("no help"); return }
        #expect(wide.contains("  --config <config>       The configuration file. (default: /etc/sample.json5)\n"))
        #expect(narrow.contains("  --config <config>       The\n"))
    }
}

@Suite("Edit distance")
struct EditDistanceTests {
    @Test(arguments: [("socket", "socket", 0), ("sockt", "socket", 1), ("", "abc", 3), ("kitten", "sitting", 3),
                      ("config", "confi", 1), ("ab", "ba", 2)])
    func levenshtein(_ a: String, _ b: String, _ distance: Int) {
        #expect(EditDistance.between(a, b) == distance)
        #expect(EditDistance.between(b, a) == distance)
    }
}
