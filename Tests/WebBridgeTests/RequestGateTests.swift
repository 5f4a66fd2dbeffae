import Testing
@testable import WebBridge

/// The one look the bridge takes inside a page's messages: the token gate (SPEC 13).
struct RequestGateTests {
    static func text(_ bytes: [UInt8]?) -> String? { bytes.map { String(decoding: $0, as: UTF8.self) } }

    @Test(arguments: ["layout.set", "view.update", "screen.set", "reload"])
    func changingRequestsNeedTheToken(_ type: String) {
        let refusal = Self.text(RequestGate(mayChange: false).refusal(of: Array("{\"type\":\"\(type)\",\"id\":7}".utf8)))
        #expect(refusal?.hasPrefix("{\"type\":\"error\",\"re\":7,\"error\":{\"code\":\"forbidden\",") == true)
        #expect(refusal?.contains("?token=") == true)
        #expect(RequestGate(mayChange: true).refusal(of: Array("{\"type\":\"\(type)\",\"id\":7}".utf8)) == nil)
    }

    @Test(arguments: ["{\"type\":\"subscribe\",\"kinds\":[\"gesture\"]}", "{\"type\":\"status\"}", "{\"type\":\"hitTest\",\"x\":1,\"y\":2}",
                      "not json", "[1,2]", "{\"id\":3}", "{\"type\":5}", ""])
    func everythingElseGoesToTheDaemon(_ message: String) {
        #expect(RequestGate(mayChange: false).refusal(of: Array(message.utf8)) == nil)
    }

    @Test func theRefusalEchoesAStringIDAndNullOtherwise() {
        let gate = RequestGate(mayChange: false)
        #expect(Self.text(gate.refusal(of: Array("{\"type\":\"reload\",\"id\":\"r1\"}".utf8)))?.contains("\"re\":\"r1\"") == true)
        #expect(Self.text(gate.refusal(of: Array("{\"type\":\"reload\",\"id\":[1]}".utf8)))?.contains("\"re\":null") == true)
    }

    @Test func helloSaysCanControlFalseWithoutTheToken() {
        let hello = Array("{\"type\":\"hello\",\"protocol\":\"gestured/1\",\"version\":\"0.1.0\",\"canControl\":true}".utf8)
        #expect(Self.text(RequestGate(mayChange: false).hello(hello))?.hasSuffix("\"canControl\":false}") == true)
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
        #expect(BridgeServer.clientModule.contains("export function connect("))
    }
}
