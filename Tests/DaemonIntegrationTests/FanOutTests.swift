#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Many clients at once, slow clients and clients that vanish (SPEC 9: a slow client never
/// slows the input path or other clients).
@Suite("Fan-out to many clients")
struct FanOutTests {
    /// An event line without its `seq`, to compare streams whose numbering differs by the
    /// daemon's own warnings.
    static func withoutSequence(_ line: String) -> String {
        line.replacingOccurrences(of: #","seq":[0-9]+"#, with: "", options: .regularExpression)
    }

    @Test func fiftyClientsReceiveIdenticalStreams() throws {
        let recording = try String(contentsOfFile: Paths.packageRoot + "/config/recordings/four-finger-drag.evemu",
                                   encoding: .utf8)
        let daemon = try DaemonFixture(recording: recording, waitClients: 50)
        let clients = try (0..<50).map { _ in try daemon.subscriber() }
        let streams = try TestClient.readAllToEnd(clients)
        let first = streams[0]
        #expect(events(in: first).count > 50)
        #expect(type(of: first.last ?? "") == "bye")
        for (index, stream) in streams.enumerated() {
            #expect(stream == first, "client \(index) received a different stream")
        }
        #expect(daemon.process.waitForExit() == 0)
        #expect(daemon.process.stderrText.contains("replay ended"))
    }

    @Test func aClientThatStopsReadingIsDroppedAndTheOthersReceiveEverything() throws {
        // About 750 KB of events; a client may queue 64 KiB beyond what its socket buffer holds.
        let recording = SyntheticRecording.evemu(SyntheticRecording.longPan(frames: 3000))
        let daemon = try DaemonFixture(recording: recording, options: ["--queue-limit", "65536"], waitClients: 3)
        let stalled = try daemon.subscriber()
        let readers = try [daemon.subscriber(), daemon.subscriber()]
        let streams = try TestClient.readAllToEnd(readers, timeout: 60)
        #expect(streams[0] == streams[1])
        // The stalled client finds, after what its socket buffer held, why it was dropped. Read
        // at once: the daemon keeps a dropped connection only 5 s for its last line.
        let stalledLines = try stalled.readToEnd()

        let expected = try runCapturingStdout([Paths.gestured, "replay", "--config", daemon.configPath,
                                               daemon.directory.file("recording.evemu")])
            .split(separator: "\n").map(String.init)
        #expect(expected.count > 2500)
        let received = events(in: streams[0])
        let warnings = received.filter { type(of: $0) == "warning" }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("did not read its events fast enough") == true)
        #expect(received.filter { type(of: $0) != "warning" }.map(Self.withoutSequence) == expected.map(Self.withoutSequence))

        let last = try parse(stalledLines.last ?? "{}")
        #expect((last["error"] as? [String: Any])?["code"] as? String == "slow_consumer", "\(stalledLines.suffix(2))")
        #expect(events(in: stalledLines).count < received.count / 2)
        #expect(daemon.process.waitForExit() == 0)
        #expect(daemon.process.stderrText.contains("dropping a client that does not read its events fast enough"))
    }

    @Test func clientsThatDisconnectMidStreamDoNotDisturbTheOthers() throws {
        let recording = SyntheticRecording.evemu(SyntheticRecording.longPan(frames: 1500))
        let daemon = try DaemonFixture(recording: recording, waitClients: 10)
        let clients = try (0..<10).map { _ in try daemon.subscriber() }
        let stayers = Array(clients[0..<5])
        let leavers = Array(clients[5...])
        // The leavers read a little, then vanish while the daemon is writing to them: some
        // close normally, some reset the connection (SO_LINGER 0).
        for (index, client) in leavers.enumerated() {
            for _ in 0..<(3 + index * 40) { _ = client.readLine(timeout: 10) }
            if index % 2 == 0 {
                var linger = Glibc.linger(l_onoff: 1, l_linger: 0)
                setsockopt(client.fd, SOL_SOCKET, SO_LINGER, &linger, socklen_t(MemoryLayout<Glibc.linger>.size))
            }
            client.close()
        }
        let streams = try TestClient.readAllToEnd(stayers, timeout: 60)
        for stream in streams { #expect(stream == streams[0]) }
        let expected = try runCapturingStdout([Paths.gestured, "replay", "--config", daemon.configPath,
                                               daemon.directory.file("recording.evemu")])
            .split(separator: "\n").map(String.init)
        #expect(events(in: streams[0]) == expected)
        #expect(daemon.process.waitForExit() == 0)
    }
}
