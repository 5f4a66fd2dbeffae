import FoundationEssentials
import GestureConfig
import GestureServer

/// The bridge's one look inside the messages a page sends (SPEC 13): with `web.token` set, a
/// connection opened without the token may not send the requests that change the daemon.
/// Everything else is the daemon's to judge, with its own error replies.
public struct RequestGate: Sendable {
    /// The request types that change the daemon and so need the token (SPEC 13).
    public static let changingTypes: Set<String> = ["layout.set", "view.update", "screen.set", "reload"]

    /// Whether this connection may change the daemon (no token configured, or it was given).
    public let mayChange: Bool

    public init(mayChange: Bool) {
        self.mayChange = mayChange
    }

    /// The `forbidden` error line for `message` when it is a changing request this connection
    /// may not send; `nil` when it may go to the daemon. A message the daemon could not read
    /// (not JSON, no type) goes on: the daemon answers it as it answers any client.
    public func refusal(of message: some Collection<UInt8>) -> [UInt8]? {
        guard !mayChange else { return nil }
        guard let value = try? JSONParser.parse(bytes: Array(message), dialect: .json).value,
              case .object(let members) = value,
              case .string(let type)? = members["type"], Self.changingTypes.contains(type) else {
            return nil
        }
        let id: RequestID? = switch members["id"] {
        case .number(let number)?: .number(number)
        case .string(let string)?: .string(string)
        default: nil
        }
        let error = ProtocolError(.forbidden, "this connection may not change the layout: the bridge requires a token "
            + "for \(type); open the WebSocket with ?token=… (connect({ token })) as web.token in gestured's configuration says",
            requestID: id)
        return ReplyEncoder.encode(.error(error))
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
