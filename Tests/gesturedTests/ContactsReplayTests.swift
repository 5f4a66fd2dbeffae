import Foundation
import Testing

/// `gestured replay --contacts` (docs/events.md `contacts`): every finger down after each frame
/// that changed a contact, the fingers a recognizer took included; pinned by a golden
/// transcript of a real two-finger recording, and per screen with several screens.
@Suite("Replay with contacts")
struct ContactsReplayTests {
    static let golden = Gestured.packageRoot + "/Tests/Golden/contacts/map-session.jsonl"

    static func objects(_ text: String) throws -> [[String: Any]] {
        try text.split(separator: "\n").map { line in
            try JSONSerialization.jsonObject(with: Data(line.utf8)) as! [String: Any]
        }
    }

    /// The venue map's session (config/recordings/map-session.touches): a drag, a two-finger
    /// pinch that also turns, a two-finger rotation.
    @Test func thePinchOfTheMapSessionIsTheGoldenTranscript() throws {
        let result = try Gestured.run(["replay", "--contacts", "--config", "config/map.json5",
                                       "config/recordings/map-session.evemu"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout == (try String(contentsOfFile: Self.golden, encoding: .utf8)))
    }

    /// In the golden transcript: once mapPinch has both fingers, the contacts keep following
    /// them frame by frame, moving apart, while the pinch has them.
    @Test func theFingersThePinchTookGoOnMovingInTheContacts() throws {
        let events = try Self.objects(try String(contentsOfFile: Self.golden, encoding: .utf8))
        // The first pinch: from mapPinch's began to its end.
        let pinch = { (event: [String: Any], state: String) in
            event["recognizer"] as? String == "mapPinch" && event["state"] as? String == state
        }
        let start = try #require(events.firstIndex { pinch($0, "began") })
        let end = try #require(events[start...].firstIndex { pinch($0, "ended") })
        let held = events[start..<end].filter { $0["type"] as? String == "contacts" }.compactMap { event -> [[String: Any]]? in
            let contacts = event["contacts"] as! [[String: Any]]
            let pinched = contacts.filter { $0["recognizer"] as? String == "mapPinch" }
            return pinched.count == 2 ? pinched : nil
        }
        #expect(held.count > 10)
        let gaps = held.map { pair in
            hypot((pair[0]["x"] as! Double) - (pair[1]["x"] as! Double), (pair[0]["y"] as! Double) - (pair[1]["y"] as! Double))
        }
        // The fingers spread from about 200 to about 490 points apart (the recording's 460 → 300
        // and 640 → 790 across, 1000 → 1030 and 1020 → 950 down), and the contacts say so.
        #expect(gaps.first! < 260 && gaps.last! > 460, "\(gaps)")
        #expect(Set(gaps.map { Int($0) }).count > 10)
    }

    /// With several screens each contacts event names its screen and lists that screen's
    /// fingers: each screen's share of the merged stream is its own replay's, `seq` aside.
    @Test(arguments: [("lobby", "lobby-only.json5", "config/recordings/lobby-session.evemu"),
                      ("gallery", "gallery-only.json5", "config/recordings/one-finger-taps.evemu")])
    func eachScreensContactsAreItsOwn(_ screen: String, _ single: String, _ recording: String) throws {
        let merged = try Gestured.run(["replay", "--contacts", "--config", ScreenReplayTests.config,
                                       "--screen", ScreenReplayTests.lobby, "--screen", ScreenReplayTests.gallery])
        #expect(merged.status == 0, "\(merged.stderr)")
        let contacts = merged.stdout.split(separator: "\n").filter { $0.contains(#""type":"contacts""#) }
        #expect(contacts.allSatisfy { $0.contains(#""screen":"lobby""#) || $0.contains(#""screen":"gallery""#) })
        let share = contacts.filter { $0.contains(#""screen":"\#(screen)""#) }
        let alone = try Gestured.run(["replay", "--contacts", "--config", "Tests/Fixtures/screens/" + single, recording])
        #expect(alone.status == 0)
        let own = alone.stdout.split(separator: "\n").filter { $0.contains(#""type":"contacts""#) }
        #expect(!share.isEmpty)
        #expect(ScreenReplayTests.withoutSequence(share, screen: screen) == ScreenReplayTests.withoutSequence(own, screen: nil))
    }

    @Test func contactsCannotGoWithSocket() throws {
        let result = try Gestured.run(["replay", "--contacts", "--socket", "/tmp/gestured-contacts-test.sock",
                                       "--config", "config/map.json5", "config/recordings/map-session.evemu"])
        #expect(result.status != 0)
        #expect(result.stderr.contains("--contacts cannot go with --socket"))
    }
}
