import GestureConfig

/// What a SIGHUP changed in a running bridge (docs/web.md § Signals), as sentences for the
/// log: what new connections get from now on, and what needs a restart.
public struct BridgeReload: Equatable, Sendable {
    /// Changes in force for the connections opened from now on.
    public var applied: [String] = []
    /// Changes the running bridge cannot take (it would have to listen elsewhere).
    public var needsRestart: [String] = []

    /// Compares what runs with what the file now says. The token's value is never named.
    public init(from running: BridgeOptions, web: WebConfig, socketPath: String) {
        let old = running.web
        if old.origins != web.origins {
            applied.append("web.origins: \(Self.list(old.origins)) -> \(Self.list(web.origins))")
        }
        switch (old.token, web.token) {
        case (nil, nil): break
        case (nil, _?): applied.append("web.token: set; changes now need it")
        case (_?, nil): applied.append("web.token: removed; every page may change the layout")
        case (let before?, let after?) where before != after: applied.append("web.token: changed")
        case (_?, _?): break
        }
        if running.socketPath != socketPath {
            applied.append("socket.path: \(running.socketPath) -> \(socketPath)")
        }
        if old.listen != web.listen {
            needsRestart.append("web.listen: \(old.listen) -> \(web.listen); the bridge listens on \(old.listen) "
                + "until it is restarted")
        }
    }

    /// Nothing changed.
    public var isEmpty: Bool { applied.isEmpty && needsRestart.isEmpty }

    private static func list(_ origins: [OriginPattern]) -> String {
        "[" + origins.map(\.text).joined(separator: ", ") + "]"
    }
}
