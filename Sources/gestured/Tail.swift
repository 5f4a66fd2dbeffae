#if canImport(Glibc)
import Glibc
#endif
import ArgumentParser
import GestureConfig
import GestureCore
import GestureServer

/// `gestured tail`: subscribes to a running gestured and prints the events as JSON Lines, for
/// people watching what a kiosk does and for scripts (SPEC 11).
struct Tail: ParsableCommand {
    static let configuration = CommandConfiguration(
        abstract: "Subscribe to a running gestured and print its events as JSON Lines.",
        discussion: """
            Prints each event on its own line on stdout, as the socket sends it. Filters take \
            comma-separated lists and may be repeated; views and recognizers take * and ? \
            globs. Exits 0 when gestured says goodbye (it stops, or a replay ends) or after \
            --count events, and 1 when the connection fails or gestured refuses the subscription.
            """)

    @Option(help: ArgumentHelp("The socket of the daemon.", valueName: "path"))
    var socket = SocketConfig.defaultPath

    @Option(help: ArgumentHelp("Event types: touches, gesture, control, hitTest, device, layout, warning.",
                               valueName: "kinds"))
    var kinds: [String] = []

    @Option(help: ArgumentHelp("View ids or globs; an event matches if its view or any responder does.",
                               valueName: "views"))
    var views: [String] = []

    @Option(help: ArgumentHelp("Recognizer ids or globs (for gesture events).", valueName: "recognizers"))
    var recognizers: [String] = []

    @Flag(help: "Also receive hit-test traces and failed gesture transitions.")
    var trace = false

    // Unconditional: "-1" is a (wrong) value to explain, not a missing one.
    @Option(parsing: .unconditional, help: "Exit after this many events.")
    var count: Int?

    func validate() throws {
        if let count, count < 1 { throw ValidationError("--count is \(count); use a number of events of 1 or more") }
        try validateSocketPath(socket)
    }

    func run() throws {
        signal(SIGPIPE, SIG_IGN)
        let fd = try connect()
        defer { close(fd) }
        writeAll(Array(subscribeRequest.utf8), to: fd)
        var reader = LineReader(fd: fd)
        var received = 0
        while let line = reader.next() {
            if line.starts(with: Array(#"{"type":"hello""#.utf8)) || line.starts(with: Array(#"{"type":"reply""#.utf8)) {
                continue
            }
            if line.starts(with: Array(#"{"type":"error""#.utf8)) {
                throw failure(Self.refusal(line))
            }
            if line.starts(with: Array(#"{"type":"bye""#.utf8)) {
                return
            }
            writeAll(line + [0x0A], to: 1)
            received += 1
            if let count, received >= count { return }
        }
        throw failure("\(socket): gestured closed the connection without saying goodbye")
    }

    /// "gestured refused the subscription (CODE): MESSAGE" from an error line.
    static func refusal(_ line: [UInt8]) -> String {
        guard case .object(let reply)? = try? JSONParser.parse(bytes: line, dialect: .json).value,
              case .object(let error)? = reply["error"],
              case .string(let code)? = error["code"], case .string(let message)? = error["message"] else {
            return "gestured refused: " + String(decoding: line, as: UTF8.self)
        }
        return "gestured refused (\(code)): \(message)"
    }

    /// The subscribe request, one line of JSON.
    var subscribeRequest: String {
        var writer = JSONWriter()
        writer.beginObject()
        writer.key("type"); writer.string("subscribe")
        writer.key("id"); writer.int(1)
        func list(_ key: StaticString, _ values: [String]) {
            let items = values.flatMap { $0.split(separator: ",").map(String.init) }.filter { !$0.isEmpty }
            guard !items.isEmpty else { return }
            writer.key(key)
            writer.beginArray()
            for item in items { writer.string(item) }
            writer.endArray()
        }
        list("kinds", kinds)
        list("views", views)
        list("recognizers", recognizers)
        if trace { writer.key("trace"); writer.bool(true) }
        writer.endObject()
        writer.newline()
        return String(decoding: writer.bytes, as: UTF8.self)
    }

    private func connect() throws -> Int32 {
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(socket) } catch { throw failure("\(socket): the path is too long for a socket") }
        let fd = Glibc.socket(AF_UNIX, Int32(SOCK_STREAM.rawValue | SOCK_CLOEXEC.rawValue), 0)
        guard fd >= 0 else { throw failure("socket: \(String(cString: strerror(errno)))") }
        if address.withSockaddr({ Glibc.connect(fd, $0, $1) }) != 0 {
            let error = errno
            close(fd)
            let advice = switch error {
            case ENOENT, ECONNREFUSED: "is gestured running? (systemctl status gestured) Give its socket with --socket"
            case EACCES: "join the socket's group (socket.group in the configuration), or run as root"
            default: "check the path"
            }
            throw failure("\(socket): cannot connect (\(String(cString: strerror(error)))); \(advice)")
        }
        return fd
    }
}

/// Reads lines from a blocking socket.
struct LineReader {
    let fd: Int32
    private var buffer: [UInt8] = []
    private var chunk = [UInt8](repeating: 0, count: 1 << 16)

    init(fd: Int32) { self.fd = fd }

    /// The next line without its newline; `nil` at the end of the stream.
    mutating func next() -> [UInt8]? {
        while true {
            if let newline = buffer.firstIndex(of: 0x0A) {
                let line = Array(buffer[..<newline])
                buffer.removeSubrange(...newline)
                return line
            }
            let count = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if count < 0 && errno == EINTR { continue }
            guard count > 0 else { return nil }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }
}
