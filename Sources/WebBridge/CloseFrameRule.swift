/// How the bridge answers a page's close frame (RFC 6455 §5.5.1, §7.4): the code it sends back,
/// or the protocol error the frame is. A value with no I/O, so each rule has its test.
///
/// | the page's close payload | answer |
/// |---|---|
/// | empty (no code) | close 1000 (1005, "no status", may not be sent, §7.4.1) |
/// | 1 byte | 1002: a code is two bytes (§5.5.1) |
/// | a code that may be received: 1000–1003, 1007–1014, 3000–4999 | the same code (§5.5.1: "typically echos") |
/// | 1005, 1006, 1015 (never sent, §7.4.1), below 1000, 1004, 1016–2999 (reserved, unassigned), 5000 and up | 1002 |
/// | a reason after the code that is not UTF-8 (§5.5.1) | 1002 |
enum CloseFrameRule: Equatable {
    /// Answer with this close code, then close.
    case answer(UInt16)
    /// The frame breaks RFC 6455: fail the connection with 1002.
    case protocolError(String)

    /// The answer to a close frame with this (unmasked) payload.
    init(payload: some Collection<UInt8>) {
        let bytes = Array(payload)
        guard !bytes.isEmpty else {
            self = .answer(1000)
            return
        }
        guard bytes.count >= 2 else {
            self = .protocolError("a close frame with a 1-byte payload (a code is 2 bytes)")
            return
        }
        let code = UInt16(bytes[0]) << 8 | UInt16(bytes[1])
        guard Self.mayBeReceived(code) else {
            self = .protocolError("a close frame with code \(code), which no endpoint may send")
            return
        }
        guard String(validating: bytes[2...], as: UTF8.self) != nil else {
            self = .protocolError("a close frame whose reason is not UTF-8")
            return
        }
        self = .answer(code)
    }

    /// Codes an endpoint may put in a close frame (§7.4.1, §7.4.2 and IANA's registry: 1012–1014
    /// are registered; 3000–3999 are for libraries, 4000–4999 private).
    static func mayBeReceived(_ code: UInt16) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
