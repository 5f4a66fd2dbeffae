#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Issue 25: recordings whose bytes or times are wrong, replayed by the real binary: times
/// that go back are clamped with a warning naming file and line (a `warning` event and a line
/// on stderr); line endings and encodings no recorder writes are named with the fix.
@Suite("gestured replay: times and encodings")
struct ReplayInputTests {
    /// An evemu and a libinput record file of the project, for the lobby layout.
    static let recordings = ["config/recordings/one-finger-taps.evemu",
                             "Tests/Fixtures/recordings/elan-touchscreen.tap.libinput-record.yml"]

    /// A directory of the test's own, removed with it.
    final class Directory {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-\(UUID().uuidString)")
        init() throws { try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true) }
        deinit { try? FileManager.default.removeItem(at: url) }

        func write(_ name: String, _ bytes: [UInt8]) throws -> String {
            let path = url.appendingPathComponent(name).path
            try Data(bytes).write(to: URL(fileURLWithPath: path))
            return path
        }
    }

    static func replay(_ path: String) throws -> Gestured.Result {
        try Gestured.run(["replay", "--config", "config/lobby.json5", path])
    }

    static func bytes(_ recording: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: Gestured.packageRoot + "/" + recording)))
    }

    /// One frame of the evemu recording stamped 0.2 s before the frame before it.
    @Test func aTimeThatGoesBackIsClampedWithAWarningOnStderrAndInTheStream() throws {
        var lines = String(decoding: try Self.bytes(Self.recordings[0]), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let frameEnds = lines.indices.filter { lines[$0].hasPrefix("E:") && lines[$0].hasSuffix(" 0000 0000 0000") }
        let start = frameEnds[4] + 1, end = frameEnds[5]
        for index in start...end {
            let fields = lines[index].split(separator: " ", maxSplits: 2)
            let stamp = fields[1].split(separator: ".")
            let time = Int64(stamp[0])! * 1_000_000 + Int64(stamp[1])! - 200_000
            let fraction = String(time % 1_000_000)
            lines[index] = "E: \(time / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count))\(fraction) \(fields[2])"
        }
        let directory = try Directory()
        let path = try directory.write("back.evemu", Array(lines.joined(separator: "\n").utf8))
        let result = try Self.replay(path)
        #expect(result.status == 0)
        let stderr = result.stderr.split(separator: "\n").map(String.init)
        #expect(stderr.count == 2)
        #expect(stderr.first?.hasPrefix("gestured: warning: \(path):\(start + 1): the time goes back here, from ") == true)
        #expect(stderr.last?.hasPrefix("gestured: warning: \(path): \(end - start + 1) events in one place went back in time "
            + "(lines \(start + 1) to \(end + 1), at most 0.") == true)
        let events = try result.stdout.split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
        let warnings = events.filter { $0["type"] as? String == "warning" }.map { "gestured: warning: " + ($0["message"] as! String) }
        #expect(warnings == stderr)
        let times = events.map { $0["time"] as! Int }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 })
    }

    /// CRLF line endings and a UTF-8 byte order mark replay exactly as the file does.
    @Test(arguments: recordings)
    func crlfAndAByteOrderMarkReplayAsTheFileDoes(_ recording: String) throws {
        let original = try Self.replay(Gestured.packageRoot + "/" + recording)
        #expect(original.status == 0)
        let bytes = try Self.bytes(recording)
        let crlf = bytes.flatMap { $0 == UInt8(ascii: "\n") ? [UInt8(ascii: "\r"), $0] : [$0] }
        let directory = try Directory()
        for variant in [crlf, [0xEF, 0xBB, 0xBF] + bytes, [0xEF, 0xBB, 0xBF] + crlf] {
            let result = try Self.replay(try directory.write("variant", variant))
            #expect(result.status == 0)
            #expect(result.stderr.isEmpty)
            #expect(result.stdout == original.stdout)
        }
    }

    /// Each mistake is named with the file (and line), exit status 1, nothing on stdout.
    @Test(arguments: recordings)
    func lineEndingAndEncodingMistakesAreNamed(_ recording: String) throws {
        let bytes = try Self.bytes(recording)
        let text = String(decoding: bytes, as: UTF8.self)
        let utf16 = Array(text.utf16)
        let cases: [(name: String, bytes: [UInt8], answer: String)] = [
            ("mac", bytes.map { $0 == UInt8(ascii: "\n") ? UInt8(ascii: "\r") : $0 },
             ":1: expected lines that end in a line feed (\\n, or \\r\\n), found carriage returns (\\r) alone, the first at column "),
            ("utf16", [0xFF, 0xFE] + utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
             ": expected a recording's text (UTF-8), found a UTF-16 (little-endian) byte order mark (FF FE): the file is UTF-16 text"),
            ("utf16le", utf16.flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
             ":1: expected text, found a NUL byte at column 2: every other byte is NUL, so the file is UTF-16 text without a byte "
                + "order mark; convert it to UTF-8: iconv -f UTF-16LE -t UTF-8 OLD > NEW (or -f UTF-16BE)\n"),
            ("gzip", [0x1F, 0x8B, 0x08, 0x00] + bytes,
             ": expected a recording's text (UTF-8), found gzip-compressed data; decompress it first (gunzip)\n"),
        ]
        let directory = try Directory()
        for (name, variant, answer) in cases {
            let path = try directory.write(name, variant)
            let result = try Self.replay(path)
            #expect(result.status == 1, "\(name)")
            #expect(result.stderr.hasPrefix(path + answer), "\(name): \(result.stderr)")
            #expect(result.stdout.isEmpty, "\(name)")
        }
    }

    /// A NUL byte far into a file: the events before it are replayed, then the answer names
    /// its line, as for any malformed line (docs/command-line.md).
    @Test func aNulByteFarIntoTheFileEndsTheReplayThereNamingItsLine() throws {
        var lines = String(decoding: try Self.bytes(Self.recordings[0]), as: UTF8.self)
            .split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let broken = lines.count - 10
        lines[broken] = "E: 0.\u{0}"
        let directory = try Directory()
        let path = try directory.write("nul.evemu", Array(lines.joined(separator: "\n").utf8))
        let result = try Self.replay(path)
        #expect(result.status == 1)
        #expect(result.stderr == "\(path):\(broken + 1): expected text, found a NUL byte at column 6: the file is binary, not "
            + "a recording's text (a copy of /dev/input/event*?); record with evemu-record, libinput record or gestured record\n")
        #expect(result.stdout.contains(#""phase":"began""#), "the events before it")
        #expect(result.stdout.contains(#""type":"warning""#))
    }
}
