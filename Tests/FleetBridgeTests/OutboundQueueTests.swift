import Testing
@testable import FleetBridge

/// The bounded queue: oldest first out, oldest dropped and counted past either bound.
struct OutboundQueueTests {
    func message(_ n: Int, size: Int = 1) -> OutboundMessage {
        OutboundMessage(topic: "t\(n)", payload: [UInt8](repeating: 0, count: size), qos: 1, retain: false)
    }

    @Test func keepsOrderAndDropsTheOldestPastTheLimit() {
        var queue = OutboundQueue(limit: 3)
        for n in 0..<5 { queue.push(message(n)) }
        #expect(queue.count == 3)
        #expect(queue.dropped == 2)
        var topics: [String] = []
        while let next = queue.pop() { topics.append(next.topic) }
        #expect(topics == ["t2", "t3", "t4"])
        #expect(queue.bytes == 0)
    }

    @Test func wrapsAroundWithoutLosingOrInventingMessages() {
        var queue = OutboundQueue(limit: 4)
        var expected: [String] = []
        var seen: [String] = []
        for n in 0..<100 {
            queue.push(message(n))
            expected.append("t\(n)")
            if n % 3 == 0, let next = queue.pop() { seen.append(next.topic) }
        }
        while let next = queue.pop() { seen.append(next.topic) }
        // Whatever was dropped was older than everything seen after it.
        #expect(Int(queue.dropped) + seen.count == 100)
        #expect(seen == seen.sorted { Int($0.dropFirst())! < Int($1.dropFirst())! })
        #expect(seen.last == "t99")
    }

    @Test func theByteBoundDropsTooAndATooLargeMessageIsCounted() {
        var queue = OutboundQueue(limit: 100, byteLimit: 100)
        for n in 0..<5 { queue.push(message(n, size: 30)) }  // 32 bytes each with the topic
        #expect(queue.count == 3)
        #expect(queue.bytes == 96)
        #expect(queue.dropped == 2)
        queue.push(message(9, size: 200))
        #expect(queue.dropped == 3)
        #expect(queue.first?.topic == "t2")
    }
}
