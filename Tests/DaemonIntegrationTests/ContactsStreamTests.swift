#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// The `contacts` stream against the real daemon serving a replay (docs/protocol.md
/// § Subscriptions): made only while a subscriber asks, and then sent to those alone.
@Suite("Contacts stream")
struct ContactsStreamTests {
    static func type(_ line: String) -> String? { (try? parse(line))?["type"] as? String }

    @Test func onlyTheSubscribersThatAskGetContactsAndTheirStreamIsTheReplaysWithContacts() throws {
        let daemon = try DaemonFixture(recording: ProtocolTests.mixedRecording, waitClients: 3)
        let plain = try daemon.subscriber()
        let asking = try daemon.connect()
        #expect(Self.type(asking.readLine() ?? "") == "hello")
        let reply = try asking.request(#"{"type":"subscribe","id":"c","contacts":true}"#)
        #expect((reply["subscription"] as? [String: Any])?["contacts"] as? Bool == true, "\(reply)")
        let kind = try daemon.subscriber(#""kinds":["contacts"]"#)
        let streams = try TestClient.readAllToEnd([plain, asking, kind])
        #expect(daemon.process.waitForExit() == 0)

        let withContacts = events(in: streams[1])
        let replayed = try runCapturingStdout([Paths.gestured, "replay", "--contacts", "--config", daemon.configPath,
                                               daemon.directory.file("recording.evemu")])
        #expect(withContacts == replayed.split(separator: "\n").map(String.init))
        let contacts = withContacts.filter { Self.type($0) == "contacts" }
        #expect(contacts.count > 10)
        // The pan on the left took its finger: the contacts name it while the finger moves.
        #expect(contacts.contains { $0.contains(#""recognizer":"leftPan""#) && $0.contains(#""phase":"moved""#) })
        // A subscriber of the contacts kind gets exactly those; one that did not ask, none.
        #expect(events(in: streams[2]) == contacts)
        #expect(events(in: streams[0]) == withContacts.filter { Self.type($0) != "contacts" })
    }

    /// With no subscriber asking, the pipeline makes no contacts event at all: the stream is the
    /// plain replay's, `seq` for `seq`, with no number taken by an event nobody gets.
    @Test func withoutASubscriberThatAsksNoContactsAreMade() throws {
        let daemon = try DaemonFixture(recording: ProtocolTests.mixedRecording)
        let client = try daemon.subscriber(#""trace":true"#)
        let received = events(in: try client.readToEnd())
        #expect(daemon.process.waitForExit() == 0)
        let replayed = try runCapturingStdout([Paths.gestured, "replay", "--trace", "--config", daemon.configPath,
                                               daemon.directory.file("recording.evemu")])
        #expect(received == replayed.split(separator: "\n").map(String.init))
        let sequences = received.compactMap { (try? parse($0))?["seq"] as? Int }
        #expect(sequences == Array(1...received.count))
    }
}
