import GestureConfig
import NIOCore
import NIOHTTP1

/// The plain HTTP side of the bridge (SPEC 13): `GET /gestured.js` serves the client module
/// with `Access-Control-Allow-Origin` for allowed origins, so their pages can import it; a
/// request for `/socket` that reaches this handler was not upgraded and is answered with why
/// (403 for an origin that is not allowed, 426 for a request that is no WebSocket handshake);
/// anything else is 404 or 405. Every response closes the connection.
final class HTTPRequestHandler: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = HTTPServerRequestPart
    typealias OutboundOut = HTTPServerResponsePart

    static let name = "gestured-web-http"

    private let web: WebConfig
    private let module: ByteBuffer
    private let serverName: String
    private let timeoutSeconds: Int64
    private var timeout: Scheduled<Void>?
    private var responding = false

    init(web: WebConfig, module: ByteBuffer, serverName: String, timeoutSeconds: Int64) {
        self.web = web
        self.module = module
        self.serverName = serverName
        self.timeoutSeconds = timeoutSeconds
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
            var headers = HTTPHeaders([("Content-Type", "text/javascript; charset=utf-8"), ("Cache-Control", "no-cache"),
                                       ("X-Content-Type-Options", "nosniff"), ("Vary", "Origin")])
            if let origin, web.allows(origin: origin) { headers.add(name: "Access-Control-Allow-Origin", value: origin) }
            respond(context, status: .ok, headers: headers, body: head.method == .HEAD ? nil : module,
                    contentLength: module.readableBytes)
        case (.GET, "/socket"):
            if !web.allows(origin: origin) {
                text(context, .forbidden, "the page's origin \(origin ?? "") may not use this bridge; add it to web.origins "
                    + "in gestured's configuration\n")
            } else {
                text(context, .upgradeRequired, "/socket is a WebSocket: connect with new WebSocket(\"ws://…/socket\")\n",
                     extra: [("Upgrade", "websocket")])
            }
        case (_, "/gestured.js"), (_, "/socket"):
            text(context, .methodNotAllowed, "only GET\n", extra: [("Allow", "GET")])
        default:
            text(context, .notFound, "gestured-web serves /gestured.js and /socket\n")
        }
    }

    /// A request NIO's parser refused: HTTPServerProtocolErrorHandler has answered 400; close.
    /// (A declined WebSocket upgrade also passes an error this way, and is answered above.)
    func errorCaught(context: ChannelHandlerContext, error: Error) {
        if error is HTTPParserError { context.close(promise: nil) }
    }

    private func text(_ context: ChannelHandlerContext, _ status: HTTPResponseStatus, _ message: String,
                      extra: [(String, String)] = []) {
        let body = context.channel.allocator.buffer(string: message)
        var headers = HTTPHeaders([("Content-Type", "text/plain; charset=utf-8")])
        for (name, value) in extra { headers.add(name: name, value: value) }
        respond(context, status: status, headers: headers, body: body, contentLength: body.readableBytes)
    }

    private func respond(_ context: ChannelHandlerContext, status: HTTPResponseStatus, headers: HTTPHeaders,
                         body: ByteBuffer?, contentLength: Int) {
        var headers = headers
        headers.add(name: "Content-Length", value: String(contentLength))
        headers.add(name: "Connection", value: "close")
        headers.add(name: "Server", value: serverName)
        context.write(Self.wrapOutboundOut(.head(HTTPResponseHead(version: .http1_1, status: status, headers: headers))),
                      promise: nil)
        if let body { context.write(Self.wrapOutboundOut(.body(.byteBuffer(body))), promise: nil) }
        let channel = context.channel
        context.writeAndFlush(Self.wrapOutboundOut(.end(nil))).whenComplete { _ in channel.close(promise: nil) }
    }
}
