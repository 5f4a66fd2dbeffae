#if canImport(Glibc)
import Glibc
#endif
import GestureCore
@testable import GestureServer
import GestureSystem
import SystemPackage
import Testing

/// Issue 25: what one client, or a crowd, can make the server do is bounded, per request, per
/// turn of the loop and over all clients. Real sockets and the real loop on a manual clock
/// (``ServerHarness``); every bound is asserted by counting (lines answered in a turn, bytes
/// held), never by time.
@Suite("Bounded cost and memory per client")
struct BoundedCostTests {
    static func warning(_ text: String) -> OutputEvent { .warning(time: Timestamp(microseconds: 7), message: text) }

    /// Runs one turn of the loop and lets every client read what it was sent.
    static func turn(_ harness: ServerHarness) throws {
        try harness.loop.runReady()
        for client in harness.clients { try client.receive() }
    }

    @Test func pipelinedRequestsAreAnsweredAFewPerTurnAndOthersAreServedBetween() throws {
        let harness = try ServerHarness()
        let watcher = try harness.subscriber(#""kinds":["warning"]"#)
        let greedy = try harness.connect()
        let polite = try harness.connect()
        // 300 requests in one write: more than a turn answers.
        let burst = (0..<300).map { #"{"type":"status","id":\#($0)}"# + "\n" }.joined()
        #expect(try greedy.socket.sendNonBlocking(Array(burst.utf8)) == burst.utf8.count)
        try polite.send(#"{"type":"status","id":"polite"}"#)

        try Self.turn(harness)
        let first = greedy.take()
        // A turn's worth, the other client's line among them, answered after the greedy
        // client's first visit.
        #expect(first.count == ServerLimits.requestsPerTurn - 1)
        #expect(polite.take().map { $0.object["re"] as? String } == ["polite"], "the other client is answered in the same turn")

        // The owner's events go out between the turns that answer the rest.
        harness.publish([Self.warning("between")])
        try Self.turn(harness)
        #expect(watcher.take().map(\.type) == ["warning"])
        var answered = first + greedy.take()
        var turns = 2
        while answered.count < 300 && turns < 100 {
            try Self.turn(harness)
            let batch = greedy.take()
            #expect(batch.count <= ServerLimits.requestsPerTurn)
            answered += batch
            turns += 1
        }
        #expect(answered.map { $0.object["re"] as? Int } == Array(0..<300), "every request answered, in order")
        #expect(turns == 1 + (300 - first.count + ServerLimits.requestsPerTurn - 1) / ServerLimits.requestsPerTurn)
        #expect(harness.server.bufferedRequestBytes == 0)
    }

    @Test func aCrowdOfUnfinishedLinesIsBoundedAndTheLargestHolderIsClosed() throws {
        let harness = try ServerHarness { $0.requestBufferBudget = 100_000; $0.maxLineLength = 60_000 }
        let unfinished = { (count: Int) in Array(#"{"type":"status","pad":""#.utf8) + [UInt8](repeating: 0x78, count: count) }
        var holders: [TestSocketClient] = []
        for _ in 0..<3 {
            let client = try harness.connect()
            #expect(try client.socket.sendNonBlocking(unfinished(30_000)) == 30_000 + 24)
            holders.append(client)
        }
        try harness.settle()
        #expect(harness.server.bufferedRequestBytes == 3 * 30_024)
        let largest = try harness.connect()
        #expect(try largest.socket.sendNonBlocking(unfinished(40_000)) == 40_024)
        try harness.settle()
        let told = largest.take()
        #expect(told.map(\.type) == ["error"])
        #expect((told.first?.object["error"] as? [String: Any])?["code"] as? String == "overloaded")
        #expect(largest.reachedEnd)
        #expect(harness.server.bufferedRequestBytes == 3 * 30_024, "within the budget of 100,000")
        // The others are served once they finish their lines.
        try holders[0].send(#""}"#)
        try harness.settle()
        #expect(holders[0].take().map(\.type) == ["error"], "status has no field \"pad\": answered")
        #expect(harness.server.bufferedRequestBytes == 2 * 30_024)
    }

    @Test func clientsBeyondTheLimitAreToldOverloadedAndClosed() throws {
        let harness = try ServerHarness { $0.maxClients = 3 }
        #expect(harness.server.clientLimit == 3)
        let first = try harness.connect()
        _ = try harness.connect()
        _ = try harness.connect()
        let refused = try TestSocketClient(path: harness.server.socketPath)
        try harness.settle()
        try refused.receive()
        #expect(refused.take().map(\.text) == [#"{"type":"bye","reason":"overloaded","message":"gestured serves at most 3 "#
            + #"clients at once and that many are connected; try again later, or close the connections your programs no longer use"}"#])
        #expect(refused.reachedEnd)
        #expect(harness.server.counters.refused == 1)
        // One leaves; the next is served.
        #expect(shutdown(first.socket.rawValue, Int32(SHUT_RDWR)) == 0)
        try harness.settle()
        #expect(harness.server.clientCount == 2)
        _ = try harness.connect()
        #expect(harness.server.clientCount == 3)
    }

    @Test func queuedOutputOverTheBudgetDropsTheLongestQueues() throws {
        let harness = try ServerHarness {
            $0.outputBudget = 120_000
            $0.queueLimit = 100_000
            $0.socketSendBuffer = 4096
        }
        let watcher = try harness.subscriber(#""kinds":["layout"]"#)
        let stalled = try (0..<3).map { _ in try harness.subscriber(#""kinds":["warning"]"#) }
        let line = String(repeating: "x", count: 1000)
        for _ in 0..<400 where harness.server.counters.slowConsumers < 2 {
            harness.publish([Self.warning(line)])
            for _ in 0..<10 { guard try harness.loop.runReady() > 0 else { break } }
            #expect(harness.server.queuedBytes <= 120_000 + 1200, "the budget over all clients holds")
        }
        #expect(harness.server.counters.slowConsumers == 2)
        // Dropped for the budget, with its own queue under its own limit of 100,000. (Each
        // round lets the clients read and the server write what they made room for.)
        for _ in 0..<20 { try harness.settle() }
        let dropped = stalled.filter(\.reachedEnd)
        #expect(dropped.count == 2)
        for client in dropped {
            let error = client.take().last
            #expect((error?.object["error"] as? [String: Any])?["code"] as? String == "slow_consumer")
            #expect(((error?.object["error"] as? [String: Any])?["message"] as? String)?.contains("all clients together") == true)
        }
        _ = watcher
    }

    @Test func aHalfClosedSubscriberGetsItsReplyItsEventsAndBye() throws {
        let harness = try ServerHarness()
        let client = try harness.connect()
        try client.send(#"{"type":"subscribe","id":1,"kinds":["warning"]}"#)
        #expect(shutdown(client.socket.rawValue, Int32(SHUT_WR)) == 0)
        try harness.settle()
        #expect(client.take().map(\.type) == ["reply"])
        #expect(!client.reachedEnd && harness.server.subscriberCount == 1)
        #expect(try harness.loop.runReady() == 0, "a half-closed socket does not keep the loop awake")
        harness.publish([Self.warning("after the half-close")])
        try harness.settle()
        #expect(client.take().map { $0.object["message"] as? String } == ["after the half-close"])
        harness.server.shutdown(reason: "stopping", message: "gestured is stopping")
        try harness.settle()
        #expect(client.take().map(\.type) == ["bye"])
        #expect(client.reachedEnd)
    }

    @Test func aHalfClosedClientThatDidNotSubscribeIsClosedOnceAnswered() throws {
        let harness = try ServerHarness()
        let client = try harness.connect()
        // The last request without its newline: the end of the input ends it.
        let requests = #"{"type":"status","id":1}"# + "\n" + #"{"type":"hitTest","id":2,"x":10,"y":10}"#
        #expect(try client.socket.sendNonBlocking(Array(requests.utf8)) == requests.utf8.count)
        #expect(shutdown(client.socket.rawValue, Int32(SHUT_WR)) == 0)
        try harness.settle()
        #expect(client.take().map { $0.object["re"] as? Int } == [1, 2])
        #expect(client.reachedEnd)
        #expect(harness.server.clientCount == 0)
    }

    @Test func aPeerThatClosedBothDirectionsIsRemoved() throws {
        let harness = try ServerHarness()
        let client = try harness.subscriber()
        _ = try harness.connect()
        // Both directions: the server's end reports EPOLLHUP.
        #expect(shutdown(client.socket.rawValue, Int32(SHUT_RDWR)) == 0)
        try harness.settle()
        #expect(harness.server.clientCount == 1)
        #expect(harness.server.subscriberCount == 0)
        #expect(try harness.loop.runReady() == 0)
    }

    /// A line longer than 4 KiB is read on the worker thread; the client's next lines wait for
    /// it, so the answers keep their order, and the loop serves the others meanwhile.
    @Test func aLongLineIsReadOffTheLoopAndAnsweredInOrder() throws {
        let harness = try ServerHarness()
        let client = try harness.connect()
        let long = #"{"type":"status","id":1,"pad":""# + String(repeating: "x", count: 10_000) + #""}"#
        let requests = long + "\n" + #"{"type":"status","id":2}"# + "\n" + #"{"type":"hitTest","id":3,"x":1,"y":1}"# + "\n"
        #expect(try client.socket.sendNonBlocking(Array(requests.utf8)) == requests.utf8.count)
        try harness.loop.runReady()
        #expect(harness.server.linesBeingParsed == 1, "the long line went to the worker")
        try harness.settle()
        #expect(client.take().map { $0.object["re"] as? Int } == [1, 2, 3])
        #expect(harness.server.bufferedRequestBytes == 0)
    }
}

