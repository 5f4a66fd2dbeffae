#if canImport(Glibc)
import Glibc
#endif
import CZlib
import Foundation
import GestureConfig
import Logging
import Synchronization
import Testing
@testable import WebBridge

/// The bridge's HTTP side over a real TCP socket (docs/protocol.md § The bridge's HTTP side):
/// the client module gzipped with a strong ETag and 304s, HEAD, its source map, the
/// preflight `GET /gestured/check` with each cause, and a log line for every refusal.
@Suite(.serialized)
struct HTTPSideTests {
    /// A bridge in this process on a free port of 127.0.0.1 that allows only pages of
    /// `http://127.0.0.1:*`, with a token; its log lines are kept.
    final class Bridge {
        let server: BridgeServer
        let port: UInt16
        let lines = LogLines()
        let directory: String

        init(daemonListening: Bool) throws {
            var template = Array("/tmp/gestured-web-http-XXXXXX".utf8CString)
            directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
            let socketPath = directory + "/gestured.sock"
            if daemonListening { try Self.listen(at: socketPath) }
            let web = WebConfig(listen: ListenAddress(host: "127.0.0.1", port: 0), origins: [OriginPattern("http://127.0.0.1:*")!],
                                token: "0123456789abcdef")
            let lines = self.lines
            server = BridgeServer(options: BridgeOptions(socketPath: socketPath, web: web, version: "test"),
                                  logger: Logger(label: "test") { _ in CapturingLogHandler(lines: lines) })
            let address = try server.start()
            port = UInt16(address.split(separator: ":").last!)!
        }

        deinit {
            server.stop()
            try? FileManager.default.removeItem(atPath: directory)
        }

        /// A Unix socket that accepts (the kernel completes connections to a listening socket
        /// up to its backlog): what the preflight's probe needs to find the daemon up.
        static func listen(at path: String) throws {
            let fd = socket(AF_UNIX, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_un()
            address.sun_family = sa_family_t(AF_UNIX)
            withUnsafeMutableBytes(of: &address.sun_path) { raw in
                for (index, byte) in path.utf8.enumerated() { raw[index] = byte }
            }
            let bound = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(fd, $0, socklen_t(MemoryLayout<sockaddr_un>.size)) }
            }
            #expect(bound == 0 && Glibc.listen(fd, 16) == 0)
            // Left open for the life of the test process: a test's daemon.
        }

        /// One request, the whole response (the bridge closes every connection after it).
        func request(_ method: String, _ target: String, _ headers: [String: String] = [:]) throws -> Response {
            let fd = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            defer { close(fd) }
            var timeout = timeval(tv_sec: 10, tv_usec: 0)
            setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = port.bigEndian
            address.sin_addr.s_addr = inet_addr("127.0.0.1")
            let connected = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(fd, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            try #require(connected == 0)
            var text = "\(method) \(target) HTTP/1.1\r\nHost: 127.0.0.1\r\n"
            for (name, value) in headers { text += "\(name): \(value)\r\n" }
            text += "\r\n"
            let bytes = Array(text.utf8)
            try #require(send(fd, bytes, bytes.count, 0) == bytes.count)
            var received: [UInt8] = []
            var chunk = [UInt8](repeating: 0, count: 1 << 16)
            while true {
                let count = recv(fd, &chunk, chunk.count, 0)
                try #require(count >= 0, "recv failed: errno \(errno)")
                if count == 0 { break }
                received += chunk[..<count]
            }
            return try Response(received)
        }
    }

    struct Response {
        var status: Int
        var headers: [String: String]
        var body: [UInt8]

        init(_ bytes: [UInt8]) throws {
            let separator = try #require(bytes.firstRange(of: Array("\r\n\r\n".utf8)))
            let head = String(decoding: bytes[..<separator.lowerBound], as: UTF8.self).split(separator: "\r\n")
            status = Int(head[0].split(separator: " ")[1])!
            headers = [:]
            for line in head.dropFirst() {
                let parts = line.split(separator: ":", maxSplits: 1)
                headers[parts[0].lowercased()] = parts[1].trimmingCharacters(in: .whitespaces)
            }
            body = Array(bytes[separator.upperBound...])
        }

        var json: [String: Any] { (try? JSONSerialization.jsonObject(with: Data(body)) as? [String: Any]) ?? [:] }
    }

