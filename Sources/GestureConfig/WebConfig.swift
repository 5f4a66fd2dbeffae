/// The web bridge's settings (configuration key `web`, docs/web.md, "Configuration (`web`)"): where
/// `gestured-web` listens, which page origins may open its WebSocket, and the token that layout changes need.
/// The daemon itself ignores the section; `gestured check-config` validates it.
public struct WebConfig: Hashable, Sendable {
    /// `web.listen` when absent: loopback only, so nothing off the machine reaches the bridge.
    public static let defaultListen = ListenAddress(host: "127.0.0.1", port: 7300)
    /// `web.origins` when absent: pages served from this machine (any port), nothing else.
    public static let defaultOrigins: [OriginPattern] = [
        OriginPattern("http://localhost:*")!, OriginPattern("http://127.0.0.1:*")!, OriginPattern("http://[::1]:*")!,
    ]
    /// `web.token`: the shortest and longest token accepted. 16 characters of a random
    /// `[A-Za-z0-9]` token are about 95 bits; 512 keeps a request line short.
    public static let tokenLength = 16...512

    public var listen: ListenAddress
    public var origins: [OriginPattern]
    /// Connections opened without `?token=` this value may not change the daemon; `nil`: no token.
    public var token: String?

    public init(listen: ListenAddress = WebConfig.defaultListen, origins: [OriginPattern] = WebConfig.defaultOrigins,
                token: String? = nil) {
        (self.listen, self.origins, self.token) = (listen, origins, token)
    }

    /// Whether a WebSocket request with this `Origin` header may connect. A request without
    /// one does not come from a web page (browsers always send it on a WebSocket handshake)
    /// and is allowed: the origin check keeps other sites' pages out, not local programs.
    public func allows(origin: String?) -> Bool {
        guard let origin else { return true }
        return origins.contains { $0.matches(origin) }
    }

    /// The characters a token may have: URL-safe ones (RFC 3986 "unreserved"), so it travels
    /// in `?token=` without escaping.
    public static func isTokenCharacter(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
             UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
            true
        default:
            false
        }
    }
}

/// `web.listen`: a host (an IPv4 address, `[IPv6]` or a name such as `localhost`) and a TCP port.
public struct ListenAddress: Hashable, Sendable, CustomStringConvertible {
    /// The host without brackets (`::1`, not `[::1]`).
    public var host: String
    public var port: Int

    public init(host: String, port: Int) {
        (self.host, self.port) = (host, port)
    }

    /// Reads `HOST:PORT` (`[IPv6]:PORT` for IPv6 addresses), or says why it cannot. Port 0
    /// (any free port) is for tests and trials on the command line, never in the file.
    public static func parse(_ text: String, allowsAnyPort: Bool = false) -> Result<ListenAddress, ListenAddressError> {
        let host: Substring
        let portText: Substring
        if text.hasPrefix("[") {
            guard let close = text.firstIndex(of: "]") else { return .failure(.unclosedBracket) }
            host = text[text.index(after: text.startIndex)..<close]
            let rest = text[text.index(after: close)...]
            guard rest.hasPrefix(":") else { return .failure(.missingPort) }
            portText = rest.dropFirst()
        } else {
            guard let colon = text.lastIndex(of: ":") else { return .failure(.missingPort) }
            host = text[..<colon]
            portText = text[text.index(after: colon)...]
            if host.contains(":") { return .failure(.bareIPv6) }
        }
        guard !host.isEmpty else { return .failure(.missingHost) }
        guard host.utf8.count <= 253, host.allSatisfy({ $0.isASCII && !$0.isWhitespace && $0 != "/" }) else {
            return .failure(.badHost(String(host)))
        }
        guard portText.count <= 5, let port = Int(portText), ((allowsAnyPort ? 0 : 1)...65535).contains(port) else {
            return .failure(.badPort(String(portText)))
        }
        return .success(ListenAddress(host: String(host), port: port))
    }

