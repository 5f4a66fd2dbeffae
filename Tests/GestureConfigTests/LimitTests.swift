#if canImport(Glibc)
import Glibc
#endif
import Testing
@testable import GestureConfig
import GestureCore

/// Issue 12 from the configuration side: every number has a range stated in the message,
/// no text nests deep enough to exhaust the stack, and files that are not files say so.
struct LimitTests {
    /// Crash 1: 31 KB of "[" overflowed the stack in the syntax locator (check-config,
    /// replay --config, SIGHUP and reload died with SIGSEGV).
    @Test func deeplyNestedFilesGetAPosition() {
        #expect(ProblemLines.configuration(String(repeating: "[", count: 31_000)) == [
            "1:129: objects and arrays nest more than 128 levels deep here; that is the limit (docs/limits.md), "
                + "so flatten the structure",
        ])
        let nested = "{ id: \"a\", frame: [0, 0, 1, 1], x: " + String(repeating: "{ a: ", count: 200) + "1"
            + String(repeating: "}", count: 200) + " }"
        #expect(ProblemLines.layout(nested) == [
            "1:671: objects and arrays nest more than 128 levels deep here; that is the limit (docs/limits.md), "
                + "so flatten the structure",
        ])
    }

    /// Crashes 3 and 4, read from text as check-config, reload and layout.set read them.
    @Test(arguments: [
        ("touches: 1e9", "layout.recognizers[0].touches: 1000000000 is too large; use a whole number of touches from 1 to 20"),
        ("maxDuration: 9.3e12", "layout.recognizers[0].maxDuration: 9300000000000 is too large; use 0 to 3600 seconds"),
        ("maxInterval: 1e13", "layout.recognizers[0].maxInterval: 10000000000000 is too large; use 0 to 3600 seconds"),
        // Whole numbers beyond the range are out of range, not "not a whole number".
        ("taps: 1e15", "layout.recognizers[0].taps: 1000000000000000 is too large; use a whole number of taps from 1 to 10"),
        ("taps: 1e300", "layout.recognizers[0].taps: 1e+300 is out of range; use a whole number of taps from 1 to 10"),
        ("taps: 2.5", "layout.recognizers[0].taps: 2.5 is not a whole number; use a whole number of taps from 1 to 10"),
    ])
    func recognizerValuesHaveRanges(_ members: String, _ problem: String) {
        #expect(ProblemLines.view("recognizers: [{ id: \"t\", type: \"tap\", \(members) }]") == [problem])
    }

    @Test func globalOverridesHaveTheSameRanges() {
        #expect(ProblemLines.configuration("""
            { screen: { width: 800, height: 480 }, layout: { id: "r", frame: [0, 0, 800, 480] },
              gestures: { tap: { maxInterval: 1e13, touches: 1e9 }, longPress: { minimumDuration: 1e300 },
                          touch: { tapInterval: 4000, tapDistance: 2e6 }, control: { trackingSlop: 1e7 } } }
            """) == [
            "gestures.tap.touches: 1000000000 is too large; use a whole number of touches from 1 to 20",
            "gestures.tap.maxInterval: 10000000000000 is too large; use 0 to 3600 seconds",
            "gestures.longPress.minimumDuration: 1e+300 is too large; use 0 to 3600 seconds",
            "gestures.control.trackingSlop: 10000000 is too large; use 0 to 1000000 points",
            "gestures.touch.tapInterval: 4000 is too large; use 0 to 3600 seconds",
            "gestures.touch.tapDistance: 2000000 is too large; use 0 to 1000000 points",
        ])
    }

    static func configuration(_ screen: String = "width: 800, height: 480", socket: String = "") -> [String] {
        ProblemLines.configuration("{ screen: { \(screen) }, socket: { \(socket) }, layout: { id: \"r\", frame: [0, 0, 800, 480] } }")
    }

    /// `check-config` accepted a socket path longer than a Unix socket holds.
    @Test func theSocketPathFitsAUnixSocket() {
        let long = "/run/" + String(repeating: "x", count: 103)
        #expect(Self.configuration(socket: "path: \"\(long)\"") == [
            "socket.path: the path is 108 bytes long; a Unix socket's path holds at most 107 bytes, so use a shorter one "
                + "such as \"/run/gestured/gestured.sock\"",
        ])
        #expect(Self.configuration(socket: "path: \"\(long.dropLast())\"") == [])
    }

    /// `check-config` accepted a calibration matrix that maps every touch off the screen.
    @Test(arguments: [
        ("[1, 0, 0, 0, 1, 0]", nil),
        ("[-1, 0, 1, 0, 1, 0]", nil),  // mirrored, still on the screen
        ("[0.5, 0, 0.9, 0, 0.5, 0.9]", nil),  // overlaps a corner
        ("[1, 0, 1, 0, 1, 0]", "the matrix maps every touch off the screen"),  // shifted right by a whole screen
        ("[1, 0, -3, 0, 1, 0.5]", "the matrix maps every touch off the screen"),
        ("[0.5, 0.5, 1.2, -0.5, 0.5, 0]", "the matrix maps every touch off the screen"),  // rotated and shifted out
        ("[0, 0, 0.5, 0, 0, 0.5]", "the matrix maps the whole panel onto a line or a point"),
        ("[1, 2, 0, 2, 4, 0]", "the matrix maps the whole panel onto a line or a point"),
        ("[1, 0, 1000, 0, 1, 0]", "1000 is too large; use -100 to 100"),
    ] as [(String, String?)])
    func theCalibrationKeepsThePanelOnTheScreen(_ matrix: String, _ problem: String?) {
        let lines = Self.configuration("width: 800, height: 480, calibration: \(matrix)")
        if let problem {
            #expect(lines.count == 1)
            #expect(lines.first?.contains(problem) == true, "\(lines)")
        } else {
            #expect(lines == [])
        }
    }

    @Test func screenSizesAreBounded() {
        #expect(Self.configuration("width: 2e6, height: 480") == [
            "screen.width: 2000000 is not a usable width; use a number of points greater than 0 and at most 1000000",
        ])
    }

    // MARK: Files that are not regular files

    static func temporaryDirectory() -> String {
        var template = Array("/tmp/gestured-limits-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)) }
    }

    /// A FIFO as the configuration blocked (or said "permission denied", as root); /dev/null
    /// said the same. Each now says what it is.
    @Test func aFIFOIsNotAConfiguration() throws {
        let directory = Self.temporaryDirectory()
        defer { rmdir(directory) }
        let fifo = directory + "/gestured.json5"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { unlink(fifo) }
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: fifo) }
        #expect(error.problems.map(\.message) == [
            "cannot read the file (it is a FIFO (named pipe), not a regular file); name a configuration or layout file",
        ])
    }

    @Test func aDeviceIsNotAConfiguration() throws {
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: "/dev/null") }
        #expect(error.problems.map(\.message) == [
            "cannot read the file (it is a character device (such as /dev/null), not a regular file); "
                + "name a configuration or layout file",
        ])
    }

    @Test func aHugeFileIsRefusedBeforeItIsRead() throws {
        let directory = Self.temporaryDirectory()
        defer { rmdir(directory) }
        let path = directory + "/huge.json5"
        let fd = open(path, O_WRONLY | O_CREAT, 0o600)
        #expect(fd >= 0)
        #expect(ftruncate(fd, off_t(ConfigurationFile.maximumSize + 1)) == 0)
        close(fd)
        defer { unlink(path) }
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: path) }
        #expect(error.problems.map(\.message) == [
            "cannot read the file (it is 8388609 bytes, more than the 8 MiB a configuration or layout file may have); "
                + "split the layout or remove what is unused",
        ])
    }

    // MARK: Positions beside key paths

    @Test func keyPathProblemsCiteTheKeysPosition() throws {
        let text = """
            {
              screen: { width: 800, height: 480 },
              layout: {
                id: "r", frame: [0, 0, 800, 480],
                recognizers: [{ id: "t", type: "tap", touches: 1e9 }],
                subviews: [{ id: "a" }],
              },
            }
            """
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.parse(text: text, file: "k.json5") }
        #expect(error.description == """
            k.json5:6:16: layout.subviews[0].frame: missing; add frame: [x, y, width, height] in the superview's coordinates
            k.json5:5:43: layout.recognizers[0].touches: 1000000000 is too large; use a whole number of touches from 1 to 20
            """)
    }

    /// At most 100 problems are listed, and the last line counts the rest.
    @Test func longListsOfProblemsAreCut() {
        let views = (0..<300).map { "{ id: \"v\($0)\", frame: [0, 0, -1, 1] }" }.joined(separator: ", ")
        let lines = ProblemLines.layout("{ id: \"r\", frame: [0, 0, 1, 1], subviews: [\(views)] }")
        #expect(lines.count == 101)
        #expect(lines.last == "layout: 200 more problems are not listed (at most 100 are); fix these and check again")
    }
}