    @Test func theModuleIsServedGzippedWithAStrongETagAndRevalidated() throws {
        let bridge = try Bridge(daemonListening: false)
        let module = Array(ClientModule.module.utf8)

        let plain = try bridge.request("GET", "/gestured.js", ["Origin": "http://127.0.0.1:8080"])
        #expect(plain.status == 200)
        #expect(plain.body == module)
        #expect(plain.headers["content-encoding"] == nil)
        #expect(plain.headers["cache-control"] == "no-cache")
        #expect(plain.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(plain.headers["access-control-allow-origin"] == "http://127.0.0.1:8080")
        let plainTag = try #require(plain.headers["etag"])
        #expect(plainTag.hasPrefix("\"") && !plainTag.hasPrefix("W/"))

        let gzipped = try bridge.request("GET", "/gestured.js", ["Accept-Encoding": "gzip, deflate, br"])
        #expect(gzipped.status == 200)
        #expect(gzipped.headers["content-encoding"] == "gzip")
        #expect(gzipped.headers["vary"]?.contains("Accept-Encoding") == true)
        #expect(gzipped.body.count < module.count / 2)
        #expect(try Self.gunzip(gzipped.body) == module)
        let gzipTag = try #require(gzipped.headers["etag"])
        #expect(gzipTag != plainTag)

        let revalidated = try bridge.request("GET", "/gestured.js", ["Accept-Encoding": "gzip", "If-None-Match": gzipTag])
        #expect(revalidated.status == 304)
        #expect(revalidated.body.isEmpty)
        #expect(revalidated.headers["etag"] == gzipTag)
        // A tag of another version is not the page's copy.
        let stale = try bridge.request("GET", "/gestured.js", ["If-None-Match": "\"0-0\""])
        #expect(stale.status == 200 && stale.body == module)
        // q=0 refuses gzip.
        let refused = try bridge.request("GET", "/gestured.js", ["Accept-Encoding": "gzip;q=0, identity"])
        #expect(refused.headers["content-encoding"] == nil && refused.body == module)

        let head = try bridge.request("HEAD", "/gestured.js", ["Accept-Encoding": "gzip"])
        #expect(head.status == 200 && head.body.isEmpty)
        #expect(head.headers["content-length"] == String(gzipped.body.count))
        #expect(head.headers["etag"] == gzipTag)

        let map = try bridge.request("GET", "/gestured.js.map")
        #expect(map.status == 200)
        #expect(map.headers["content-type"] == "application/json")
        #expect(map.json["version"] as? Int == 3)
        #expect((map.json["sourcesContent"] as? [String])?.first?.contains("export async function connect") == true
            || (map.json["sourcesContent"] as? [String])?.first?.contains("export function connect") == true)
    }

    @Test func theModuleEndsWithTheMapAsTheBridgeServesIt() {
        let module = ClientModule.module
        #expect(module.hasSuffix("\n//# sourceMappingURL=gestured.js.map\n"))
        #expect(module.components(separatedBy: "sourceMappingURL=").count == 2)
    }

    @Test func aPageFromAnotherLoopbackNameIsToldWhyAndTheRefusalIsLogged() throws {
        let bridge = try Bridge(daemonListening: true)
        let check = try bridge.request("GET", "/gestured/check", ["Origin": "http://localhost:8080"])
        #expect(check.status == 200)
        #expect(check.headers["access-control-allow-origin"] == "*")
        #expect(check.headers["cache-control"] == "no-store")
        #expect(check.headers["content-type"] == "application/json")
        let body = check.json
        #expect(body["bridge"] as? String == "gestured-web")
        #expect(body["protocol"] as? String == "gestured/1")
        #expect(body["origin"] as? String == "http://localhost:8080")
        #expect(body["originAllowed"] as? Bool == false)
        #expect(body["allowedOrigins"] as? [String] == ["http://127.0.0.1:*"])
        #expect(body["tokenConfigured"] as? Bool == true)
        #expect(body["tokenAccepted"] is NSNull)
        #expect(body["daemon"] as? String == "up")
        let reason = try #require(body["reason"] as? String)
        #expect(reason.contains("http://localhost:8080") && reason.contains("http://127.0.0.1:*"))
        #expect(reason.contains("open the page as http://127.0.0.1:8080"))

        // The WebSocket handshake the browser hides: 403, and a line in the log.
        let socket = try bridge.request("GET", "/socket", ["Origin": "http://localhost:8080", "Upgrade": "websocket",
                                                           "Connection": "Upgrade", "Sec-WebSocket-Version": "13",
                                                           "Sec-WebSocket-Key": "dGhlIHNhbXBsZSBub25jZQ=="])
        #expect(socket.status == 403)
        let logged = bridge.lines.all
        #expect(logged.contains { $0.message.contains("refused a WebSocket") && $0.metadata.contains("http://localhost:8080") })
        #expect(logged.contains { $0.message.contains("preflight") && $0.metadata.contains("127.0.0.1") })
    }

    @Test func thePreflightNamesAWrongTokenAndADaemonThatIsDown() throws {
        let bridge = try Bridge(daemonListening: false)
        let good = try bridge.request("GET", "/gestured/check?token=0123456789abcdef", ["Origin": "http://127.0.0.1:9000"]).json
        #expect(good["originAllowed"] as? Bool == true)
        #expect(good["tokenAccepted"] as? Bool == true)
        #expect(good["daemon"] as? String == "down")
        #expect(good["reason"] as? String == "gestured is not reachable on \(bridge.directory)/gestured.sock (No such file or "
            + "directory (errno 2)); the bridge runs, the daemon does not: start gestured")

        let wrong = try bridge.request("GET", "/gestured/check?token=wrong", ["Origin": "http://127.0.0.1:9000"]).json
        #expect(wrong["tokenAccepted"] as? Bool == false)
        #expect(wrong["reason"] as? String == BridgeCheck.tokenRefusal)
        // No Origin: not a page; allowed, and said so.
        let local = try bridge.request("GET", "/gestured/check").json
        #expect(local["origin"] is NSNull)
        #expect(local["originAllowed"] as? Bool == true)
    }

    @Test func aPageWithTheDaemonUpAndNothingWrongGetsNoReason() throws {
        let bridge = try Bridge(daemonListening: true)
        let body = try bridge.request("HEAD", "/gestured/check", ["Origin": "http://127.0.0.1:9000"])
        #expect(body.status == 200 && body.body.isEmpty)
        let check = try bridge.request("GET", "/gestured/check", ["Origin": "http://127.0.0.1:9000"]).json
        #expect(check["daemon"] as? String == "up")
        #expect(check["reason"] is NSNull)
        #expect(bridge.lines.all.isEmpty)
    }

    /// zlib's inflate of a gzip member (windowBits 15 + 16).
    static func gunzip(_ bytes: [UInt8]) throws -> [UInt8] {
        var stream = z_stream()
        try #require(inflateInit2_(&stream, 15 + 16, zlibVersion(), Int32(MemoryLayout<z_stream>.size)) == Z_OK)
        defer { inflateEnd(&stream) }
        var input = bytes
        var output = [UInt8](repeating: 0, count: bytes.count * 20)
        let status = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = UInt32(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = UInt32(target.count)
                return inflate(&stream, Z_FINISH)
            }
        }
        try #require(status == Z_STREAM_END)
        return Array(output[..<Int(stream.total_out)])
    }
}

