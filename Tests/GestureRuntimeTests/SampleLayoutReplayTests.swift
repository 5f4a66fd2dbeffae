import Foundation
import Testing
import TestSupport

/// Every corpus recording through every sample configuration (issue 4): the output is the
/// same on a second run and keeps the engine's invariants. (The project's own recordings get
/// the same in `ProjectRecordingsTests`.)
@Suite("Replaying the corpus through the sample layouts", .needsCorpus)
struct SampleLayoutReplayTests {
    static let configurations = ["lobby.json5", "gallery.json5", "map.json5"]

    @Test(arguments: configurations, ReplayRecordingsTests.cases.filter { $0.events == nil && $0.config == "full-screen.json5" }.map(\.file)
            + ["nexus4", "quanta"])
    func deterministicAndKeepsTheInvariants(configuration: String, recording: String) throws {
        let (file, events): (String, String?) = switch recording {
        case "nexus4": ("nexus4-touch_dev.desc", "nexus4-touch_dev.events")
        case "quanta": ("quanta-optical.desc", "quanta-optical.events")
        default: (recording, nil)
        }
        let run = {
            try ReplayOutput(recording: TestPaths.recording(file), events: events.map(TestPaths.recording),
                             config: TestPaths.config(configuration), tracing: true)
        }
        let first = try run()
        let second = try run()
        #expect(first.bytes == second.bytes)
        #expect(first.violations() == [])
        #expect(!first.of(type: "touches").isEmpty)
    }

    @Test func theSampleRecognizersRecognizeRealInput() throws {
        // Spot checks that the samples do what their comments say on real recordings.
        let taps = try ReplayOutput(recording: TestPaths.recording("atmel-maxtouch.1-finger-fast-taps.evemu"),
                                    config: TestPaths.config("gallery.json5"))
        let recognized = taps.of(type: "gesture").map { "\($0["recognizer"]!) \($0["state"]!)" }
        #expect(recognized.contains("zoomTap recognized"))
        #expect(recognized.contains("captionTap recognized"))
        let tenFingers = try ReplayOutput(recording: TestPaths.recording("wacom-dth2242-finger.10f.evemu"),
                                          config: TestPaths.config("map.json5"))
        let states = Set(tenFingers.of(type: "gesture").map { "\($0["recognizer"]!) \($0["state"]!)" })
        #expect(states.isSuperset(of: ["mapPinch began", "mapRotate began", "mapPan began", "pinMenu began"]))
    }
}
