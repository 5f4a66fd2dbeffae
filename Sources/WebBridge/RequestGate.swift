import FoundationEssentials
import GestureConfig
import GestureServer

/// What the bridge does with the token (docs/web.md): with `web.token` set, a connection opened
/// without it may not send the requests that change the daemon. The verdict on each message
/// is ``BridgeGate``'s (in the daemon's module, beside the parser it decides with); this adds
/// the token in the request target and the `hello` such a connection is shown.
public struct RequestGate: Sendable {
    /// Whether this connection may change the daemon (no token configured, or it was given).
    public var mayChange: Bool { gate.mayChange }
    private let gate: BridgeGate

    public init(mayChange: Bool, maxLineLength: Int = BridgeGate.daemonLineLimit) {
        gate = BridgeGate(mayChange: mayChange, maxLineLength: maxLineLength)
    }

    /// What becomes of one whole message from the page (``BridgeGate/verdict(on:)``).
    public func verdict(on message: some Collection<UInt8>) -> BridgeGate.Verdict {
        gate.verdict(on: message)
    }

    /// The daemon's `hello` as this connection should see it: a connection that may not change
    /// the daemon is told `"canControl":false` even when the bridge's own user may.
    public func hello(_ line: [UInt8]) -> [UInt8] {
        guard !mayChange else { return line }
        let allowed = Array("\"canControl\":true".utf8)
        guard let range = line.firstRange(of: allowed) else { return line }
        var rewritten = line
        rewritten.replaceSubrange(range, with: Array("\"canControl\":false".utf8))
        return rewritten
    }

    /// Whether the `?token=` of a request target equals the configured token, compared in time
    /// that does not depend on where they differ.
    public static func tokenMatches(uri: String, token: String) -> Bool {
        guard let given = queryValue("token", in: uri) else { return false }
        let a = Array(given.utf8), b = Array(token.utf8)
        var difference = UInt8(a.count == b.count ? 0 : 1)
        for index in 0..<b.count { difference |= b[index] ^ (index < a.count ? a[index] : 0) }
        return difference == 0
    }

    /// The percent-decoded value of `name` in the query of `uri` (`/socket?token=abc`).
    public static func queryValue(_ name: String, in uri: String) -> String? {
        guard let question = uri.firstIndex(of: "?") else { return nil }
        let query = uri[uri.index(after: question)...].prefix { $0 != "#" }
        for pair in query.split(separator: "&") {
            let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
            guard parts.count == 2, parts[0] == name else { continue }
            return percentDecoded(parts[1])
        }
        return nil
    }

    private static func percentDecoded(_ text: Substring) -> String? {
        var bytes: [UInt8] = []
        var iterator = text.utf8.makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next().flatMap(hexValue), let low = iterator.next().flatMap(hexValue) else { return nil }
                bytes.append(high << 4 | low)
            case UInt8(ascii: "+"):
                bytes.append(UInt8(ascii: " "))
            default:
                bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
