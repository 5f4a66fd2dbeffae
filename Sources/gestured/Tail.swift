#if canImport(Glibc)
import Glibc
#endif
import CommandLineParsing
import GestureConfig
import GestureCore
import GestureServer
import GestureSystem
import SystemPackage

/// `gestured tail`: subscribes to a running gestured and prints the events as JSON Lines, for
/// people watching what a kiosk does and for scripts (docs/command-line.md, "gestured tail").
struct Tail: ParsableCommand {
    static let configuration = CommandConfiguration(
        name: "tail",
        abstract: "Subscribe to a running gestured and print its events as JSON Lines.",
        discussion: """
            Prints each event on its own line on stdout, as the socket sends it. Filters take \
            comma-separated lists and may be repeated; views and recognizers take * and ? \
            globs. Exits 0 when gestured says goodbye (it stops, or a replay ends) or after \
            --count events, and 1 when the connection fails or gestured refuses the subscription.
            """)

    static var arguments: [Argument<Self>] {
        [.option("socket", \.socket, valueName: "path", help: "The socket of the daemon."),
         .option("kinds", \.kinds, help: "Event types: \(Subscription.knownKinds.joined(separator: ", "))."),
         .option("views", \.views, help: "View ids or globs; an event matches if its view or any responder does."),
         .option("recognizers", \.recognizers, help: "Recognizer ids or globs (for gesture events)."),
         .option("screen", \.screens, valueName: "id",
                 help: "With several screens: only the events of these screens (ids, repeated or comma-separated)."),
         .flag("trace", \.trace, help: "Also receive hit-test traces and failed gesture transitions."),
         // Unconditional: "-1" is a (wrong) value to explain, not a missing one.
         .option("count", \.count, parsing: .unconditional, help: "Exit after this many events.")]
    }

    var socket = SocketConfig.defaultPath
    var kinds: [String] = []
    var views: [String] = []
    var recognizers: [String] = []
    var screens: [String] = []
    var trace = false
    var count: Int?

    func validate() throws(ValidationError) {
        for id in screens.flatMap({ $0.split(separator: ",") }) {
            if let problem = ConfigurationLimits.screenIDProblem(String(id)) { throw ValidationError("--screen: \(problem)") }
        }
        if let count, count < 1 { throw ValidationError("--count is \(count); use a number of events of 1 or more") }
        try validateSocketPath(socket)
    }

    func run() throws {
        try Signals.ignoreBrokenPipe()
        let connection = try connect()
        defer { connection.closeReleasing() }
        do {
            try connection.writeAll(Array(subscribeRequest.utf8), subject: socket)
        } catch {
            throw failure("\(socket): cannot send the subscription: \(error)")
        }
        var reader = SocketLineReader()
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var printed: [UInt8] = []
        let output = OutputWriter.standardOutput()
        var received = 0
        while let line = try nextLine(&reader, connection: connection, chunk: &chunk) {
            if line.starts(with: #"{"type":"hello""#.utf8) || line.starts(with: #"{"type":"reply""#.utf8) {
                continue
            }
            if line.starts(with: #"{"type":"error""#.utf8) {
                throw failure(Self.refusal(Array(line)))
            }
            if line.starts(with: #"{"type":"bye""#.utf8) {
                return
            }
            if !screenMembers.isEmpty && !Self.line(line, isOnOneOf: screenMembers) { continue }
            printed.removeAll(keepingCapacity: true)
            printed.append(contentsOf: line)
            printed.append(0x0A)
            output.write(printed)
            try output.checkWritten()
            received += 1
            if let count, received >= count { return }
        }
        throw failure("\(socket): gestured closed the connection without saying goodbye")
    }

    /// `--screen`'s ids as the members a line of theirs carries: `"screen":"ID"`.
    var screenMembers: [[UInt8]] {
        screens.flatMap { $0.split(separator: ",") }.map { Array(#""screen":""#.utf8) + Array($0.utf8) + [0x22] }
    }

    /// Whether `line` carries one of `members` (``screenMembers``). Exact: outside a string the
    /// member's quotes are the JSON's own, and inside one every quote is escaped, so no event's
    /// text can look like it; a screen id has no quote or backslash (docs/limits.md).
    static func line(_ line: ArraySlice<UInt8>, isOnOneOf members: [[UInt8]]) -> Bool {
        members.contains { member in
            guard line.count >= member.count, let first = member.first else { return false }
            var index = line.startIndex
            let last = line.endIndex - member.count
            while index <= last {
                if line[index] == first && line[index..<index + member.count].elementsEqual(member) { return true }
                index += 1
            }
            return false
        }
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

    private func connect() throws -> FileDescriptor {
        let address: UnixSocketAddress
        do { address = try UnixSocketAddress(socket) } catch { throw failure("gestured: \(error)") }
        let connection: FileDescriptor
        do { connection = try UnixSocket.open(.stream) } catch { throw failure("gestured: \(error)") }
        do {
            try connection.connect(to: address)
        } catch {
            connection.closeReleasing()
            let advice = switch error.errno {
            case .noSuchFileOrDirectory, .connectionRefused: "is gestured running? (systemctl status gestured) Give its socket with --socket"
            case .permissionDenied: "join the socket's group (socket.group in the configuration), or run as root"
            default: "check the path"
            }
            throw failure("\(socket): cannot connect (\(error.reason)); \(advice)")
        }
        return connection
    }

    private func nextLine(_ reader: inout SocketLineReader, connection: FileDescriptor,
                          chunk: inout [UInt8]) throws -> ArraySlice<UInt8>? {
        do {
            return try reader.nextLine(from: connection, chunk: &chunk)
        } catch .lineTooLong(let limit) {
            throw failure("\(socket): received a line longer than \(limit) bytes, more than gestured ever sends (a "
                + "client's queue limit); is this the socket of gestured?")
        } catch .read(let error) {
            throw failure("\(socket): the connection failed: \(error)")
        }
    }
}
