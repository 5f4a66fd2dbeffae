#if canImport(Glibc)
import Glibc
#endif
import GestureCore
@testable import GestureServer
import GestureSystem
import SystemPackage
import Testing

/// The socket server on a manual clock (``ServerHarness``): real sockets, the loop driven
/// without waiting, time advanced by hand. No test sleeps or has a wall-clock limit.
@Suite("Event server")
struct EventServerTests {
    static func warning(_ text: String) -> OutputEvent { .warning(time: Timestamp(microseconds: 7), message: text) }

    @Test func eventsAreFilteredPerSubscriberAndKeepTheOwnersSequence() throws {
        let harness = try ServerHarness()
        let idle = try harness.connect()
        let all = try harness.subscriber()
        let layouts = try harness.subscriber(#""kinds":["layout"]"#)
        harness.publish([Self.warning("one"), .layout(time: .zero, revision: 2, hash: LayoutHash(value: 0x2a), message: "two"), Self.warning("three")])
        try harness.settle()
        #expect(all.take().map(\.text) == [
            #"{"type":"warning","seq":1,"time":7,"message":"one"}"#,
            #"{"type":"layout","seq":2,"time":0,"revision":2,"hash":"000000000000002a","message":"two"}"#,
            #"{"type":"warning","seq":3,"time":7,"message":"three"}"#,
        ])
        #expect(layouts.take().map { $0.object["seq"] as? Int } == [2])
        #expect(idle.take().isEmpty)
        #expect(harness.server.counters.eventsPublished == 3)
    }

    /// One screen: `screen` may be left out or name it; another id is `unknown_screen` naming
    /// the one there is, and reaches no owner.
    @Test func withOneScreenTheScreenMayBeLeftOutOrNamed() throws {
        let harness = try ServerHarness()
        let client = try harness.subscriber()
        try client.send(#"{"type":"hitTest","id":1,"x":10,"y":10}"#)
        try client.send(#"{"type":"hitTest","id":2,"x":10,"y":10,"screen":"main"}"#)
        try client.send(#"{"type":"hitTest","id":3,"x":10,"y":10,"screen":"clerk"}"#)
        try client.send(#"{"type":"layout.set","id":4,"screen":"clerk","layout":{"id":"wall","frame":[0,0,100,100]}}"#)
        try harness.settle()
        let answers = client.take()
        #expect(answers.map(\.type) == ["reply", "reply", "error", "error"])
        for answer in answers[2...] {
            let error = answer.object["error"] as? [String: Any]
            #expect(error?["code"] as? String == "unknown_screen")
            #expect(error?["message"] as? String == #"gestured has no screen "clerk"; its screens are "main""#)
        }
        #expect(harness.owner.calls == ["hitTest 10 10", "hitTest 10 10"])
    }

    @Test func aLayoutChangeIsHandedToTheOwnerAndItsEventPublishedBeforeTheReply() throws {
        let harness = try ServerHarness()
        let watcher = try harness.subscriber(#""kinds":["layout"]"#)
        let controller = try harness.subscriber(#""kinds":["layout"]"#)
        try controller.send(#"{"type":"layout.set","id":1,"layout":{"id":"wall","frame":[0,0,100,100]}}"#)
        try harness.settle()
        #expect(harness.owner.calls == ["replaceLayout wall"])
        // The requester sees its own layout event first, then the reply; the other subscriber the event.
        #expect(controller.take().map(\.type) == ["layout", "reply"])
        #expect(watcher.take().map { $0.object["revision"] as? Int } == [2])

        try controller.send(#"{"type":"view.update","id":2,"view":"nowhere","set":{"hidden":true}}"#)
        try controller.send(#"{"type":"hitTest","id":3,"x":10,"y":10}"#)
        try harness.settle()
        let answers = controller.take()
        #expect(answers.map(\.type) == ["error", "reply"])
        #expect((answers[0].object["error"] as? [String: Any])?["code"] as? String == "unknown_view")
        #expect(answers[1].object["view"] as? String == "wall")
        #expect(harness.owner.calls == ["replaceLayout wall", "hitTest 10 10"])
    }

    @Test func screenSetIsHandedToTheOwnerAndAnnouncedToScreenSubscribers() throws {
        let harness = try ServerHarness()
        let watcher = try harness.subscriber(#""kinds":["screen"]"#)
        let others = try harness.subscriber(#""kinds":["layout"]"#)
        let controller = try harness.connect()
        try controller.send(#"{"type":"screen.set","id":1,"rotation":90,"width":1080,"height":1920}"#)
        try harness.settle()
        #expect(harness.owner.calls == ["setScreen 90 1080 1920"])
        let reply = try #require(controller.take().first)
        #expect(reply.type == "reply")
        #expect(reply.object["screen"] as? [String: Double] == ["width": 1080, "height": 1920, "rotation": 90])
        let announced = watcher.take()
        #expect(announced.map(\.type) == ["screen"])
        #expect(announced.first?.text.hasPrefix(
            #"{"type":"screen","seq":1,"time":0,"width":1080.0,"height":1920.0,"rotation":90,"message":"screen.set by "#) == true)
        #expect(others.take().isEmpty)
    }

    /// Issue 12: an unprivileged client that pipelines `hitTest` and never reads grew the daemon
    /// without limit. Its replies fill its bounded queue like events, and it is dropped.
    @Test func aClientThatAsksAndNeverReadsIsDroppedAsASlowConsumer() throws {
        let harness = try ServerHarness { $0.queueLimit = 8192 }
        let watcher = try harness.subscriber(#""kinds":["warning"]"#)
        let greedy = try harness.connect()
        // Enough replies to fill the socket's buffer and then the queue: each is about 200 bytes.
        let requests = String(repeating: #"{"type":"hitTest","id":1,"x":10,"y":10}"# + "\n", count: 100)
        var settledAfter = 0
        for round in 0..<40 where !greedy.reachedEnd && harness.server.counters.slowConsumers == 0 {
            #expect(try greedy.socket.sendNonBlocking(Array(requests.utf8)) == requests.utf8.count)
            // Run the server only: the greedy client does not read.
            for _ in 0..<1000 { guard try harness.loop.runReady() > 0 else { break } }
            settledAfter = round
            #expect(harness.server.queuedBytes <= 8192 + 4096, "round \(round): the queue is bounded")
        }
        #expect(harness.server.counters.slowConsumers == 1, "after \(settledAfter + 1) rounds")
        try harness.settle()
        let warnings = watcher.take()
        #expect(warnings.map(\.type) == ["warning"])
        #expect((warnings.first?.object["message"] as? String)?.contains("did not read its events fast enough") == true)
        #expect(harness.owner.calls.contains("announce 1"))

        // It gets the rest of a line it was sent, then slow_consumer, and is closed.
        try harness.settle()
        let received = greedy.take()
        #expect(received.last?.type == "error")
        #expect((received.last?.object["error"] as? [String: Any])?["code"] as? String == "slow_consumer")
        #expect(received.dropLast().allSatisfy { $0.type == "reply" })
        try harness.settle()
        #expect(greedy.reachedEnd)
        #expect(harness.server.clientCount == 1)
    }

    @Test func aClosingClientThatDoesNotReadIsClosedWhenTheLingerTimeIsUp() throws {
        let harness = try ServerHarness { $0.queueLimit = 4096; $0.lingerMicroseconds = 5_000_000 }
        let stalled = try harness.subscriber()
        // More than the socket buffer and the queue take: the subscriber is dropped, and its last
        // line cannot be written while it does not read.
        let big = String(repeating: "x", count: 1000)
        for _ in 0..<400 where harness.server.counters.slowConsumers == 0 {
            harness.publish([Self.warning(big)])
            for _ in 0..<100 { guard try harness.loop.runReady() > 0 else { break } }
        }
        #expect(harness.server.counters.slowConsumers == 1)
        #expect(harness.server.clientCount == 1, "kept while it may still take its last line")
        harness.clock.advance(by: 4_999_999)
        #expect(harness.server.clientCount == 1)
        harness.clock.advance(by: 1)
        #expect(harness.server.clientCount == 0)
        #expect(harness.owner.changes.contains(.subscribers(0)))
        _ = stalled
    }

    @Test func aReplayIsHeldBackByAReaderWithABacklogUntilItStalls() throws {
        let harness = try ServerHarness { $0.lowWater = 1024 }
        let reader = try harness.subscriber()
        #expect(harness.server.holdsBack(stallMicroseconds: 500_000).held == false)
        let big = String(repeating: "x", count: 1000)
        // Fill the socket buffer until a backlog stays in the queue.
        for _ in 0..<1000 where harness.server.queuedBytes < 1024 {
            harness.publish([Self.warning(big)])
        }
        let (held, recheck) = harness.server.holdsBack(stallMicroseconds: 500_000)
        #expect(held && recheck == harness.clock.now + 500_000)
        harness.clock.advance(by: 500_000)
        #expect(harness.server.holdsBack(stallMicroseconds: 500_000).held == false, "a reader that took nothing stalls")
        // Reading makes progress: the backlog shrinks below the low-water mark and the owner hears it.
        try reader.receive()
        try harness.settle()
        #expect(harness.owner.changes.contains(.drained))
    }

    @Test func shutdownSaysByeToEveryClientAndTellsTheOwnerOnceAllAreClosed() throws {
        let harness = try ServerHarness()
        let first = try harness.subscriber()
        let second = try harness.connect()
        harness.server.shutdown(reason: "stopping", message: "gestured is stopping")
        try harness.settle()
        #expect(first.take().map(\.type) == ["bye"])
        #expect(second.take().map(\.text) == [#"{"type":"bye","reason":"stopping","message":"gestured is stopping"}"#])
        #expect(first.reachedEnd && second.reachedEnd)
        #expect(harness.owner.changes.last == .closed)
        #expect(access(harness.server.socketPath, F_OK) != 0, "the socket file goes with the server that made it")
    }

    /// A request read on the worker thread when the server stops is answered, then `bye`: it
    /// came before the stop (a loaded machine's worker can take seconds over a long line).
    @Test func aRequestOnTheWorkerWhenTheServerStopsIsAnsweredBeforeBye() throws {
        let harness = try ServerHarness()
        let client = try harness.connect()
        let other = try harness.connect()
        let name = String(repeating: "x", count: 200_000)
        try client.send(#"{"type":"\#(name)","id":1}"#)
        // Until the line is on the worker, and not a turn more (its answer comes back through
        // the loop: stopping now is stopping before it).
        for _ in 0..<1_000 where harness.server.linesBeingParsed == 0 { try harness.loop.runReady() }
        #expect(harness.server.linesBeingParsed == 1)
        harness.server.shutdown(reason: "stopping", message: "gestured is stopping")
        try harness.settle()
        let lines = client.take()
        #expect(lines.map(\.type) == ["error", "bye"], "\(lines.map(\.text))")
        #expect((lines.first?.object["error"] as? [String: Any])?["code"] as? String == "unknown_type")
        #expect(client.reachedEnd)
        #expect(other.take().map(\.type) == ["bye"] && other.reachedEnd)
        #expect(harness.owner.changes.last == .closed)
    }
}
