#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureConfig
import GestureCore
@testable import GestureServer
import GestureSystem
import Logging
import SystemPackage
import Testing

/// An ``EventServer`` on a real ``EventLoop`` and real Unix sockets, with a ``ManualClock``:
/// the test advances time by hand, and drives the loop with ``EventLoop/runReady()``, which
/// never waits. Clients are real non-blocking sockets; everything they send is readable by
/// the server at once and the other way round (the kernel completes Unix socket transfers
/// synchronously), so ``settle()`` runs the loop until nothing is ready, without sleeping.
final class ServerHarness {
    let directory: String
    let loop: EventLoop
    let clock = ManualClock(now: 1_000_000)
    let owner: TestOwner
    let server: EventServer
    private(set) var clients: [TestSocketClient] = []

    init(options: (inout EventServer.Options) -> Void = { _ in }) throws {
        var template = Array("/tmp/gestured-server-XXXXXX".utf8CString)
        directory = template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
        loop = try EventLoop()
        var serverOptions = EventServer.Options(version: "test")
        options(&serverOptions)
        let listener = try ListeningSocket.bind(path: directory + "/server.sock")
        server = EventServer(loop: loop, clock: clock, listener: listener, policy: ControlPolicy(socket: SocketConfig()),
                             options: serverOptions, logger: Logger(label: "test") { _ in SwiftLogNoOpLogHandler() })
        owner = TestOwner()
        server.owner = owner
        try server.start()
    }

    deinit {
        try? FileManager.default.removeItem(atPath: directory)
    }

    /// Runs the loop until nothing is ready and no long line is being read on the worker
    /// thread (waiting for those), then lets every client read what it was sent. Bounded:
    /// 10,000 turns is far more than any test's traffic.
    func settle() throws {
        for _ in 0..<10_000 {
            if try loop.runReady() > 0 { continue }
            guard server.linesBeingParsed > 0 else { break }
            try loop.runReady(waitingAtMost: 10_000)
        }
        for client in clients { try client.receive() }
    }

    /// A connected client that read its `hello`.
    func connect() throws -> TestSocketClient {
        let client = try TestSocketClient(path: server.socketPath)
        clients.append(client)
        try settle()
        #expect(client.take().map(\.type) == ["hello"])
        return client
    }

    /// A client that subscribed with `filters` and read the reply.
    func subscriber(_ filters: String = "") throws -> TestSocketClient {
        let client = try connect()
        try client.send(#"{"type":"subscribe","id":"sub""# + (filters.isEmpty ? "" : "," + filters) + "}")
        try settle()
        #expect(client.take().map(\.type) == ["reply"])
        return client
    }

    /// Publishes `events` as the owner would: encoded once, then the warnings for the clients
    /// dropped on the way.
    func publish(_ events: [OutputEvent]) {
        var notices = owner.callingServer { server.publish(owner.encode(events)) }
        while !notices.isEmpty {
            let warnings = owner.announce(notices)
            notices = owner.callingServer { server.publish(warnings) }
        }
    }
}

/// The owner of the engine, as the server sees it: a layout, a counter of revisions, and an
/// encoder for the stream. It records what the server asked, and fails the test if the server
/// calls it back while the owner is calling the server (``callingServer(_:)``).
final class TestOwner: EventServerOwner {
    var encoder = EventEncoder()
    private var insideServerCall = false
    var currentLayout = ViewSpec(id: "screen", frame: Rect(x: 0, y: 0, width: 100, height: 100),
                                 subviews: [ViewSpec(id: "button", frame: Rect(x: 0, y: 0, width: 50, height: 50))])
    /// One screen, as a daemon of one: the server's requests name none.
    var screenIDs = ["main"]
    func currentLayout(screen: Int) -> ViewSpec { currentLayout }
    func layoutBasis(screen: Int) -> PreparedLayout.Basis { layoutBasis }
    func layoutRevision(screen: Int) -> Int { revision }
    private(set) var revision = 1
    private(set) var calls: [String] = []
    private(set) var changes: [ServerChange] = []

    /// Runs a call into the server; any call back from the server meanwhile is a test failure.
    func callingServer<T>(_ body: () -> T) -> T {
        insideServerCall = true
        defer { insideServerCall = false }
        return body()
    }

    private func record(_ call: String) {
        #expect(!insideServerCall, "the server called \(call) while the owner was calling it")
        calls.append(call)
    }

    func encode(_ events: [OutputEvent]) -> EncodedEvents {
        var encoded = EncodedEvents()
        for event in events { encoded.append(event, encoder: &encoder) }
        return encoded
    }

    /// What the engine would make a layout's recognizers with (a test changes it as
    /// `screen.set` would).
    var layoutBasis = PreparedLayout.Basis(settings: GestureSettings(), screen: Rect(x: 0, y: 0, width: 1920, height: 1080))
    /// For each replacement, the basis of the layout prepared off the loop (`nil`: none).
    private(set) var preparedBases: [PreparedLayout.Basis?] = []
    /// Reloads prepared off the loop (``reloadWork()``), and the revision each applied one was made for.
    private(set) var reloadWorks = 0
    private(set) var reloadedRevisions: [Int?] = []

