#if canImport(Glibc)
import Glibc
#endif
import GestureConfig
import GestureCore
import GestureServer
import NIOCore

/// The answer to `GET /gestured/check` (docs/protocol.md § Preflight): whether a page with this
/// origin and token could use the bridge now, and if not, the one sentence that says why and
/// what to change. A browser hides the status of a refused WebSocket handshake from the page;
/// this is how the page's `connect()` learns the cause. A value with no I/O (whether the
/// daemon answers is found out by the caller).
public struct BridgeCheck: Equatable, Sendable {
    /// The request's `Origin`, `nil` without one.
    public var origin: String?
    public var originAllowed: Bool
    public var allowedOrigins: [String]
    public var tokenConfigured: Bool
    /// `nil` when the request named no token.
    public var tokenAccepted: Bool?
    public var daemonUp: Bool
    /// What is wrong and how to fix it; `nil` when nothing is.
    public var reason: String?

    /// `uri` is the request target (`/gestured/check?token=…`); `daemonError` is why the
    /// daemon's socket could not be reached (`nil`: it answered).
    public init(origin: String?, uri: String, web: WebConfig, socketPath: String, daemonError: String?) {
        self.origin = origin
        originAllowed = web.allows(origin: origin)
        allowedOrigins = web.origins.map(\.text)
        tokenConfigured = web.token != nil
        if RequestGate.queryValue("token", in: uri) != nil {
            tokenAccepted = web.token.map { RequestGate.tokenMatches(uri: uri, token: $0) } ?? true
        } else {
            tokenAccepted = nil
        }
        daemonUp = daemonError == nil
        if !originAllowed {
            reason = Self.originRefusal(origin ?? "null", web: web)
        } else if tokenAccepted == false {
            reason = Self.tokenRefusal
        } else if let daemonError {
            reason = Self.daemonRefusal(socketPath: socketPath, error: daemonError)
        } else {
            reason = nil
        }
    }

    /// The sentence for an origin the bridge refuses, naming it and the allowed ones; a page on
    /// one loopback name while another is allowed (`localhost` and `127.0.0.1` are different
    /// origins to a browser) is told so.
    public static func originRefusal(_ origin: String, web: WebConfig) -> String {
        let allowed = web.origins.map(\.text).joined(separator: ", ")
        var sentence = "the page's origin \(origin) is not in web.origins (allowed: \(allowed.isEmpty ? "none" : allowed)); "
            + "add it to web.origins in gestured's configuration and send gestured-web SIGHUP"
        let loopback = ["localhost", "127.0.0.1", "[::1]"]
        if let name = loopback.first(where: { origin.contains("://\($0)") }) {
            for other in loopback where other != name {
                let candidate = origin.replacingFirst("://\(name)", with: "://\(other)")
                guard web.allows(origin: candidate) else { continue }
                sentence += ", or open the page as \(candidate) (a browser takes \(name) and \(other) for different origins)"
                break
            }
        }
        return sentence
    }

    /// The sentence for a token that is not `web.token`.
    public static let tokenRefusal = "the token is not the bridge's web.token; pass connect({ token }) the value of web.token "
        + "in gestured's configuration, or no token to observe without changing the layout"

    /// The sentence for a daemon the bridge cannot reach.
    public static func daemonRefusal(socketPath: String, error: String) -> String {
        "gestured is not reachable on \(socketPath) (\(error)); the bridge runs, the daemon does not: start gestured"
    }

    /// Why connecting to the daemon's socket failed, for a person: the system's sentence and
    /// errno (`No such file or directory (errno 2)`) for a system error, as is otherwise.
    public static func describeConnectError(_ error: any Error) -> String {
        guard let error = error as? IOError else { return "\(error)" }
        return "\(String(cString: strerror(error.errnoCode))) (errno \(error.errnoCode))"
    }

    /// The response body: one JSON object.
    public var json: [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("bridge"); writer.string("gestured-web")
        writer.key("protocol"); writer.string(EventServer.protocolName)
        writer.key("origin"); if let origin { writer.string(origin) } else { writer.null() }
        writer.key("originAllowed"); writer.bool(originAllowed)
        writer.key("allowedOrigins"); writer.beginArray()
        for pattern in allowedOrigins { writer.string(pattern) }
        writer.endArray()
        writer.key("tokenConfigured"); writer.bool(tokenConfigured)
        writer.key("tokenAccepted"); if let tokenAccepted { writer.bool(tokenAccepted) } else { writer.null() }
        writer.key("daemon"); writer.string(daemonUp ? "up" : "down")
        writer.key("reason"); if let reason { writer.string(reason) } else { writer.null() }
        writer.endObject()
        writer.newline()
        return writer.bytes
    }
}

private extension String {
    func replacingFirst(_ target: String, with replacement: String) -> String {
        guard let range = firstRange(of: target) else { return self }
        var copy = self
        copy.replaceSubrange(range, with: replacement)
        return copy
    }
}