    public var description: String { host.contains(":") ? "[\(host)]:\(port)" : "\(host):\(port)" }
}

/// Why a `web.listen` value cannot be read.
public enum ListenAddressError: Error, Hashable, Sendable, CustomStringConvertible {
    case missingPort
    case missingHost
    case unclosedBracket
    case bareIPv6
    case badHost(String)
    case badPort(String)

    public var description: String {
        switch self {
        case .missingPort: "no port; write HOST:PORT, such as \"127.0.0.1:7300\""
        case .missingHost: "no host; write HOST:PORT, such as \"127.0.0.1:7300\" (\"0.0.0.0:7300\" for every interface)"
        case .unclosedBracket: "the IPv6 address has no closing ]; write it as \"[::1]:7300\""
        case .bareIPv6: "an IPv6 address needs brackets; write it as \"[::1]:7300\""
        case .badHost(let host): "\"\(host)\" is not a host name or address"
        case .badPort(let port): "\"\(port)\" is not a port; use a whole number from 1 to 65535"
        }
    }
}

/// One entry of `web.origins`: `"*"` (any page), an origin `scheme://host[:port]` compared as
/// browsers serialise it (RFC 6454: lowercase scheme and host, default port left out), the
/// same with the port `*` (any port), or `"null"` for pages with an opaque origin (`file://`).
public struct OriginPattern: Hashable, Sendable, CustomStringConvertible {
    /// The pattern as written.
    public let text: String
    private let scheme: String
    private let host: String
    /// `nil`: any port; otherwise the port, or the scheme's default port when none was written.
    private let port: Int?
    private let any: Bool
    private let opaque: Bool

    /// Reads a pattern; `nil` when it is none of the forms above.
    public init?(_ text: String) {
        self.text = text
        if text == "*" {
            (any, opaque, scheme, host, port) = (true, false, "", "", nil)
            return
        }
        if text == "null" {
            (any, opaque, scheme, host, port) = (false, true, "", "", nil)
            return
        }
        guard let parsed = Self.split(text, allowAnyPort: true) else { return nil }
        (any, opaque, scheme, host, port) = (false, false, parsed.scheme, parsed.host, parsed.port)
    }

    /// Whether an `Origin` header value matches.
    public func matches(_ origin: String) -> Bool {
        if any { return true }
        if origin == "null" { return opaque }
        guard !opaque, let parsed = Self.split(origin, allowAnyPort: false) else { return false }
        return parsed.scheme == scheme && parsed.host == host && (port == nil || parsed.port == port)
    }

    public var description: String { text }

    /// `scheme://host[:port]` → lowercase scheme and host and the port (the default one when
    /// absent, `nil` for `:*`); `nil` for anything else (a path, user info, no host).
    private static func split(_ text: String, allowAnyPort: Bool) -> (scheme: String, host: String, port: Int?)? {
        guard let separator = text.firstRange(of: "://") else { return nil }
        let scheme = text[..<separator.lowerBound].lowercased()
        guard ["http", "https"].contains(scheme) else { return nil }
        let authority = text[separator.upperBound...]
        guard !authority.isEmpty, !authority.contains(where: { "/?#@ ".contains($0) }) else { return nil }
        var host = Substring(authority)
        var portText: Substring?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            host = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.hasPrefix(":") else { return nil }
                portText = rest.dropFirst()
            }
        } else if let colon = authority.lastIndex(of: ":") {
            host = authority[..<colon]
            portText = authority[authority.index(after: colon)...]
        }
        guard !host.isEmpty else { return nil }
        var port: Int? = scheme == "https" ? 443 : 80
        if let portText {
            if portText == "*" && allowAnyPort {
                port = nil
            } else {
                guard portText.count <= 5, let number = Int(portText), (1...65535).contains(number) else { return nil }
                port = number
            }
        }
        return (scheme, host.lowercased(), port)
    }
}
