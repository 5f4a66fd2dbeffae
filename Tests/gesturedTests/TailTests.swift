#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import gestured
import Testing

/// `gestured tail`'s line splitting (issue 25): a line that never ended was kept whole and
/// searched from its start at every read, so its cost grew with the square of its length.
@Suite("gestured tail")
struct TailTests {
    // MARK: The splitter

    /// Every line the splitter gives for `pieces`, appended one after another.
    static func lines(_ pieces: [String], limit: Int = 64) throws -> [String] {
        var reader = SocketLineReader(maximumLineLength: limit)
        var found: [String] = []
        for piece in pieces {
            reader.append(ArraySlice(piece.utf8))
            while let line = try reader.nextLine() { found.append(String(decoding: line, as: UTF8.self)) }
        }
        return found
    }

    @Test func linesCutAnywhereComeOutWhole() throws {
        #expect(try Self.lines(["a", "b\ncd", "\n\nef\ng", "h", "\n"]) == ["ab", "cd", "", "ef", "gh"])
        #expect(try Self.lines(["one\ntwo\nthree\n"]) == ["one", "two", "three"])
        #expect(try Self.lines(["no end yet"]) == [])
    }

    /// The limit is on the line without its `\n`: as long is kept, one byte more is an error,
    /// whether its `\n` came in the same read or never comes.
    @Test func aLineOfTheLimitPassesAndOneByteMoreIsAnError() throws {
        let limit = String(repeating: "x", count: 64)
        #expect(try Self.lines([limit + "\n"]) == [limit])
        #expect(try Self.lines([String(limit.prefix(30)), String(limit.dropFirst(30)), "\nnext\n"]) == [limit, "next"])
        #expect(throws: SocketLineReader.Failure.self) { try Self.lines([limit + "x\n"]) }
        #expect(throws: SocketLineReader.Failure.self) { try Self.lines([limit, "x"]) }
        // Many lines in one read, each within the limit, are not one long line.
        #expect(try Self.lines([Array(repeating: String(limit.prefix(40)), count: 10).joined(separator: "\n") + "\n"]).count == 10)
    }

    /// A line that comes a byte at a time is searched once: the bytes looked at are the bytes
    /// read, not their square (a 100,000-byte line would have cost 5e9 looks before).
    @Test func aLongLineComingAByteAtATimeIsSearchedOnce() throws {
        var reader = SocketLineReader(maximumLineLength: 200_000)
        let byte: ArraySlice<UInt8> = [UInt8(ascii: "x")]
        for _ in 0..<100_000 {
            reader.append(byte)
            #expect(try reader.nextLine() == nil)
        }
        reader.append([0x0A])
        #expect(try reader.nextLine()?.count == 100_000)
        #expect(reader.bytesSearched == 100_001)
    }

    /// Short lines a byte at a time: what was returned is dropped, so the work stays linear
    /// over any number of lines (and memory stays a line and a read).
    @Test func manyLinesComingAByteAtATimeAreSearchedOnce() throws {
        var reader = SocketLineReader(maximumLineLength: 64)
        let text = Array(String(repeating: "{\"type\":\"gesture\"}\n", count: 5_000).utf8)
        var count = 0
        for byte in text {
            reader.append([byte])
            while try reader.nextLine() != nil { count += 1 }
        }
        #expect(count == 5_000)
        #expect(reader.bytesSearched == text.count)
    }

    // MARK: The command, against a stand-in for the daemon's socket

    /// An endless line ends `tail` with status 1 and a message that names the limit, instead
    /// of memory that grows as long as the peer sends.
    @Test func aLineLongerThanGesturedSendsEndsTailNamingTheLimit() throws {
        let limit = SocketLineReader.maximumLineLength
        #expect(limit == 1 << 20, "the daemon's queue limit, docs/limits.md")
        let result = try FakeDaemon.runTail(sending: [Array(#"{"type":"hello","protocol":"gestured/1"}"#.utf8) + [0x0A],
                                                      [UInt8](repeating: UInt8(ascii: "x"), count: limit + 65_536)])
        #expect(result.status == 1)
        #expect(result.stderr == "\(result.socket): received a line longer than 1048576 bytes, more than gestured ever "
            + "sends (a client's queue limit); is this the socket of gestured?\n")
        #expect(result.stdout.isEmpty)
    }

