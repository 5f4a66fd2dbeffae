#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GestureSystem
import SystemPackage

/// The full-screen page `gestured calibrate --page PORT` serves on 127.0.0.1: `GET /` is the
/// page, which draws the current target as a cross where it is on the screen; `GET /target`
/// is the current state as JSON, which the page asks for five times a second. Served on the
/// calibration's own event loop, one request per connection (`Connection: close`), so no
/// WebSocket, no bridge and no daemon are needed while the panel is being calibrated
/// (docs/decisions.md, "gestured calibrate: its own page").
final class CalibratePage {
    /// What the page shows.
    enum State: Hashable {
        case waiting
        /// Target `index` (0-based) of `count`, in normalised screen coordinates.
        case target(index: Int, count: Int, point: NormalizedPoint)
        case finished(matrix: [Double], rmsPixels: Double)
        case stopped(reason: String)
    }

    // MARK: Limits (docs/limits.md, "gestured calibrate")

    /// Ports `--page` may name: the unprivileged ones.
    static let ports: ClosedRange<Int> = 1024...65535
    /// Connections open at once; the oldest is closed for a new one beyond it (a kiosk
    /// browser polls with one or two).
    static let maximumConnections = 16
    /// The longest request head read; a longer one is answered 431 and closed.
    static let maximumRequestBytes = 8192

    private let loop: EventLoop
    private let listener: FileDescriptor
    private var listenerToken: EventLoop.Token?
    let port: UInt16
    private(set) var state: State = .waiting
    /// Open connections in the order they were accepted, with what each has sent.
    private var connections: [(token: EventLoop.Token, descriptor: FileDescriptor, request: [UInt8])] = []
    private var buffer = [UInt8](repeating: 0, count: 4096)

    /// Listens on 127.0.0.1:`port` (0: a free port) and serves on `loop`.
    init(port: Int, loop: EventLoop) throws(SystemError) {
        self.loop = loop
        listener = try LoopbackSocket.listen(port: UInt16(port), backlog: Int32(Self.maximumConnections))
        do {
            self.port = try LoopbackSocket.port(of: listener)
            listenerToken = try loop.watch(listener) { [unowned self] _ in self.accept() }
        } catch {
            listener.closeReleasing()
            throw error
        }
    }

    deinit {
        for connection in connections {
            loop.unwatch(connection.token)
            connection.descriptor.closeReleasing()
        }
        if let listenerToken { loop.unwatch(listenerToken) }
        listener.closeReleasing()
    }

    func show(_ state: State) { self.state = state }

    private func accept() {
        while let connection = try? listener.acceptConnection(subject: "calibrate page") {
            if connections.count >= Self.maximumConnections { close(0) }
            guard let token = try? loop.watch(connection, handler: { [unowned self] _ in self.read(connection) }) else {
                connection.closeReleasing()
                continue
            }
            connections.append((token, connection, []))
        }
    }

    private func read(_ descriptor: FileDescriptor) {
        guard let index = connections.firstIndex(where: { $0.descriptor == descriptor }) else { return }
        let count: Int?
        do {
            count = try descriptor.readAvailable(into: &buffer, subject: "calibrate page")
        } catch {
            close(index)
            return
        }
        guard let count else { return }
        guard count > 0 else {
            close(index)
            return
        }
        connections[index].request.append(contentsOf: buffer[0..<count])
        let request = connections[index].request
        if let end = Self.headEnd(request) {
            respond(descriptor, to: Array(request[..<end]))
            close(index)
        } else if request.count > Self.maximumRequestBytes {
            respond(descriptor, status: "431 Request Header Fields Too Large", type: "text/plain; charset=utf-8",
                    body: "the request is longer than \(Self.maximumRequestBytes) bytes\n")
            close(index)
        }
    }

    /// Where the request head ends (after its blank line), or nil while it is incomplete.
    static func headEnd(_ bytes: [UInt8]) -> Int? {
        guard bytes.count >= 2 else { return nil }
        // A blank line: LF LF, or CR LF after a line's LF (CRLF CRLF, as browsers send).
        for index in 1..<bytes.count where bytes[index] == 10 {
            if bytes[index - 1] == 10 || (index >= 2 && bytes[index - 1] == 13 && bytes[index - 2] == 10) { return index + 1 }
        }
        return nil
    }

