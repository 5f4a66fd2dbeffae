/// The web bridge's token gate (docs/web.md § Who may change the layout): what becomes of one
/// WebSocket text message from a page. A value with no I/O, in the daemon's module so that it
/// decides with the daemon's own framing (``LineFramer``), parser (``Request/parse(_:)``) and
/// list of changing requests (``RequestType/changesState``), and so that the fuzz targets reach it
/// without SwiftNIO.
///
/// The rule: the message is first made into exactly the line the daemon will read (a CR or LF
/// becomes a space, one newline ends it); the verdict is then taken on those bytes, framed
/// as the daemon frames them. On a connection that may not change the daemon, a line the
/// daemon would read as a changing request is refused with `forbidden`, and a line it could
/// not read at all is refused with the daemon's own error reply (so a page learns what the
/// daemon would have said, and nothing the gate did not understand reaches the daemon with
/// the bridge's control rights); only a line that parses as a request that changes nothing
/// is forwarded.
public struct BridgeGate: Sendable {
    /// What becomes of one message.
    public enum Verdict: Equatable, Sendable {
        /// Send exactly these bytes to the daemon: one line, its newline included.
        case forward([UInt8])
        /// Send nothing to the daemon; answer the page with this line (no newline).
        case refuse([UInt8])
        /// Nothing but blanks: the daemon would skip the line, so nothing is sent or answered.
        case nothing
        /// Longer than the daemon's line limit: the daemon would close the connection.
        case tooLong
    }

    /// The daemon's request line limit (``EventServer/Options/maxLineLength``), which a
    /// message, being one line, must keep too.
    public static let daemonLineLimit = EventServer.Options(version: "").maxLineLength

    /// Whether this connection may change the daemon (no token configured, or it was given).
    public let mayChange: Bool
    /// The longest line, as the daemon's.
    public let maxLineLength: Int

    public init(mayChange: Bool, maxLineLength: Int = BridgeGate.daemonLineLimit) {
        (self.mayChange, self.maxLineLength) = (mayChange, maxLineLength)
    }

    /// The verdict on one whole message (fragments joined).
    public func verdict(on message: some Collection<UInt8>) -> Verdict {
        let line = Self.line(of: message)
        var framer = LineFramer(maxLineLength: maxLineLength)
        framer.append(line)
        switch framer.nextLine() {
        case nil:
            return .nothing
        case .tooLong?:
            return .tooLong
        case .line(let framed)?:
            guard !mayChange else { return .forward(line) }
            do throws(ProtocolError) {
                let (id, request) = try Request.parse(framed)
                guard request.needsControl else { return .forward(line) }
                return .refuse(ReplyEncoder.encode(.error(Self.forbidden(request, id: id))).droppingNewline())
            } catch {
                return .refuse(ReplyEncoder.encode(.error(error)).droppingNewline())
            }
        }
    }

    /// The one line the daemon reads for a message: every CR and LF becomes a space (inside
    /// valid JSON a raw one can only be whitespace; strings escape theirs), then a newline.
    /// So one message is never two requests, and never part of the next one.
    public static func line(of message: some Collection<UInt8>) -> [UInt8] {
        var line: [UInt8] = []
        line.reserveCapacity(message.count + 1)
        for byte in message { line.append(byte == 0x0A || byte == 0x0D ? 0x20 : byte) }
        line.append(0x0A)
        return line
    }

    /// The lines the daemon cuts `bytes` into, with its own ``LineFramer`` and line limit
    /// (`nil` once a line is too long, where the daemon stops reading): what the daemon would
    /// make of forwarded bytes, for the fuzz target and the tests that check the gate
    /// against it.
    public static func daemonLines(of bytes: some Collection<UInt8>,
                                   maxLineLength: Int = BridgeGate.daemonLineLimit) -> [ArraySlice<UInt8>]? {
        var framer = LineFramer(maxLineLength: maxLineLength)
        framer.append(bytes)
        var lines: [ArraySlice<UInt8>] = []
        while let output = framer.nextLine() {
            switch output {
            case .line(let line): lines.append(line)
            case .tooLong: return nil
            }
        }
        return lines
    }

    private static func forbidden(_ request: Request, id: RequestID?) -> ProtocolError {
        ProtocolError(.forbidden, "this connection may not change the layout: the bridge requires a token for "
            + "\(request.type.rawValue); open the WebSocket with ?token=… (connect({ token })) as web.token in gestured's "
            + "configuration says", requestID: id)
    }
}

private extension Array where Element == UInt8 {
    func droppingNewline() -> [UInt8] { last == 0x0A ? Array(dropLast()) : self }
}
