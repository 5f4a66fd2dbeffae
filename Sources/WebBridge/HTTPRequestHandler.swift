import GestureConfig
import Logging
import NIOCore
import NIOHTTP1
import NIOPosix

/// The plain HTTP side of the bridge (docs/protocol.md § The bridge's HTTP side):
/// `GET /gestured.js` and `/gestured.js.map` serve the client module and its source map (gzip
/// when accepted, a strong `ETag`, `304` on `If-None-Match`, `Cache-Control: no-cache`), with
/// `Access-Control-Allow-Origin` for allowed origins so their pages can import it;
/// `GET /gestured/check` is the preflight every page may ask (``BridgeCheck``); a request for
/// `/socket` that reaches this handler was not upgraded and is answered with why (403 for an
/// origin that is not allowed, 426 for a request that is no WebSocket handshake); anything
/// else is 404 or 405. Every refusal is logged (``RefusalLog``). Every response closes the
/// connection.
final class HTTPRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "gestured-web-http"
    /// How long the preflight waits for the daemon's socket to accept before it says `down`.
    static let daemonProbeMilliseconds: Int64 = 1000

    /// What every connection's handler serves: the same values for all.
    struct Content: Sendable {
        var module: ServedFile
        var sourceMap: ServedFile
        var serverName: String
        var refusals: RefusalLog
    }

    private let web: WebConfig
    private let socketPath: String
    private let content: Content
    private let timeoutSeconds: Int64
    private var timeout: Scheduled<Void>?
    private var responding = false

    init(web: WebConfig, socketPath: String, content: Content, timeoutSeconds: Int64) {
        (self.web, self.socketPath, self.content, self.timeoutSeconds) = (web, socketPath, content, timeoutSeconds)
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // A client that never finishes its request must not hold a connection forever.
        let channel = context.channel
        timeout = context.eventLoop.scheduleTask(in: .seconds(timeoutSeconds)) { channel.close(promise: nil) }
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        // Removed after a WebSocket upgrade: the session watches the connection from now on.
        timeout?.cancel()
        timeout = nil
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard case .head(let head) = Self.unwrapInboundIn(data), !responding else { return }
        responding = true
        let path = String(head.uri.prefix { $0 != "?" && $0 != "#" })
        let origin = head.headers.first(name: "Origin")
        switch (head.method, path) {
        case (.GET, "/gestured.js"), (.HEAD, "/gestured.js"):
            serve(content.module, context, head: head, origin: origin)
        case (.GET, "/gestured.js.map"), (.HEAD, "/gestured.js.map"):
            serve(content.sourceMap, context, head: head, origin: origin)
        case (.GET, "/gestured/check"), (.HEAD, "/gestured/check"):
            check(context, head: head, origin: origin)
        case (.GET, "/socket"):
            if !web.allows(origin: origin) {
                let reason = BridgeCheck.originRefusal(origin ?? "null", web: web)
                content.refusals.refused("refused a WebSocket: the page's origin is not allowed", [
                    "origin": "\(origin ?? "none")", "allowed": "\(web.origins.map(\.text))", "reason": "\(reason)"])
                text(context, .forbidden, reason + "\n")
            } else {
                text(context, .upgradeRequired, "/socket is a WebSocket: connect with new WebSocket(\"ws://…/socket\")\n",
                     extra: [("Upgrade", "websocket")])
            }
        case (_, "/gestured.js"), (_, "/gestured.js.map"), (_, "/gestured/check"):
            text(context, .methodNotAllowed, "only GET and HEAD\n", extra: [("Allow", "GET, HEAD")])
        case (_, "/socket"):
            text(context, .methodNotAllowed, "only GET\n", extra: [("Allow", "GET")])
        default:
            text(context, .notFound, "gestured-web serves /gestured.js, /gestured.js.map, /gestured/check and /socket\n")
        }
    }

    /// A request NIO's parser refused: HTTPServerProtocolErrorHandler has answered 400; close.
    /// (A declined WebSocket upgrade also passes an error this way, and is answered above.)
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is HTTPParserError {
            content.refusals.refused("refused a request that is not HTTP", [
                "peer": "\(context.channel.remoteAddress?.description ?? "unknown")", "error": "\(error)"])
            context.close(promise: nil)
        }
    }

    /// One of the embedded files, as the request asks: gzipped if it accepts that, `304` if
    /// its copy is current.
    private func serve(_ file: ServedFile, _ context: ChannelHandlerContext, head: HTTPRequestHead, origin: String?) {
        let (representation, gzipped) = file.representation(acceptEncoding: head.headers.first(name: "Accept-Encoding"))
        var headers = HTTPHeaders([("Content-Type", file.contentType), ("Cache-Control", "no-cache"),
                                   ("ETag", representation.etag), ("X-Content-Type-Options", "nosniff"),
                                   ("Vary", "Origin, Accept-Encoding")])
        if gzipped { headers.add(name: "Content-Encoding", value: "gzip") }
        if let origin {
            if web.allows(origin: origin) {
                headers.add(name: "Access-Control-Allow-Origin", value: origin)
            } else {
                content.refusals.refused("served the client module without Access-Control-Allow-Origin: the page's origin is not allowed, so its browser refuses the import", [
                        "origin": "\(origin)", "allowed": "\(web.origins.map(\.text))",
                        "reason": "\(BridgeCheck.originRefusal(origin, web: web))"])
            }
        }
        if ServedFile.matches(ifNoneMatch: head.headers.first(name: "If-None-Match"), etag: representation.etag) {
            // RFC 9110 §15.4.5: the headers a 200 would have had, no body.
            headers.remove(name: "Content-Type")
            respond(context, status: .notModified, headers: headers, body: nil, contentLength: nil)
            return
        }
        respond(context, status: .ok, headers: headers, body: head.method == .HEAD ? nil : representation.body,
                contentLength: representation.body.readableBytes)
    }

    /// The preflight: tries the daemon's socket (connect, then close), then answers.
    private func check(_ context: ChannelHandlerContext, head: HTTPRequestHead, origin: String?) {
        let web = self.web, socketPath = self.socketPath, refusals = content.refusals
        let bound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        ClientBootstrap(group: context.eventLoop)
            .connectTimeout(.milliseconds(Self.daemonProbeMilliseconds))
            .connect(unixDomainSocketPath: socketPath)
            .assumeIsolated()
            .whenComplete { result in
                let daemonError: String?
                switch result {
                case .success(let probe):
                    probe.close(promise: nil)
                    daemonError = nil
                case .failure(let error):
                    daemonError = BridgeCheck.describeConnectError(error)
                }
                let answer = BridgeCheck(origin: origin, uri: head.uri, web: web, socketPath: socketPath, daemonError: daemonError)
                if let reason = answer.reason {
                    refusals.refused("a page's preflight found why it cannot use the bridge", [
                        "origin": "\(origin ?? "none")", "reason": "\(reason)"])
                }
                let (handler, context) = bound.value
                guard context.channel.isActive else { return }
                let body = context.channel.allocator.buffer(bytes: answer.json)
                let headers = HTTPHeaders([("Content-Type", "application/json"), ("Cache-Control", "no-store"),
                                           ("Access-Control-Allow-Origin", "*")])
                handler.respond(context, status: .ok, headers: headers, body: head.method == .HEAD ? nil : body,
                                contentLength: body.readableBytes)
            }
    }

    private func text(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ message: String,
                      extra: [(String, String)] = []) {
        let body = context.channel.allocator.buffer(string: message)
        var headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")])
        for (name, value) in extra { headers.add(name: name, value: value) }
        respond(context, status: status, headers: headers, body: body, contentLength: body.readableBytes)
    }

    /// `contentLength` is the length of what a GET gets (a HEAD gets no body, the same length).
    private func respond(_ context: ChannelHandlerContext, status: HTTPResponseStatus, headers: HTTPHeaders,
                         body: ByteBuffer?, contentLength: Int?) {
        var headers = headers
        if let contentLength { headers.add(name: "Content-Length", value: String(contentLength)) }
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Server", value: content.serverName)
        context.write(Self.wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                      promise: nil)
        if let body { context.write(Self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        let channel = context.channel
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
