import GestureConfig
import Logging
import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing
@testable import WebBridge

/// The bridge's channel handlers on `EmbeddedChannel`s (SwiftNIO's deterministic stand-in): a
/// session's browser channel (``ClientFrameRules``, ``BrowserHandler``) and daemon channel
/// (``DaemonHandler``) on one `EmbeddedEventLoop`, with no socket and no wall clock. Each test
/// writes what a page or the daemon sends and reads exactly what the other side is given.
@Suite("Bridge session handlers on EmbeddedChannel")
struct SessionHandlerTests {
    /// A session between an embedded browser channel and an embedded daemon channel.
    final class Harness {
        let loop = EmbeddedEventLoop()
        let browser: EmbeddedChannel
        let daemon: EmbeddedChannel
        let session: BridgeSession

        init(mayChange: Bool = false, options change: (inout BridgeOptions) -> Void = { _ in }) throws {
            browser = EmbeddedChannel(loop: loop)
            daemon = EmbeddedChannel(loop: loop)
            var options = BridgeOptions(socketPath: "/nonexistent/gestured.sock", web: WebConfig(), version: "test")
            change(&options)
            let logger = Logger(label: "test", factory: { _ in SwiftLogNoOpLogHandler() })
            session = BridgeSession(serial: 1, browser: browser, options: options, mayChange: mayChange, origin: "http://kiosk",
                                    logger: logger, refusals: RefusalLog(logger: logger)) { _ in }
            let daemon = self.daemon
            let address = try SocketAddress(unixDomainSocketPath: "/nonexistent/gestured.sock")
            try daemon.connect(to: address).wait()
            try browser.connect(to: address).wait()
            session.connectDaemon = { session in
                try! daemon.pipeline.syncOperations.addHandler(DaemonHandler(session: session))
                session.daemonConnected(daemon)
            }
            try browser.pipeline.syncOperations.addHandlers([ClientFrameRules(), BrowserHandler(session: session)])
        }

        /// The daemon sends `text` (bytes as they come off its socket, cut anywhere).
        func daemonSends(_ text: String) throws {
            try daemon.writeInbound(ByteBuffer(string: text))
        }

        /// The page sends one masked text message.
        func pageSends(_ text: String, masked: Bool = true) throws {
            var data = ByteBuffer(string: text)
            let key: WebSocketMaskingKey? = masked ? [1, 2, 3, 4] : nil
            if let key { data.webSocketMask(key) }
            try browser.writeInbound(WebSocketFrame(fin: true, opcode: .text, maskKey: key, data: data))
        }

        /// Every frame the page was sent so far: text as strings, a close frame as `close CODE`.
        func pageReceived() throws -> [String] {
            var received: [String] = []
            while let frame = try browser.readOutbound(as: WebSocketFrame.self) {
                switch frame.opcode {
                case .text: received.append(String(buffer: frame.data))
                case .connectionClose:
                    var data = frame.data
                    received.append("close \(data.readWebSocketErrorCode().map { "\($0)" } ?? "?")")
                case .ping: received.append("ping")
                default: received.append("opcode \(frame.opcode)")
                }
            }
            return received
        }

        /// Every line forwarded to the daemon so far.
        func daemonReceived() throws -> [String] {
            var received: [String] = []
            while let buffer = try daemon.readOutbound(as: ByteBuffer.self) { received.append(String(buffer: buffer)) }
            return received
        }

        /// The last value the session set for the daemon channel's `autoRead` (nil: never set).
        var daemonAutoRead: Bool? {
            daemon.options.last { $0.option is ChannelOptions.Types.AutoReadOption }?.value as? Bool
        }
    }