    /// The longest line gestured can send is printed whole.
    @Test func aLineOfTheLimitIsPrinted() throws {
        let limit = SocketLineReader.maximumLineLength
        let line = Array(#"{"type":"warning","message":""#.utf8)
        let long = line + [UInt8](repeating: UInt8(ascii: "x"), count: limit - line.count - 2) + Array(#""}"#.utf8)
        #expect(long.count == limit)
        let result = try FakeDaemon.runTail(sending: [Array(#"{"type":"hello","protocol":"gestured/1"}"#.utf8) + [0x0A],
                                                      long + [0x0A], Array(#"{"type":"bye"}"#.utf8) + [0x0A]])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == long + [0x0A])
    }
}

/// A stand-in for gestured's socket: it accepts one client (`gestured tail`, the real binary),
/// reads its subscription, sends what a test gives, and closes the connection.
enum FakeDaemon {
    struct Result {
        var status: Int32
        var stdout: [UInt8]
        var stderr: String
        var socket: String
    }

    static func runTail(sending pieces: [[UInt8]]) throws -> Result {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let path = directory.appendingPathComponent("g.sock").path
        let listener = try listen(at: path)
        defer { close(listener) }

        // Standard output to a file: tail may write a megabyte while this thread sends.
        let outputPath = directory.appendingPathComponent("stdout").path
        _ = FileManager.default.createFile(atPath: outputPath, contents: nil)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: Gestured.binary)
        process.arguments = ["tail", "--socket", path]
        process.standardOutput = try FileHandle(forWritingTo: URL(fileURLWithPath: outputPath))
        let errors = Pipe()
        process.standardError = errors
        try process.run()

        var ready = pollfd(fd: listener, events: Int16(POLLIN), revents: 0)
        // A safety net for a tail that never connects, not a measurement.
        guard poll(&ready, 1, 120_000) == 1 else { process.terminate(); throw CocoaError(.fileReadUnknown) }
        let connection = accept(listener, nil, nil)
        guard connection >= 0 else { throw CocoaError(.fileReadUnknown) }
        var request = [UInt8](repeating: 0, count: 4096)
        _ = read(connection, &request, request.count)
        send: for piece in pieces {
            var offset = 0
            while offset < piece.count {
                // MSG_NOSIGNAL: tail may have hung up already (that is the point of some tests).
                let sent = piece.withUnsafeBytes { Glibc.send(connection, $0.baseAddress! + offset, piece.count - offset,
                                                              Int32(MSG_NOSIGNAL)) }
                if sent < 0 { if errno == EINTR { continue }; break send }
                offset += sent
            }
        }
        close(connection)
        let stderr = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let stdout = try Data(contentsOf: URL(fileURLWithPath: outputPath))
        return Result(status: process.terminationStatus, stdout: Array(stdout),
                      stderr: String(decoding: stderr, as: UTF8.self), socket: path)
    }

    private static func listen(at path: String) throws -> Int32 {
        let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        var address = sockaddr_un()
        address.sun_family = sa_family_t(AF_UNIX)
        withUnsafeMutableBytes(of: &address.sun_path) { raw in
            for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
        }
        let bound = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
        }
        guard bound == 0, Glibc.listen(fd, 1) == 0 else { close(fd); throw CocoaError(.fileWriteUnknown) }
        return fd
    }
}

/// `gestured tail --screen`: only the lines of the screens named.
@Suite("gestured tail --screen")
struct TailScreenTests {
    static func members(_ words: [String]) -> [[UInt8]] {
        var tail = Tail()
        tail.screens = words
        return tail.screenMembers
    }

    static func isOn(_ line: String, _ words: [String]) -> Bool {
        Tail.line(ArraySlice(line.utf8), isOnOneOf: members(words))
    }

    @Test func aLineIsKeptWhenItsScreenIsNamed() {
        let customer = #"{"type":"touches","seq":4,"time":0,"screen":"customer","phase":"began","view":"pay"}"#
        let clerk = #"{"type":"control","seq":5,"time":0,"screen":"clerk","view":"desk","event":"touchDown","touch":1}"#
        #expect(Self.isOn(customer, ["customer"]))
        #expect(!Self.isOn(clerk, ["customer"]))
        #expect(Self.isOn(clerk, ["customer,clerk"]))
        #expect(Self.isOn(clerk, ["customer", "clerk"]))
        // A prefix of another id is not that id.
        #expect(!Self.isOn(customer, ["custom"]))
    }

    @Test func textThatMentionsAScreenIsNotItsScreen() {
        // Inside a string every quote is escaped: a message cannot pass for the member.
        let warning = #"{"type":"warning","seq":9,"time":0,"screen":"clerk","message":"\"screen\":\"customer\""}"#
        #expect(!Self.isOn(warning, ["customer"]))
        #expect(Self.isOn(warning, ["clerk"]))
    }
}
