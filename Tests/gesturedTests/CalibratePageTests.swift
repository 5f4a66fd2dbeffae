#if canImport(Glibc)
import Glibc
#endif
import Foundation
@testable import gestured
import GestureCore
import GestureSystem
import SystemPackage
import Testing

/// `gestured calibrate --page`: the page and the target it polls, served on a real loopback
/// socket by the page's own event loop, read by a real client socket.
@Suite(.serialized)
struct CalibratePageTests {
    /// Connects to 127.0.0.1:`port`, sends `request`, turns the page's loop until the page
    /// has answered and closed (at most 200 turns of 10 ms), and returns the answer.
    static func exchange(_ request: String, port: UInt16, loop: EventLoop) throws -> String {
        let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #expect(client >= 0)
        defer { Glibc.close(client) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        #expect(connected == 0)
        _ = Array(request.utf8).withUnsafeBytes { send(client, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        _ = fcntl(client, F_SETFL, fcntl(client, F_GETFL) | O_NONBLOCK)
        var answer: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        for _ in 0..<200 {
            _ = try loop.runReady(waitingAtMost: 10)
            let count = buffer.withUnsafeMutableBytes { recv(client, $0.baseAddress, $0.count, 0) }
            if count > 0 { answer += buffer[0..<count] } else if count == 0 { break }
        }
        return String(decoding: answer, as: UTF8.self)
    }

    @Test func thePageAndTheCurrentTargetAreServed() throws {
        let loop = try EventLoop()
        let page = try CalibratePage(port: 0, loop: loop)
        let index = try Self.exchange("GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n", port: page.port, loop: loop)
        #expect(index.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: text/html; charset=utf-8\r\n"))
        #expect(index.contains("fetch(\"/target\""))
        #expect(index.contains("Connection: close"))

        #expect(try Self.exchange("GET /target HTTP/1.1\r\n\r\n", port: page.port, loop: loop).hasSuffix(#"{"state":"waiting"}"#))
        page.show(.target(index: 1, count: 4, point: NormalizedPoint(u: 0.875, v: 0.125)))
        let target = try Self.exchange("GET /target HTTP/1.1\r\nHost: x\r\n\r\n", port: page.port, loop: loop)
        #expect(target.hasPrefix("HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n"))
        #expect(target.hasSuffix(#"{"state":"target","index":1,"count":4,"u":0.875,"v":0.125}"#), "\(target)")
        page.show(.stopped(reason: "a \"quoted\"\nreason"))
        let stopped = try Self.exchange("GET /target HTTP/1.0\n\n", port: page.port, loop: loop)
        let body = try #require(stopped.components(separatedBy: "\r\n\r\n").last)
        let object = try #require(try JSONSerialization.jsonObject(with: Data(body.utf8)) as? [String: String])
        #expect(object == ["state": "stopped", "reason": "a \"quoted\"\nreason"])
    }

    /// A real browser (headless Chromium, when the machine has it) draws the cross where the
    /// target is: the page's script runs, polls /target and places the cross at the target's
    /// fraction of its viewport.
    @Test func aBrowserDrawsTheTargetWhereItIs() throws {
        guard let chromium = ["/usr/bin/chromium", "/usr/bin/chromium-browser"].first(where: { FileManager.default.isExecutableFile(atPath: $0) }) else {
            // scripts/setup-deps.sh installs it; CI must have it.
            if ProcessInfo.processInfo.environment["CI"] == "true" { Issue.record("no chromium: run scripts/setup-deps.sh") }
            return
        }
        let loop = try EventLoop()
        let page = try CalibratePage(port: 0, loop: loop)
        page.show(.target(index: 1, count: 4, point: NormalizedPoint(u: 0.875, v: 0.125)))
        let profile = NSTemporaryDirectory() + "gestured-calibrate-chromium-\(getpid())"
        defer { try? FileManager.default.removeItem(atPath: profile) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: chromium)
        process.arguments = ["--headless", "--no-sandbox", "--disable-gpu", "--user-data-dir=" + profile, "--window-size=800,600",
                             "--virtual-time-budget=3000", "--dump-dom", "http://127.0.0.1:\(page.port)/"]
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        // The page is served by this loop: turn it until the browser is done.
        while process.isRunning { _ = try loop.runReady(waitingAtMost: 20) }
        let dom = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        #expect(dom.contains("Touch the centre of the cross (2 of 4)"), "\(dom)")
        // 7/8 of the 800-pixel-wide viewport (its height is the window's less the headless
        // browser's own bars, so only its presence is checked).
        #expect(dom.contains(#"<div id="cross" style="left: 700px; top: "#) && dom.contains("px; display: block;"), "\(dom)")
    }

    @Test(arguments: [
        ("GET /etc/passwd HTTP/1.1\r\n\r\n", "HTTP/1.1 404 Not Found"),
        ("POST /target HTTP/1.1\r\n\r\n", "HTTP/1.1 405 Method Not Allowed"),
        ("hello\r\n\r\n", "HTTP/1.1 400 Bad Request"),
        ("GET / HTTP/1.1\r\nX: " + String(repeating: "a", count: 10000), "HTTP/1.1 431 Request Header Fields Too Large"),
    ])
    func otherRequestsAreAnsweredAndClosed(_ request: String, _ status: String) throws {
        let loop = try EventLoop()
        let page = try CalibratePage(port: 0, loop: loop)
        #expect(try Self.exchange(request, port: page.port, loop: loop).hasPrefix(status))
        // The page still serves after it.
        #expect(try Self.exchange("GET /target HTTP/1.1\r\n\r\n", port: page.port, loop: loop).contains("200 OK"))
    }

    @Test func connectionsBeyondTheLimitCloseTheOldest() throws {
        let loop = try EventLoop()
        let page = try CalibratePage(port: 0, loop: loop)
        // Idle clients that never send a request: more than the limit, and the page still answers.
        var idle: [Int32] = []
        defer { for client in idle { Glibc.close(client) } }
        for _ in 0..<(CalibratePage.maximumConnections + 4) {
            let client = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
            var address = sockaddr_in()
            address.sin_family = sa_family_t(AF_INET)
            address.sin_port = page.port.bigEndian
            address.sin_addr.s_addr = UInt32(0x7f00_0001).bigEndian
            _ = withUnsafePointer(to: &address) {
                $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(client, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
            }
            idle.append(client)
            _ = try loop.runReady(waitingAtMost: 10)
        }
        #expect(try Self.exchange("GET /target HTTP/1.1\r\n\r\n", port: page.port, loop: loop).contains("200 OK"))
    }
}