    /// The daemon's lines, however its bytes are cut, reach the page one text message each and
    /// whole; the `hello` tells a page without the token it may not change anything.
    @Test func daemonLinesBecomeOneMessageEachWhereverTheyAreCut() throws {
        let harness = try Harness(mayChange: false)
        try harness.daemonSends(#"{"type":"hello","protocol":"gestured/1","version":"1","canControl":true}"# + "\n" + #"{"type":"tou"#)
        #expect(try harness.pageReceived() == [#"{"type":"hello","protocol":"gestured/1","version":"1","canControl":false}"#])
        try harness.daemonSends(#"ches","seq":1}"# + "\n" + #"{"type":"gesture","seq":2}"# + "\n\n")
        #expect(try harness.pageReceived() == [#"{"type":"touches","seq":1}"#, #"{"type":"gesture","seq":2}"#, ""])
    }

    /// A daemon line longer than the page's queue could ever hold ends the session as a slow
    /// consumer, before its end arrives.
    @Test func anEndlessDaemonLineEndsTheSessionAsASlowConsumer() throws {
        let harness = try Harness { $0.queueLimit = 1_000; $0.pauseAbove = 800; $0.resumeBelow = 100 }
        try harness.daemonSends(#"{"type":"hello","canControl":false}"# + "\n")
        _ = try harness.pageReceived()
        try harness.daemonSends(String(repeating: "x", count: 600))
        #expect(try harness.pageReceived().isEmpty)
        try harness.daemonSends(String(repeating: "x", count: 600))
        let received = try harness.pageReceived()
        #expect(received.count == 2)
        #expect(received.first?.contains(#""code":"slow_consumer""#) == true)
        #expect(received.last == "close \(WebSocketErrorCode.policyViolation)")
    }

    /// A page without the token: a request that changes the daemon is answered by the bridge
    /// (`forbidden`) and never reaches the daemon; one that changes nothing is forwarded as one
    /// line.
    @Test func aRefusedRequestNeverReachesTheDaemon() throws {
        let harness = try Harness(mayChange: false)
        try harness.pageSends(#"{"type":"reload","id":7}"#)
        #expect(try harness.daemonReceived().isEmpty)
        let refused = try harness.pageReceived()
        #expect(refused.count == 1)
        #expect(refused.first?.contains(#""code":"forbidden""#) == true)
        #expect(refused.first?.contains(#""re":7"#) == true)
        try harness.pageSends("{\"type\":\"status\",\n\"id\":1}")
        #expect(try harness.daemonReceived() == ["{\"type\":\"status\", \"id\":1}\n"])
    }

    /// RFC 6455 §5.1: a page's unmasked frame closes the session with 1002 (protocol error),
    /// and nothing of it reaches the daemon.
    @Test func anUnmaskedFrameClosesWithAProtocolError() throws {
        let harness = try Harness(mayChange: true)
        try harness.pageSends(#"{"type":"status","id":1}"#, masked: false)
        #expect(try harness.daemonReceived().isEmpty)
        #expect(try harness.pageReceived() == ["close \(WebSocketErrorCode.protocolError)"])
    }

    /// Backpressure: while the page does not take its messages, the daemon's lines queue up;
    /// above `pauseAbove` the bridge stops reading the daemon, and once the page's channel is
    /// writable again and the queue drains below `resumeBelow` it reads again. Past
    /// `queueLimit` the page is dropped as a slow consumer.
    @Test func aSlowPagePausesTheDaemonAndIsDroppedPastTheQueueLimit() throws {
        let harness = try Harness { $0.queueLimit = 10_000; $0.pauseAbove = 1_000; $0.resumeBelow = 200 }
        try harness.daemonSends(#"{"type":"hello","canControl":false}"# + "\n")
        #expect(try harness.pageReceived().count == 1)
        harness.browser.isWritable = false
        let line = #"{"type":"touches","pad":""# + String(repeating: "p", count: 80) + "\"}\n"
        // 9 lines of 107 bytes wait (963 bytes); the 10th takes the queue past 1,000.
        for _ in 0..<9 { try harness.daemonSends(line) }
        #expect(try harness.pageReceived().isEmpty)
        #expect(harness.daemonAutoRead == nil)
        try harness.daemonSends(line)
        #expect(harness.daemonAutoRead == false)
        // The page reads again: everything queued goes out in order, and the daemon is read again.
        harness.browser.isWritable = true
        harness.browser.pipeline.fireChannelWritabilityChanged()
        #expect(try harness.pageReceived().count == 10)
        #expect(harness.daemonAutoRead == true)
        // Stalled again, for good: past the queue limit the page is dropped.
        harness.browser.isWritable = false
        for _ in 0..<120 where harness.daemon.isActive { try harness.daemonSends(line) }
        #expect(!harness.daemon.isActive, "the session closes its daemon connection when it drops the page")
        harness.browser.isWritable = true
        harness.browser.pipeline.fireChannelWritabilityChanged()
        let last = try harness.pageReceived()
        #expect(last.first?.contains(#""code":"slow_consumer""#) == true)
        #expect(last.last == "close \(WebSocketErrorCode.policyViolation)")
    }

    /// A page that answers no ping is closed with 1001 once the next ping falls due, on the
    /// loop's own clock (advanced by the test).
    @Test func aPageThatAnswersNoPingIsClosed() throws {
        let harness = try Harness { $0.pingIntervalSeconds = 30 }
        harness.loop.advanceTime(by: .seconds(30))
        #expect(try harness.pageReceived() == ["ping"])
        harness.loop.advanceTime(by: .seconds(30))
        #expect(try harness.pageReceived() == ["close \(WebSocketErrorCode.goingAway)"])
    }
}