    func replaceLayout(screen: Int, _ layout: ViewSpec, prepared: PreparedLayout?, reason: String) -> LayoutReplacement {
        record("replaceLayout \(layout.id)")
        preparedBases.append(prepared?.basis)
        currentLayout = layout
        revision += 1
        return LayoutReplacement(revision: revision, events: encode([.layout(time: .zero, revision: revision, hash: LayoutHash(of: layout), message: reason)]))
    }

    /// Whether `screen.set` makes the layout again off the loop (``screenWork(rotation:width:height:)``):
    /// off unless a test sets it, as the settings of most screens are in points.
    var screenChangesRecognizers = false

    func screenWork(screen: Int, rotation: ScreenRotation, width: Double?, height: Double?) -> (@Sendable () -> PreparedLayout)? {
        guard screenChangesRecognizers else { return nil }
        var wanted = layoutBasis
        wanted.screen = Rect(x: 0, y: 0, width: width ?? 1920, height: height ?? 1080)
        let layout = currentLayout, basis = wanted
        return { PreparedLayout(tree: ViewTree(validated: layout), basis: basis) }
    }

    func setScreen(screen: Int, rotation: ScreenRotation, width: Double?, height: Double?, reason: String,
                   prepared: PreparedLayout?) -> ScreenReplacement {
        record("setScreen \(rotation.degrees) \(width.map { String(Int($0)) } ?? "-") \(height.map { String(Int($0)) } ?? "-")")
        preparedBases.append(prepared?.basis)
        let screen = ScreenGeometry(width: width ?? 1920, height: height ?? 1080, rotation: rotation)
        return ScreenReplacement(screen: screen, events: encode([.screen(time: .zero, screen: screen, message: reason)]))
    }


    func reloadWork() -> @Sendable () -> ReloadPreparation {
        reloadWorks += 1
        let revision = revision, basis = layoutBasis
        return { ReloadPreparation(revisions: [revision], bases: [basis], configuration: .failure(ConfigurationError(file: "test", problems: [])),
                                   layouts: [nil]) }
    }

    /// Whether a reload reports the layout changed (the file's layout differs from the one in force).
    var reloadChangesLayout = false

    func reload(origin: String, prepared: ReloadPreparation?) -> ReloadOutcome {
        record("reload")
        reloadedRevisions.append(prepared?.revisions.first)
        return ReloadOutcome(result: .success(ReloadReport(revision: revision, layoutChanged: reloadChangesLayout,
                                                           socket: SocketConfig())))
    }

    func hitTest(screen: Int, _ point: Point) -> HitTestEvent {
        record("hitTest \(Int(point.x)) \(Int(point.y))")
        return Engine(tree: ViewTree(validated: currentLayout)).hitTest(point)
    }

    func inputStatus() -> InputStatus {
        InputStatus(source: "test", device: nil, path: nil, layoutRevision: revision, activeTouches: 0, frames: 0, time: 0,
                    screen: ScreenGeometry(size: Size(width: 1920, height: 1080)))
    }

    func announce(_ notices: [ServerNotice]) -> EncodedEvents {
        record("announce \(notices.count)")
        return encode(notices.map { .warning(time: .zero, message: $0.message) })
    }

    /// May come at any time, also while the owner calls the server (a client dropped as it
    /// publishes): it only records.
    func serverChanged(_ change: ServerChange) {
        changes.append(change)
    }
}

/// One line a client received.
struct ReceivedLine {
    let text: String
    let object: [String: Any]
    var type: String { object["type"] as? String ?? "?" }
}

/// A client of the server's socket: non-blocking, read only when the harness says.
final class TestSocketClient {
    let socket: FileDescriptor
    private(set) var lines: [ReceivedLine] = []
    private(set) var reachedEnd = false
    private var partial: [UInt8] = []

    init(path: String) throws {
        socket = try UnixSocket.open(.stream)
        try socket.connect(to: UnixSocketAddress(path))
        try socket.makeNonBlockingAndCloseOnExec()
    }

    deinit { socket.closeReleasing() }

    /// Sends `text` and a newline; the socket buffer must take it at once.
    func send(_ text: String) throws {
        let bytes = Array((text + "\n").utf8)
        #expect(try socket.sendNonBlocking(bytes) == bytes.count)
    }

    /// Reads what is there now.
    func receive() throws {
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        while !reachedEnd, let count = try readSome(into: &chunk) {
            if count == 0 { reachedEnd = true } else { partial += chunk[0..<count] }
        }
        while let newline = partial.firstIndex(of: 0x0A) {
            let text = String(decoding: partial[..<newline], as: UTF8.self)
            partial.removeSubrange(...newline)
            let object = try JSONSerialization.jsonObject(with: Data(text.utf8)) as? [String: Any] ?? [:]
            lines.append(ReceivedLine(text: text, object: object))
        }
    }

    /// What one read got: `nil` for nothing now, 0 at the end (a reset connection included:
    /// the server closed it with bytes unread).
    private func readSome(into chunk: inout [UInt8]) throws -> Int? {
        do {
            return try socket.readAvailable(into: &chunk)
        } catch {
            if error.errno == .connectionReset { return 0 }
            throw error
        }
    }

    /// The lines received so far, taken.
    func take() -> [ReceivedLine] {
        defer { lines.removeAll() }
        return lines
    }
}
