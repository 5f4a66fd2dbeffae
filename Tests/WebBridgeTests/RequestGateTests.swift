import GestureServer
import Testing
@testable import WebBridge

/// The one look the bridge takes inside a page's messages: the token gate (docs/web.md § Who
/// may change the layout). The bypass class of issue 25 — a message the gate could not parse
/// was let through, then normalised into a change the daemon accepted — is checked as a
/// differential: whatever the gate forwards is framed and parsed as the daemon does it.
struct RequestGateTests {
    static func text(_ bytes: [UInt8]) -> String { String(decoding: bytes, as: UTF8.self) }

    /// A changing request, as the body of a JSON object.
    struct Change: Sendable, CustomTestStringConvertible {
        let type: String
        let body: String
        var testDescription: String { type }
    }

    static let changes = [
        Change(type: "layout.set", body: #""type":"layout.set","layout":{"id":"intruder","frame":[0,0,10,10]}"#),
        Change(type: "view.update", body: #""type":"view.update","view":"button","set":{"hidden":true}"#),
        Change(type: "screen.set", body: #""type":"screen.set","rotation":90"#),
        Change(type: "reload", body: #""type":"reload""#),
    ]

    /// One way of writing a message around a request body.
    struct Shape: Sendable, CustomTestStringConvertible {
        let name: String
        let make: @Sendable ([UInt8]) -> [UInt8]
        var testDescription: String { name }
        init(_ name: String, _ make: @escaping @Sendable ([UInt8]) -> [UInt8]) {
            self.name = name
            self.make = make
        }
    }

    static func object(_ body: [UInt8], _ suffix: String) -> [UInt8] { Array("{".utf8) + body + Array(suffix.utf8) }

    /// The bypass class: raw CR and LF where the daemon would see spaces, several lines, NUL,
    /// invalid UTF-8, duplicate keys, escapes, other whitespace.
    static let shapes: [Shape] = [
        Shape("plain") { object($0, #","id":1}"#) },
        Shape("raw CR inside a string") { object($0, ",\"id\":\"a\rb\"}") },
        Shape("raw LF inside a string") { object($0, ",\"id\":\"a\nb\"}") },
        Shape("raw CR LF inside a string") { object($0, ",\"id\":\"a\r\nb\"}") },
        Shape("raw CR inside a key") { object($0, ",\"i\rd\":1}") },
        Shape("raw CR between members") { object($0, "\r,\"id\":2}") },
        Shape("a trailing CR") { object($0, "}\r") },
        Shape("a trailing CR LF") { object($0, "}\r\n") },
        Shape("a leading LF") { Array("\n".utf8) + object($0, "}") },
        Shape("two lines") { Array("{\"type\":\"status\",\"id\":3}\n".utf8) + object($0, "}") },
        Shape("two lines, CR only") { Array("{\"type\":\"status\",\"id\":3}\r".utf8) + object($0, "}") },
        Shape("a blank line first") { Array("\r\n".utf8) + object($0, "}") },
        Shape("NUL inside a string") { object($0, ",\"id\":\"a\u{0}b\"}") },
        Shape("NUL after the object") { object($0, "}\u{0}") },
        Shape("invalid UTF-8 inside a string") { object($0, ",\"id\":\"") + [0xFF, 0xFE] + Array("\"}".utf8) },
        Shape("an overlong UTF-8 slash") { object($0, ",\"id\":\"") + [0xC0, 0xAF] + Array("\"}".utf8) },
        Shape("a byte-order mark") { [0xEF, 0xBB, 0xBF] + object($0, "}") },
        Shape("duplicate type, status first") { Array(#"{"type":"status","#.utf8) + $0 + Array("}".utf8) },
        Shape("duplicate type, status last") { object($0, #","type":"status"}"#) },
        Shape("an escaped key") { body in
            let escaped = text(body).replacingOccurrences(of: #""type""#, with: #""\u0074ype""#)
            return object(Array(escaped.utf8), "}")
        },
        Shape("a raw tab inside a string") { object($0, ",\"id\":\"a\tb\"}") },
        Shape("a form feed before") { [0x0C] + object($0, "}") },
        Shape("U+2028 inside a string") { object($0, ",\"id\":\"a\u{2028}b\"}") },
        Shape("a vertical tab between members") { object($0, "\u{0B},\"id\":4}") },
    ]

    /// The daemon's verdict on the bytes the gate forwards: its own framing, then its parser.
    static func daemonAcceptsAChange(_ forwarded: [UInt8]) -> Bool {
        guard let lines = BridgeGate.daemonLines(of: forwarded) else { return false }
        return lines.contains { line in (try? Request.parse(line))?.request.needsControl == true }
    }

    @Test(arguments: changes, shapes)
    func noShapeOfAChangeGetsThroughWithoutTheToken(_ change: Change, _ shape: Shape) throws {
        let message = shape.make(Array(change.body.utf8))
        let verdict = RequestGate(mayChange: false).verdict(on: message)
        // What the daemon makes of the line the bridge would send (CR and LF made spaces).
        let line = BridgeGate.line(of: message)
        let lines = try #require(BridgeGate.daemonLines(of: line))
        #expect(lines.count <= 1, "one message must be at most one daemon line")
        switch verdict {
        case .forward(let forwarded):
            #expect(forwarded == line, "the gate forwards exactly the line it decided on")
            #expect(!Self.daemonAcceptsAChange(forwarded), "the daemon would apply \(change.type) sent as \(shape.name)")
        case .refuse(let reply):
            // A change is forbidden; anything the daemon cannot read gets the daemon's own error.
            let parsed = lines.first.map { line in Result { () throws(ProtocolError) in try Request.parse(line) } }
            switch parsed {
            case .success(let (id, request))?:
                #expect(request.needsControl)
                #expect(Self.text(reply).hasPrefix("{\"type\":\"error\",\"re\":"), "\(Self.text(reply))")
                #expect(Self.text(reply).contains("\"code\":\"forbidden\""), "\(Self.text(reply))")
                if case .string(let text)? = id { #expect(Self.text(reply).contains(text)) }
            case .failure(let error)?:
                #expect(reply + [0x0A] == ReplyEncoder.encode(.error(error)), "the refusal is the daemon's own reply")
            case nil:
                Issue.record("a blank message was refused")
            }
        case .nothing:
            #expect(lines.isEmpty)
        case .tooLong:
            Issue.record("a short message was too long")
        }
    }

    /// Each shape that the daemon reads as the change, once normalised, is the bypass of issue
    /// 25: a raw CR or LF the old gate could not parse. They must be refused as forbidden.
    @Test(arguments: ["raw CR inside a string", "raw LF inside a string", "raw CR LF inside a string", "raw CR between members",
                      "a trailing CR", "a leading LF", "a blank line first", "a byte-order mark", "an escaped key",
                      "U+2028 inside a string"])
    func theKnownBypassesAreForbidden(_ name: String) throws {
        let shape = try #require(Self.shapes.first { $0.name == name })
        for change in Self.changes {
            guard case .refuse(let reply) = RequestGate(mayChange: false).verdict(on: shape.make(Array(change.body.utf8))) else {
                Issue.record("\(change.type) as \(name) was not refused")
                continue
            }
            #expect(Self.text(reply).contains("\"code\":\"forbidden\""), "\(change.type) as \(name): \(Self.text(reply))")
            #expect(Self.text(reply).contains("token for \(change.type);"), "\(Self.text(reply))")
        }
    }

    @Test(arguments: [
        ("two lines", "bad_json"), ("NUL inside a string", "bad_json"), ("NUL after the object", "bad_json"),
        ("invalid UTF-8 inside a string", "bad_json"), ("an overlong UTF-8 slash", "bad_json"),
        ("duplicate type, status first", "bad_request"), ("a raw tab inside a string", "bad_json"),
        ("a form feed before", "bad_json"), ("raw CR inside a key", "bad_request"),
    ])
    func whatTheDaemonCannotReadIsAnsweredWithItsOwnError(_ name: String, _ code: String) throws {
        let shape = try #require(Self.shapes.first { $0.name == name })
        for change in Self.changes {
            let verdict = RequestGate(mayChange: false).verdict(on: shape.make(Array(change.body.utf8)))
            guard case .refuse(let reply) = verdict else {
                Issue.record("\(change.type) as \(name): \(verdict)")
                continue
            }
            #expect(Self.text(reply).contains("\"code\":\"\(code)\""), "\(change.type) as \(name): \(Self.text(reply))")
        }
    }

    @Test(arguments: [#"{"type":"subscribe","kinds":["gesture"]}"#, #"{"type":"status"}"#, #"{"type":"hitTest","x":1,"y":2}"#,
                      "{\"type\":\"status\",\r\n\"id\":\"a\rb\"}", #"{"type":"unsubscribe","id":9}"#])
    func requestsThatChangeNothingGoToTheDaemonAsOneLine(_ message: String) {
        let expected = Array(message.utf8).map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 } + [0x0A]
        #expect(RequestGate(mayChange: false).verdict(on: Array(message.utf8)) == .forward(expected))
    }

    @Test(arguments: ["", " ", "\r\n", " \t\r\n\r"])
    func aBlankMessageIsNothing(_ message: String) {
        #expect(RequestGate(mayChange: false).verdict(on: Array(message.utf8)) == .nothing)
        #expect(RequestGate(mayChange: true).verdict(on: Array(message.utf8)) == .nothing)
    }

    /// With the token (or none configured), everything goes on, made into one line; the daemon
    /// judges it with its own replies.
    @Test(arguments: changes, shapes)
    func withTheTokenEverythingGoesOnAsOneLine(_ change: Change, _ shape: Shape) {
        let message = shape.make(Array(change.body.utf8))
        let expected = message.map { $0 == 0x0A || $0 == 0x0D ? 0x20 : $0 } + [0x0A]
        let verdict = RequestGate(mayChange: true).verdict(on: message)
        #expect(verdict == .forward(expected) || verdict == .nothing)
    }

    @Test func aMessageOverTheDaemonsLineLimitIsTooLong() {
        let gate = RequestGate(mayChange: false, maxLineLength: 16)
        #expect(gate.verdict(on: Array(#"{"type":"status"}"#.utf8)) == .tooLong)
        #expect(RequestGate(mayChange: true, maxLineLength: 16).verdict(on: Array(#"{"type":"status"}"#.utf8)) == .tooLong)
        #expect(RequestGate(mayChange: false, maxLineLength: 17).verdict(on: Array(#"{"type":"status"}"#.utf8))
            == .forward(Array("{\"type\":\"status\"}\n".utf8)))
        #expect(BridgeGate.daemonLineLimit == 1 << 20)
    }

    @Test func theRefusalEchoesTheRequestsID() {
        let gate = RequestGate(mayChange: false)
        guard case .refuse(let reply) = gate.verdict(on: Array(#"{"type":"reload","id":"r1"}"#.utf8)) else {
            Issue.record("not refused")
            return
        }
        #expect(Self.text(reply).hasPrefix(#"{"type":"error","re":"r1","error":{"code":"forbidden","#))
        #expect(Self.text(reply).contains("?token="))
        guard case .refuse(let other) = gate.verdict(on: Array(#"{"type":"reload","id":7}"#.utf8)) else {
            Issue.record("not refused")
            return
        }
        #expect(Self.text(other).hasPrefix(#"{"type":"error","re":7,"#))
        // An id the daemon cannot read: its own bad_request, with no id to echo.
        guard case .refuse(let bad) = gate.verdict(on: Array(#"{"type":"reload","id":[1]}"#.utf8)) else {
            Issue.record("not refused")
            return
        }
        #expect(Self.text(bad).contains(#""code":"bad_request""#), "\(Self.text(bad))")
    }

    @Test func helloSaysCanControlFalseWithoutTheToken() {
        let hello = Array("{\"type\":\"hello\",\"protocol\":\"gestured/1\",\"version\":\"0.1.0\",\"canControl\":true}".utf8)
        #expect(Self.text(RequestGate(mayChange: false).hello(hello)).hasSuffix("\"canControl\":false}"))
        #expect(RequestGate(mayChange: true).hello(hello) == hello)
    }

    @Test func tokenComparison() {
        let token = "0123456789abcdef"
        #expect(RequestGate.tokenMatches(uri: "/socket?token=0123456789abcdef", token: token))
        #expect(RequestGate.tokenMatches(uri: "/socket?x=1&token=%30123456789abcdef#f", token: token))
        #expect(!RequestGate.tokenMatches(uri: "/socket?token=0123456789abcde", token: token))
        #expect(!RequestGate.tokenMatches(uri: "/socket?token=0123456789abcdeff", token: token))
        #expect(!RequestGate.tokenMatches(uri: "/socket", token: token))
        #expect(!RequestGate.tokenMatches(uri: "/socket?token=%zz", token: token))
        #expect(!RequestGate.tokenMatches(uri: "/socket?tok=0123456789abcdef", token: token))
    }

    @Test func theModuleIsEmbedded() {
        // The minified module: its source map has the readable one.
        #expect(BridgeServer.clientModule.contains("sourceMappingURL=gestured.js.map"))
        #expect(ClientModule.sourceMap.contains("\"sourcesContent\""))
    }
}