/// The refusal log's limit, on a clock the test advances.
struct RefusalLogTests {
    @Test func atMostTheWindowsLinesAreWrittenAndTheNextOneCountsTheRest() {
        let lines = LogLines()
        let clock = Mutex<Int64>(0)
        let log = RefusalLog(logger: Logger(label: "test") { _ in CapturingLogHandler(lines: lines) },
                             now: { clock.withLock { $0 } })
        for attempt in 0..<(RefusalLog.linesPerWindow + 5) {
            let written = log.refused("refused", ["attempt": "\(attempt)"])
            #expect(written == (attempt < RefusalLog.linesPerWindow))
        }
        #expect(lines.all.count == RefusalLog.linesPerWindow)
        clock.withLock { $0 += RefusalLog.window }
        #expect(log.refused("refused", ["attempt": "last"]))
        let last = lines.all.last
        #expect(last?.metadata.contains("refusalsNotLogged=5") == true)
        #expect(lines.all.count == RefusalLog.linesPerWindow + 1)
    }
}

/// What a ``CapturingLogHandler`` received.
final class LogLines: Sendable {
    struct Line: Sendable {
        var level: Logger.Level
        var message: String
        /// `key=value` pairs, sorted.
        var metadata: String
    }

    private let lines = Mutex<[Line]>([])

    func append(_ line: Line) { lines.withLock { $0.append(line) } }
    var all: [Line] { lines.withLock { $0 } }
}

struct CapturingLogHandler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
        let pairs = (event.metadata ?? [:]).map { "\($0.key)=\($0.value)" }.sorted().joined(separator: " ")
        lines.append(LogLines.Line(level: event.level, message: event.message.description, metadata: pairs))
    }
}

/// Issue 28 end to end with the real gestured and gestured-web (web_api_test.py).
@Suite(.serialized)
struct WebAPIEndToEndTests {
    @Test func supersededWaitLayoutPreflightAndRefusalsThroughTheRealBridge() throws {
        let output = try Script.run("web_api_test.py", ["--gestured", Paths.binary("gestured"),
                                                        "--bridge", Paths.binary("gestured-web")])
        for check in ["preflight says daemon down", "preflight says daemon up", "replay --wait-layout began",
                      "superseded through the bridge", "every refusal is logged"] {
            #expect(output.contains(check), "missing check: \(check)")
        }
    }
}
