#if canImport(Glibc)
import Glibc
#endif
@testable import GestureServer
import GestureSystem
import Logging
import SystemPackage
import Testing

/// The journal's native protocol as the handler speaks it (docs/service.md, "Logs").
@Suite("Journal log handler")
struct JournalLogHandlerTests {
    /// A stand-in for journald: a datagram socket bound in a fresh directory.
    final class Journal {
        let directory = SocketTests.temporaryDirectory()
        let path: String
        let socket: FileDescriptor

        init() throws {
            path = directory + "/journal.socket"
            socket = try UnixSocket.open(.datagram)
            try socket.bind(to: UnixSocketAddress(path))
        }

        deinit {
            socket.closeReleasing()
            unlink(path)
            rmdir(directory)
        }

        /// The next datagram's fields, by name (a binary-encoded value decoded).
        func receive() -> [String: String] {
            var poller = pollfd(fd: socket.rawValue, events: Int16(POLLIN), revents: 0)
            guard poll(&poller, 1, 5000) == 1 else { return [:] }
            var buffer = [UInt8](repeating: 0, count: 65536)
            let count = recv(socket.rawValue, &buffer, buffer.count, 0)
            var bytes = buffer[0..<max(count, 0)]
            var fields: [String: String] = [:]
            while let newline = bytes.firstIndex(of: UInt8(ascii: "\n")) {
                let line = bytes[bytes.startIndex..<newline]
                if let equals = line.firstIndex(of: UInt8(ascii: "=")) {
                    fields[String(decoding: line[..<equals], as: UTF8.self)] = String(decoding: line[(equals + 1)...], as: UTF8.self)
                    bytes = bytes[(newline + 1)...]
                } else {
                    // NAME\n, a 64-bit little-endian length, the bytes, \n.
                    let start = newline + 1
                    let length = bytes[start..<(start + 8)].enumerated().reduce(0) { $0 | Int($1.element) << (8 * $1.offset) }
                    let value = bytes[(start + 8)..<(start + 8 + length)]
                    fields[String(decoding: line, as: UTF8.self)] = String(decoding: value, as: UTF8.self)
                    bytes = bytes[(start + 8 + length + 1)...]
                }
            }
            return fields
        }
    }

    @Test func aMessageIsOneDatagramWithItsFields() throws {
        let journal = try Journal()
        let socket = try #require(JournalSocket(path: journal.path))
        let logger = Logger(label: "gestured") { JournalLogHandler(label: $0, level: .info, journal: socket) }
        logger.info("client connected", metadata: ["client": "7", "peer uid": "1000"])
        let fields = journal.receive()
        #expect(fields["MESSAGE"] == "client connected client=7 peer uid=1000")
        #expect(fields["PRIORITY"] == "6")
        #expect(fields["SYSLOG_IDENTIFIER"] == "gestured")
        #expect(fields["MESSAGE_ID"] == JournalMessageID.id(label: "gestured", message: "client connected"))
        #expect(fields["MESSAGE_ID"]?.count == 32)
        #expect(fields["GESTURED_CLIENT"] == "7")
        #expect(fields["GESTURED_PEER_UID"] == "1000")
        #expect(fields["CODE_FILE"]?.hasSuffix("JournalLogHandlerTests.swift") == true)

        // A value with a newline goes in the binary form; a message without an id has none;
        // below the level, nothing is sent.
        logger.error("a problem", metadata: ["problems": "a.b: wrong\nc: worse"])
        let second = journal.receive()
        #expect(second["GESTURED_PROBLEMS"] == "a.b: wrong\nc: worse")
        #expect(second["PRIORITY"] == "3")
        #expect(second["MESSAGE_ID"] == nil)
        logger.debug("not sent")
        logger.notice("after")
        #expect(journal.receive()["MESSAGE"] == "after")
    }

    @Test func withoutAJournalSocketThereIsNone() {
        #expect(JournalSocket(path: "/nonexistent/journal.socket") == nil)
        #expect(JournalSocket(path: "/etc/hostname") == nil)
    }

    @Test(arguments: [("client", "GESTURED_CLIENT"), ("peer uid", "GESTURED_PEER_UID"), ("a-b.c", "GESTURED_A_B_C"),
                      (String(repeating: "x", count: 80), "GESTURED_" + String(repeating: "X", count: 55))])
    func metadataKeysBecomeFieldNames(_ key: String, _ field: String) {
        #expect(JournalLogHandler.fieldName(key) == field)
    }

    @Test func aQuotedValueEscapesEveryLineFeedEvenInACarriageReturnLineFeed() {
        // "\r\n" is one Character: escaping by character let its line feed through.
        #expect(escapedQuotedText("a\r\nb \"c\" \\") == "a\r\\nb \\\"c\\\" \\\\")
        #expect(JournalLogHandler.quoted("x\r\ny") == "\"x\r\\ny\"")
        #expect(JournalLogHandler.quoted("plain") == "plain")
        #expect(JournalLogHandler.quoted("") == "\"\"")
    }

    @Test func logLevelsByName() {
        #expect(JournalLogHandler.level(named: "debug") == .debug)
        #expect(JournalLogHandler.level(named: "warning") == .warning)
        #expect(JournalLogHandler.level(named: "loud") == nil)
    }

    /// Each catalogued message is still logged in those words (a reworded one would lose its
    /// id without a word), and each id is a distinct 128-bit hex number.
    @Test func everyMessageIDNamesAMessageTheSourcesLog() throws {
        let file = String(#filePath)
        let root = String(file[..<file.firstRange(of: "/Tests/")!.lowerBound])
        var sources = ""
        var stack = [root + "/Sources"]
        while let directory = stack.popLast() {
            for name in try directoryEntries(directory) {
                let path = directory + "/" + name
                if name.hasSuffix(".swift") {
                    let file = try FileDescriptor.open(path, .readOnly)
                    defer { try? file.close() }
                    var bytes = [UInt8](repeating: 0, count: 1 << 20)
                    let count = try bytes.withUnsafeMutableBytes { try file.read(into: $0) }
                    if !path.hasSuffix("JournalMessageID.swift") { sources += String(decoding: bytes[..<count], as: UTF8.self) }
                } else if !name.contains(".") {
                    stack.append(path)
                }
            }
        }
        for entry in JournalMessageID.entries {
            #expect(sources.contains("(\"\(entry.message)\""), "\(entry.label): \"\(entry.message)\" is not logged anywhere")
            #expect(entry.id.count == 32 && entry.id.allSatisfy { $0.isHexDigit && !$0.isUppercase })
        }
        #expect(Set(JournalMessageID.entries.map(\.id)).count == JournalMessageID.entries.count)
    }
}
