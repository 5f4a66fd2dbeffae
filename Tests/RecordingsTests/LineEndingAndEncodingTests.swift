import GestureCore
@testable import Recordings
import Testing

/// Issue 25: a recording with classic Mac OS line endings (`\r` alone) read as one comment
/// line and was refused for want of a device description; UTF-16 files, files with a UTF-8
/// byte order mark and binary files were "not recognised". Each reader now says what is wrong
/// with the bytes, where, and how to convert them; CRLF and a UTF-8 byte order mark at the
/// start are read as before.
@Suite("Line endings and encodings")
struct LineEndingAndEncodingTests {
    /// One small recording in each format, with LF line endings.
    static let formats: [(name: String, text: String)] = [
        ("t.evemu", """
            # EVEMU 1.3
            N: Panel
            A: 00 0 1919 0 0 0
            A: 01 0 1079 0 0 0
            E: 1.000000 0003 0000 0100
            E: 1.000000 0000 0000 0000
            E: 1.010000 0003 0000 0200
            E: 1.010000 0000 0000 0000

            """),
        ("t.yml", """
            version: 1
            ndevices: 1
            devices:
            - node: /dev/input/event3
              evdev:
                name: "Panel"
                absinfo:
                  0: [0, 1919, 0, 0, 0]
                  1: [0, 1079, 0, 0, 0]
              events:
              - evdev:
                - [  1,      0,   3,   0,   100]
                - [  1,      0,   0,   0,     0]
              - evdev:
                - [  1,  10000,   3,   0,   200]
                - [  1,  10000,   0,   0,     0]

            """),
        ("t.evtest", """
            Input driver version is 1.0.1
            Input device ID: bus 0x3 vendor 0x1 product 0x2 version 0x3
            Input device name: "Panel"
            Supported events:
              Event type 3 (EV_ABS)
                Event code 0 (ABS_X)
                  Min        0
                  Max     1919
            Testing ... (interrupt to exit)
            Event: time 1.000000, type 3 (EV_ABS), code 0 (ABS_X), value 100
            Event: time 1.000000, -------------- SYN_REPORT ------------
            Event: time 1.010000, type 3 (EV_ABS), code 0 (ABS_X), value 200
            Event: time 1.010000, -------------- SYN_REPORT ------------

            """),
        ("t.txt", """
            [       1.000000] 0003 0000 00000064
            [       1.000000] 0000 0000 00000000
            [       1.010000] 0003 0000 000000c8
            [       1.010000] 0000 0000 00000000

            """),
    ]

    static func parse(_ name: String, _ bytes: [UInt8], chunkSize: Int? = nil) throws(RecordingError) -> Recording {
        var stream = try RecordingReader.stream(RecordingSource(name: name, bytes: bytes), chunkSize: chunkSize)
        return try stream.collect()
    }

    static func error(_ name: String, _ bytes: [UInt8], chunkSize: Int? = nil) -> RecordingError? {
        do {
            _ = try parse(name, bytes, chunkSize: chunkSize)
            return nil
        } catch {
            return error
        }
    }

    static let macMessage = "expected lines that end in a line feed (\\n, or \\r\\n), found carriage returns (\\r) "
        + "alone, the first at column "

    /// CRLF, a UTF-8 byte order mark, and both, read exactly as the LF file, in chunks of any size.
    @Test(arguments: formats)
    func crlfAndAUTF8ByteOrderMarkReadAsLF(_ file: (name: String, text: String)) throws {
        let lf = Array(file.text.utf8)
        let expected = try Self.parse(file.name, lf)
        #expect(expected.events.count == 4)
        let crlf = Array(file.text.replacing("\n", with: "\r\n").utf8)
        for bytes in [crlf, [0xEF, 0xBB, 0xBF] + lf, [0xEF, 0xBB, 0xBF] + crlf] {
            for chunkSize in [1, 7, 64 * 1024] {
                #expect(try Self.parse(file.name, bytes, chunkSize: chunkSize) == expected, "chunks of \(chunkSize)")
            }
        }
    }

    /// `\r` alone: the whole file is one line, and the answer says so at line 1, whatever the
    /// format (before, evemu's became a comment and evtest's noise before a header).
    @Test(arguments: formats)
    func classicMacLineEndingsAreNamedAtLine1(_ file: (name: String, text: String)) throws {
        let error = try #require(Self.error(file.name, Array(file.text.replacing("\n", with: "\r").utf8)))
        #expect(error.file == file.name)
        #expect(error.line == 1)
        #expect(error.message.hasPrefix(Self.macMessage))
        #expect(error.message.hasSuffix("the file has classic Mac OS line endings; convert them: tr '\\r' '\\n' < OLD > NEW"))
    }

    /// A file that turns to `\r` alone past the part its format is told from, for longer than
    /// a line may be (1 MiB): named for the line endings, not for the length.
    @Test func aLongRunOfClassicMacLineEndingsIsNamedForThem() throws {
        var text = "N: Panel\nA: 00 0 1919 0 0 0\n"
        let event = "E: 1.000000 0003 0000 0100"
        text += String(repeating: event + "\n", count: 1000)
        text += String(repeating: event + "\r", count: (1 << 20) / event.utf8.count + 10)
        let error = try #require(Self.error("long.evemu", Array(text.utf8)))
        #expect(error.line == 1003)
        #expect(error.message.hasPrefix(Self.macMessage + "\(event.utf8.count + 1):"))
    }

