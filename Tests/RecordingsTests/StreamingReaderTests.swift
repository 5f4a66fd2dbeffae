#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import Recordings
import Testing

/// A replay streams its recording (issue 12): the file is read in chunks and line by line, so
/// only regular files are read, a line has a length limit, and a chunk boundary anywhere must
/// not change what is read.
@Suite("Streaming recordings")
struct StreamingReaderTests {
    /// The project's own recordings, in every format the fixtures have.
    static let fixtures = [
        TestPaths.packageRoot + "/config/recordings/one-finger-taps.evemu",
        TestPaths.fixture("elan-touchscreen.tap.libinput-record.yml"),
        TestPaths.fixture("protocol-a-drag.evemu"),
        TestPaths.fixture("touchpad-scroll.evemu"),
    ]

    /// Chunks of 1, 7 or 4096 bytes cut lines (and CRLF pairs) anywhere; the recording read is
    /// the same as read from the file in its usual 64 KiB chunks.
    @Test(arguments: fixtures, [1, 7, 4096])
    func chunkBoundariesDoNotChangeWhatIsRead(_ path: String, _ chunkSize: Int) throws {
        let whole = try RecordingReader.read(path: path)
        let bytes = try readBytes(path)
        let chunked = try collect(RecordingSource(name: path, bytes: bytes), chunkSize: chunkSize)
        #expect(chunked == whole)
        let crlf = bytes.flatMap { $0 == UInt8(ascii: "\n") ? [UInt8(ascii: "\r"), $0] : [$0] }
        let fromCRLF = try collect(RecordingSource(name: path, bytes: crlf), chunkSize: chunkSize)
        #expect(fromCRLF.events == whole.events)
    }

    @Test func theDescriptionIsReadBeforeTheFirstEventIsAskedFor() throws {
        var stream = try RecordingReader.stream(RecordingSource(name: "t.evemu", text: smallDescription + """
            E: 0.000005 0000 0000 0000
            E: 0.000009 0000 0000 0000
            this line is not evemu

            """))
        #expect(stream.description?.name == "Panel")
        #expect(stream.startTime == Timestamp(microseconds: 5))
        #expect(try stream.next()?.time == Timestamp(microseconds: 5))
        #expect(try stream.next()?.time == Timestamp(microseconds: 9))
        // The malformed line is only met when the replay gets there, and named then.
        #expect(throws: RecordingError(file: "t.evemu", line: 21,
                                       message: "expected \(anyEvemuLine), found \"this line is not evemu\"")) {
            try stream.next()
        }
    }

    @Test func aDescriptionLineAfterTheEventsIsAnError() {
        let error = parseError(smallDescription + "E: 0.000005 0000 0000 0000\nA: 30 0 10 0 0 0\n")
        #expect(error?.line == 20)
        #expect(error?.message.hasPrefix("expected \"E: <sec>.<usec> <type> <code> <value>\" (the device description "
            + "comes before the events)") == true)
    }

    @Test func aLineLongerThanTheLimitIsAnErrorNamingIt() throws {
        let limit = 1 << 20
        let long = [UInt8](repeating: UInt8(ascii: "#"), count: limit + 1)
        let text = Array("# EVEMU 1.3\nE: 0.000001 0000 0000 0000\n".utf8) + long + Array("\n".utf8)
        var stream = try RecordingReader.stream(RecordingSource(name: "long.evemu", bytes: text))
        _ = try stream.next()
        #expect(throws: RecordingError(file: "long.evemu", line: 3,
                                       message: "expected a line of at most 1048576 bytes, found a longer one; is this a recording?")) {
            try stream.next()
        }
        // A line of exactly the limit is read, with or without a line break after it.
        let fits = Array("# EVEMU 1.3\nE: 0.000001 0000 0000 0000\n".utf8) + long.dropLast()
        #expect(try collect(RecordingSource(name: "fits.evemu", bytes: fits)).events.count == 1)
    }

    /// A device, a FIFO or a directory named as the recording was read until memory ran out
    /// (`/dev/zero`), blocked (a FIFO without a writer) or failed obscurely.
    @Test func onlyRegularFilesAreRead() throws {
        let directory = try temporaryDirectory()
        defer { _ = rmdir(directory) }
        let fifo = directory + "/fifo"
        #expect(mkfifo(fifo, 0o600) == 0)
        defer { _ = unlink(fifo) }
        let cases = [
            ("/dev/zero", "it is a character device (such as /dev/zero), not a regular file"),
            ("/dev/urandom", "it is a character device (such as /dev/zero), not a regular file"),
            (directory, "it is a directory, not a regular file"),
            (fifo, "it is a FIFO (named pipe), not a regular file"),
        ]
        for (path, what) in cases {
            #expect(throws: RecordingError(file: path, line: nil, message: "cannot read the recording (\(what)); "
                                           + "name a recording file (gestured reads regular files only)")) {
                _ = try RecordingReader.open(path: path)
            }
        }
    }

    @Test func aRecordingWithoutEventsEndsAtOnce() throws {
        var stream = try RecordingReader.stream(RecordingSource(name: "d.evemu", text: smallDescription))
        #expect(stream.startTime == nil)
        #expect(try stream.next() == nil)
        #expect(try stream.next() == nil)
    }

    // MARK: - Helpers

    private func collect(_ source: RecordingSource, chunkSize: Int? = nil) throws -> Recording {
        var stream = try RecordingReader.stream(source, chunkSize: chunkSize)
        return try stream.collect()
    }

    private var anyEvemuLine: String {
        "a line starting with \"N:\", \"I:\", \"P:\", \"B:\", \"A:\", \"E:\" or \"#\""
    }

    private func temporaryDirectory() throws -> String {
        var template = Array("/tmp/gestured-recordings-XXXXXX".utf8CString)
        let made = template.withUnsafeMutableBufferPointer { mkdtemp($0.baseAddress!) }
        try #require(made != nil)
        return template.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
    }
}