    private func respond(_ descriptor: FileDescriptor, to head: [UInt8]) {
        let line = head.prefix { $0 != 13 && $0 != 10 }
        let words = line.split(separator: 32)
        guard words.count == 3, words[2].starts(with: Array("HTTP/1.".utf8)) else {
            respond(descriptor, status: "400 Bad Request", type: "text/plain; charset=utf-8",
                    body: "expected a request line: METHOD PATH HTTP/1.1\n")
            return
        }
        guard Array(words[0]) == Array("GET".utf8) || Array(words[0]) == Array("HEAD".utf8) else {
            respond(descriptor, status: "405 Method Not Allowed", type: "text/plain; charset=utf-8",
                    body: "only GET / and GET /target are served\n", extra: "Allow: GET, HEAD\r\n")
            return
        }
        let head = Array(words[0]) == Array("HEAD".utf8)
        switch String(decoding: words[1], as: UTF8.self) {
        case "/", "/index.html":
            respond(descriptor, status: "200 OK", type: "text/html; charset=utf-8", body: Self.html, headOnly: head)
        case "/target":
            respond(descriptor, status: "200 OK", type: "application/json", body: Self.json(state), headOnly: head)
        default:
            respond(descriptor, status: "404 Not Found", type: "text/plain; charset=utf-8",
                    body: "only GET / and GET /target are served\n", headOnly: head)
        }
    }

    /// One response, written at once: the bodies are a few kilobytes, far below a socket's
    /// buffer; a peer that cannot take it is closed without waiting.
    private func respond(_ descriptor: FileDescriptor, status: String, type: String, body: String, extra: String = "",
                         headOnly: Bool = false) {
        let bytes = Array(body.utf8)
        let text = "HTTP/1.1 \(status)\r\nContent-Type: \(type)\r\nContent-Length: \(bytes.count)\r\n"
            + "Cache-Control: no-store\r\nConnection: close\r\n\(extra)\r\n"
        _ = try? descriptor.sendNonBlocking(Array(text.utf8) + (headOnly ? [] : bytes))
    }

    private func close(_ index: Int) {
        let connection = connections.remove(at: index)
        loop.unwatch(connection.token)
        connection.descriptor.closeReleasing()
    }

    /// The state as the page reads it.
    static func json(_ state: State) -> String {
        switch state {
        case .waiting:
            return #"{"state":"waiting"}"#
        case .target(let index, let count, let point):
            return #"{"state":"target","index":\#(index),"count":\#(count),"u":\#(point.u),"v":\#(point.v)}"#
        case .finished(let matrix, let rms):
            return #"{"state":"finished","matrix":[\#(matrix.map { String($0) }.joined(separator: ","))],"rmsPixels":\#(rms)}"#
        case .stopped(let reason):
            var escaped = ""
            for scalar in reason.unicodeScalars {
                switch scalar {
                case "\"": escaped += "\\\""
                case "\\": escaped += "\\\\"
                case _ where scalar.value < 0x20: escaped += "\\u" + String(repeating: "0", count: 4 - String(scalar.value, radix: 16).count)
                    + String(scalar.value, radix: 16)
                default: escaped.unicodeScalars.append(scalar)
                }
            }
            return #"{"state":"stopped","reason":"\#(escaped)"}"#
        }
    }

    /// The page: black, full screen, a cross at the current target (its position as a
    /// fraction of the viewport: the kiosk browser shows it full screen), the step and what to
    /// do in words; the matrix and the RMS once done.
    static let html = """
        <!DOCTYPE html>
        <html lang="en"><head><meta charset="utf-8"><title>gestured calibrate</title>
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <style>
        html, body { margin: 0; height: 100%; overflow: hidden; background: #000; color: #eee; font: 24px sans-serif;
          touch-action: none; user-select: none; cursor: none; }
        #cross { position: fixed; width: 60px; height: 60px; margin: -30px 0 0 -30px; display: none; }
        #cross::before, #cross::after { content: ""; position: fixed; background: #fff; }
        #cross::before { width: 60px; height: 2px; margin-top: 29px; }
        #cross::after { width: 2px; height: 60px; margin-left: 29px; }
        #ring { position: absolute; inset: 18px; border: 2px solid #f44; border-radius: 50%; }
        #say { position: fixed; left: 0; right: 0; top: 45%; text-align: center; }
        </style></head>
        <body><div id="cross"><div id="ring"></div></div><div id="say">Waiting for gestured calibrate…</div>
        <script>
        const cross = document.getElementById("cross"), say = document.getElementById("say");
        async function poll() {
          try {
            const state = await (await fetch("/target", { cache: "no-store" })).json();
            if (state.state === "target") {
              cross.style.left = (state.u * innerWidth) + "px";
              cross.style.top = (state.v * innerHeight) + "px";
              cross.style.display = "block";
              say.textContent = "Touch the centre of the cross (" + (state.index + 1) + " of " + state.count + ")";
            } else if (state.state === "finished") {
              cross.style.display = "none";
              say.textContent = "Calibrated: " + state.matrix.join(" ") + " (RMS " + state.rmsPixels.toFixed(2) + " px)";
            } else if (state.state === "stopped") {
              cross.style.display = "none";
              say.textContent = "Stopped: " + state.reason;
            }
          } catch (error) {
            say.textContent = "gestured calibrate is not running";
          }
          setTimeout(poll, 200);
        }
        poll();
        </script></body></html>

        """
}