    /// A stray `\r` in one line of a file far past the part the format is told from, and a
    /// line ending in `\r\r\n`: named at their lines, after the events before them.
    @Test(arguments: formats)
    func aStrayCarriageReturnIsNamedAtItsLine(_ file: (name: String, text: String)) throws {
        var lines = file.text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        let last = lines.count - 2
        lines[last] += "\r"
        let error = try #require(Self.error(file.name, Array(lines.joined(separator: "\r\n").utf8)))
        #expect(error.line == last + 1)
        #expect(error.message.hasPrefix("expected a line that ends in a line feed (\\n, or \\r\\n), found a carriage return "
            + "(\\r) alone at column \(lines[last].utf8.count):"))
    }

    @Test(arguments: formats)
    func utf16AndUTF32ByteOrderMarksSayHowToConvert(_ file: (name: String, text: String)) throws {
        let cases: [(bytes: [UInt8], what: String)] = [
            ([0xFF, 0xFE] + Array(file.text.utf16).flatMap { [UInt8($0 & 0xFF), UInt8($0 >> 8)] },
             "a UTF-16 (little-endian) byte order mark (FF FE)"),
            ([0xFE, 0xFF] + Array(file.text.utf16).flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] },
             "a UTF-16 (big-endian) byte order mark (FE FF)"),
            ([0xFF, 0xFE, 0, 0] + Array(file.text.unicodeScalars).flatMap { [UInt8($0.value & 0xFF), 0, 0, 0] },
             "a UTF-32 (little-endian) byte order mark (FF FE 00 00)"),
        ]
        for (bytes, what) in cases {
            let error = try #require(Self.error(file.name, bytes))
            #expect(error.line == nil, "the whole file")
            #expect(error.message.hasPrefix("expected a recording's text (UTF-8), found \(what)"))
            #expect(error.message.contains("iconv -f UTF-"))
        }
    }

    /// Without a byte order mark, UTF-16 has a NUL in every other byte: named at line 1.
    @Test(arguments: formats)
    func utf16WithoutAByteOrderMarkIsNamed(_ file: (name: String, text: String)) throws {
        for bigEndian in [false, true] {
            let bytes = Array(file.text.utf16).flatMap { bigEndian ? [UInt8($0 >> 8), UInt8($0 & 0xFF)] : [UInt8($0 & 0xFF), UInt8($0 >> 8)] }
            let error = try #require(Self.error(file.name, bytes))
            #expect(error.line == 1)
            #expect(error.message.contains("every other byte is NUL, so the file is UTF-16 text without a byte order mark"))
        }
    }

    /// A NUL byte in a line, at the start (a binary file) or far into the file.
    @Test(arguments: formats)
    func aNulByteIsNamedAtItsLine(_ file: (name: String, text: String)) throws {
        var bytes = Array(file.text.utf8)
        let lastLineStart = bytes.dropLast().lastIndex(of: UInt8(ascii: "\n"))! + 1
        bytes.insert(0, at: lastLineStart + 3)
        let error = try #require(Self.error(file.name, bytes))
        #expect(error.line == file.text.utf8.count { $0 == UInt8(ascii: "\n") })
        #expect(error.message.hasPrefix("expected text, found a NUL byte at column 4: the file is binary"))

        let binary: [UInt8] = [0x9A, 0x3C, 0x5E, 0x65, 0, 0, 0, 0, 0x47, 0x2B, 0x0B, 0, 0, 0, 0, 0, 3, 0, 0x35, 0]
        #expect(Self.error(file.name, binary)?.message.hasPrefix("expected text, found a NUL byte at column 5: the file is "
            + "binary, not a recording's text (a copy of /dev/input/event*?)") == true)
    }

    /// A UTF-8 byte order mark at the start of a later line: two files joined together.
    @Test(arguments: formats)
    func aByteOrderMarkInsideTheFileIsNamed(_ file: (name: String, text: String)) throws {
        var bytes = Array(file.text.utf8)
        let lastLineStart = bytes.dropLast().lastIndex(of: UInt8(ascii: "\n"))! + 1
        bytes.insert(contentsOf: [0xEF, 0xBB, 0xBF], at: lastLineStart)
        let error = try #require(Self.error(file.name, bytes))
        #expect(error.line == file.text.utf8.count { $0 == UInt8(ascii: "\n") })
        #expect(error.message.hasPrefix("expected a line of the recording, found a UTF-8 byte order mark (EF BB BF) at its start"))
    }

    @Test(arguments: [
        ([0x1F, 0x8B, 0x08, 0x00], "gzip-compressed data; decompress it first (gunzip)"),
        ([0xFD, 0x37, 0x7A, 0x58, 0x5A, 0x00, 0x00], "xz-compressed data; decompress it first (unxz)"),
        ([0x28, 0xB5, 0x2F, 0xFD, 0x04], "zstd-compressed data; decompress it first (unzstd)"),
    ] as [([UInt8], String)])
    func aCompressedRecordingSaysSo(_ bytes: [UInt8], _ what: String) {
        #expect(Self.error("r.evemu.gz", bytes) == RecordingError(file: "r.evemu.gz", line: nil,
                                                                   message: "expected a recording's text (UTF-8), found \(what)"))
    }

    /// Bytes that look like none of these are left to the parsers, as before.
    @Test func ordinaryTextHasNoProblem() {
        for line in ["", "E: 1.000000 0003 0035 1", "N: Touch\u{FEFF}Panel", "  name: \"Écran tactile\"", "\t"] {
            #expect(EncodingCheck.problem(inLine: ArraySlice(line.utf8)) == nil, "\(line)")
        }
    }
}
