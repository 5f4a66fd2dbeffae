import Testing
@testable import WebBridge

/// The answer to a page's close frame (RFC 6455 §5.5.1, §7.4): its own code when it may be
/// received, 1000 for no code, 1002 for anything that breaks the rules (issue 25).
struct CloseFrameRuleTests {
    static func payload(_ code: UInt16, _ reason: [UInt8] = []) -> [UInt8] { [UInt8(code >> 8), UInt8(code & 0xFF)] + reason }

    @Test(arguments: [1000, 1001, 1002, 1003, 1007, 1008, 1009, 1010, 1011, 1012, 1013, 1014, 3000, 3999, 4000, 4999] as [UInt16])
    func aCodeThatMayBeReceivedIsEchoed(_ code: UInt16) {
        #expect(CloseFrameRule(payload: Self.payload(code)) == .answer(code))
        #expect(CloseFrameRule(payload: Self.payload(code, Array("bye, ünïcode".utf8))) == .answer(code))
    }

    @Test(arguments: [0, 1, 999, 1004, 1005, 1006, 1015, 1016, 1100, 2000, 2999, 5000, 65535] as [UInt16])
    func aCodeNoEndpointMaySendIsAProtocolError(_ code: UInt16) {
        guard case .protocolError(let why) = CloseFrameRule(payload: Self.payload(code)) else {
            Issue.record("\(code) was accepted")
            return
        }
        #expect(why.contains("code \(code)"))
    }

    @Test func noCodeIsAnsweredWith1000NeverWith1005() {
        #expect(CloseFrameRule(payload: []) == .answer(1000))
    }

    @Test func aOneBytePayloadIsAProtocolError() {
        #expect(CloseFrameRule(payload: [0x03]) == .protocolError("a close frame with a 1-byte payload (a code is 2 bytes)"))
    }

    @Test(arguments: [[0xFF], [0xC0, 0xAF], [0xED, 0xA0, 0x80], [0x61, 0xE2, 0x82]] as [[UInt8]])
    func aReasonThatIsNotUTF8IsAProtocolError(_ reason: [UInt8]) {
        #expect(CloseFrameRule(payload: Self.payload(1000, reason)) == .protocolError("a close frame whose reason is not UTF-8"))
    }
}
