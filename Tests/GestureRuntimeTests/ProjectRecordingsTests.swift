import Foundation
import GestureConfig
import GestureCore
import GestureRuntime
import Recordings
import Testing

/// One of the project's own recordings (made from a gesture script), with the touch count and
/// the first touch's point read from its script.
struct OwnRecording: Sendable, CustomTestStringConvertible {
    let path: String
    let touches: Int
    /// The first `down` of the script, in its screen's points.
    let first: (x: Double, y: Double)
    var testDescription: String { (path as NSString).lastPathComponent }
}

@Suite("Replaying the project's recordings")
struct ProjectRecordingsTests {
    static let cases: [OwnRecording] = [
        OwnRecording(path: TestPaths.ownRecording("lobby-session.evemu"), touches: 13, first: (826, 582)),
        OwnRecording(path: TestPaths.ownRecording("map-session.evemu"), touches: 7, first: (540, 900)),
        OwnRecording(path: TestPaths.ownRecording("one-finger-taps.evemu"), touches: 8, first: (820, 580)),
        OwnRecording(path: TestPaths.ownRecording("four-finger-drag.evemu"), touches: 4, first: (300, 200)),
        OwnRecording(path: TestPaths.recordingFixture("protocol-a-drag.evemu"), touches: 2, first: (300, 250)),
        // Protocol A, BTN_TOUCH and BTN_TOOL_DOUBLETAP, no INPUT_PROP_DIRECT: a touchscreen all the same.
        OwnRecording(path: TestPaths.recordingFixture("ntrig-like-drag.evemu"), touches: 3, first: (820, 580)),
    ]

    /// The configuration each script was written for (its screen), so points are the script's.
    static func configuration(for recording: OwnRecording) -> String {
        recording.path.hasSuffix("map-session.evemu") ? TestPaths.config("map.json5") : TestPaths.config("lobby.json5")
    }

    @Test(arguments: cases)
    func everyTouchEndsOnceWhereTheScriptPutIt(_ recording: OwnRecording) throws {
        let output = try ReplayOutput(recording: recording.path, config: Self.configuration(for: recording), tracing: true)
        #expect(output.violations() == [])
        // Each touch is hit-tested once; views that take one finger only see the first.
        let hitTested = output.of(type: "hitTest").map { $0["touch"] as! Int }
        #expect(hitTested == Array(1...recording.touches))
        #expect(Set(output.beganTouches).isSubset(of: hitTested))
        let hitTest = try #require(output.of(type: "hitTest").first)
        #expect(hitTest["x"] as? Double == recording.first.x)
        #expect(hitTest["y"] as? Double == recording.first.y)
        #expect(output.of(type: "warning").isEmpty, "\(output.of(type: "warning"))")
    }

    /// Every recording through every sample configuration: the same output twice, and the
    /// engine's invariants.
    @Test(arguments: ["lobby.json5", "gallery.json5", "map.json5"], cases)
    func deterministicThroughEverySample(configuration: String, recording: OwnRecording) throws {
        let run = { try ReplayOutput(recording: recording.path, config: TestPaths.config(configuration), tracing: true) }
        let first = try run()
        #expect(try run().bytes == first.bytes)
        #expect(first.violations() == [])
        #expect(!first.of(type: "touches").isEmpty)
    }

    /// The lobby session does on config/lobby.json5 what its script's comments say.
    @Test func theLobbySessionHitsWhatItAimsAt() throws {
        let output = try ReplayOutput(recording: TestPaths.ownRecording("lobby-session.evemu"), config: TestPaths.config("lobby.json5"))
        let controls = output.of(type: "control").map { "\($0["view"]!) \($0["event"]!)" }
        let count = { (line: String) in controls.filter { $0 == line }.count }
        #expect(count("welcomeStart touchUpInside") == 1)
        #expect(count("checkIn touchUpInside") == 1)
        #expect(count("map touchUpInside") == 2)
        #expect(count("map touchDownRepeat") == 1)
        #expect(count("help touchUpInside") == 1)
        #expect(count("help touchDragExit") == 1)
        #expect(count("help touchUpOutside") == 1)
        #expect(count("languageClose touchUpInside") == 1)
        #expect(!controls.contains { $0.hasPrefix("welcomeDismiss") || $0.hasPrefix("staffClose") || $0.hasPrefix("language ") })
        let gestures = output.of(type: "gesture").map { "\($0["recognizer"]!) \($0["state"]!)" }
        #expect(gestures.contains("welcomeSwipe recognized"))
        #expect(output.of(type: "gesture").first { $0["recognizer"] as? String == "welcomeSwipe" }?["direction"] as? String == "left")
        #expect(gestures.filter { $0 == "carouselPan began" }.count >= 2)
        #expect(gestures.filter { $0 == "carouselPan ended" }.count == gestures.filter { $0 == "carouselPan began" }.count)
        // The carousel band redirects to the carousel; the ticker lets its touch through to the lobby.
        let views = output.of(type: "touches").filter { $0["phase"] as? String == "began" }.map { $0["view"] as! String }
        #expect(views.contains("carousel") && !views.contains("carouselBand"))
        #expect(views.last == "lobby")
    }

    /// The map session on config/map.json5 (a portrait screen on a panel turned 90°).
    @Test func theMapSessionPinchesTurnsAndHolds() throws {
        let output = try ReplayOutput(recording: TestPaths.ownRecording("map-session.evemu"), config: TestPaths.config("map.json5"))
        let gestures = Set(output.of(type: "gesture").map { "\($0["recognizer"]!) \($0["state"]!)" })
        #expect(gestures.isSuperset(of: ["mapPan began", "mapPan ended", "mapPinch began", "mapPinch ended",
                                         "mapRotate began", "mapRotate ended", "pinMenu began", "pinMenu ended"]))
        // The pinch opens the map (scale above 1); the two-finger turn is clockwise (positive).
        let pinches = output.of(type: "gesture").filter { $0["recognizer"] as? String == "mapPinch" }
        #expect((pinches.map { $0["scale"] as? Double ?? 0 }.max() ?? 0) > 2)
        let rotations = output.of(type: "gesture").filter { $0["recognizer"] as? String == "mapRotate" }
        #expect((rotations.map { $0["rotation"] as? Double ?? 0 }.max() ?? 0) > 0.6)
        let controls = output.of(type: "control").map { "\($0["view"]!) \($0["event"]!)" }
        #expect(controls == ["floor2 touchDown", "floor2 touchUpInside"])
    }

    @Test func theTapsRepeatAsTheirScriptSays() throws {
        let output = try ReplayOutput(recording: TestPaths.ownRecording("one-finger-taps.evemu"), config: TestPaths.config("lobby.json5"))
        let controls = output.of(type: "control").map { "\($0["view"]!) \($0["event"]!)" }
        #expect(controls.filter { $0 == "welcomeStart touchUpInside" }.count == 8)
        #expect(controls.filter { $0 == "welcomeStart touchDownRepeat" }.count == 3)
    }

    @Test func aTouchpadRecordingIsRefusedUnlessForced() throws {
        let configuration = try ConfigurationLoader.load(path: TestPaths.fixture("full-screen.json5"))
        let path = TestPaths.recordingFixture("touchpad-scroll.evemu")
        let recording = try RecordingReader.read(path: path)
        let reason = DeviceClassification(try #require(recording.description)).reason
        #expect(reason == "touchpad: BTN_TOOL_FINGER without INPUT_PROP_DIRECT (udev's input_id rule)")
        #expect(throws: ReplayError.notATouchscreen(file: path, device: recording.description!.name, reason: reason)) {
            _ = try Replayer(recording: recording, setup: configuration.pipelineSetup, options: ReplayOptions())
        }
        var replayer = try Replayer(recording: recording, setup: configuration.pipelineSetup,
                                    options: ReplayOptions(allowNonTouchscreen: true))
        var bytes: [UInt8] = []
        replayer.run { bytes += $0 }
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""phase":"began""#))
    }

    @Test func truncatedRecordingEndsWithItsTouchesCancelled() throws {
        // The first 7 frames of the four-finger drag: four fingers down, then the recording stops.
        let path = TestPaths.ownRecording("four-finger-drag.evemu")
        var recording = try RecordingReader.read(path: path)
        var frames = 0
        let cut = recording.events.firstIndex { event in
            if event.isFrameEnd { frames += 1 }
            return frames == 7
        }!
        recording.events = Array(recording.events[...cut]) + [recording.events[cut + 1]]  // and half a frame
        let configuration = try ConfigurationLoader.load(path: TestPaths.fixture("full-screen.json5"))
        var replayer = try Replayer(recording: recording, setup: configuration.pipelineSetup, options: ReplayOptions())
        var bytes: [UInt8] = []
        replayer.run { bytes += $0 }
        let lines = String(decoding: bytes, as: UTF8.self).split(separator: "\n")
        let cancelled = try #require(lines.last { $0.contains(#""type":"touches""#) })
        #expect(cancelled.contains(#""phase":"cancelled""#))
        #expect(cancelled.contains(#""touches":[{"id":1,"#))
        #expect(lines.last?.contains(#""type":"warning""#) == true, "the discarded half frame is reported")
        #expect(replayer.pipeline.activeTouchCount == 0)
    }
}

@Suite("Realtime replay")
struct RealtimeReplayTests {
    @Test func realtimeGivesTheSameEventsPacedByTheRecordingsTimestamps() throws {
        let path = TestPaths.ownRecording("one-finger-taps.evemu")
        let config = TestPaths.config("lobby.json5")
        let virtual = try ReplayOutput(recording: path, config: config)
        let pacer = RecordingPacer()
        let paced = try ReplayOutput(recording: path, config: config, pacer: pacer)
        #expect(paced.bytes == virtual.bytes)
        // One wait per frame that changed a contact, at the frame's time, plus the deadlines
        // in between; never backwards.
        let recording = try RecordingReader.read(path: path)
        let frameTimes = Set(recording.events.filter(\.isFrameEnd).map(\.time))
        #expect(frameTimes.count == 18)
        #expect(pacer.waits.count >= frameTimes.count)
        #expect(pacer.waits == pacer.waits.sorted())
        #expect(pacer.waits.filter { frameTimes.contains($0) }.count == frameTimes.count)
        #expect(pacer.waits.last! >= recording.events.last!.time)
    }

    /// A panel that declares pen buttons and reports its position on ABS_Z/ABS_RX (SPEC 6):
    /// refused by default, with a message naming `type` and `axes`; forced, its touches all land
    /// on one point and a warning names the axes that move and the setting; configured with
    /// `device.type` and `device.axes`, it is a touchscreen like any other.
    @Test func aMisdescribedPanelIsConfiguredNotGuessed() throws {
        let description = TestPaths.recordingFixture("misdescribed-panel.desc")
        let events = TestPaths.recordingFixture("misdescribed-drag.events")
        let recording = try RecordingReader.read(path: description, eventsPath: events)
        let lobby = try ConfigurationLoader.load(path: TestPaths.config("lobby.json5"))
        #expect {
            _ = try Replayer(recording: recording, setup: lobby.pipelineSetup, options: ReplayOptions())
        } throws: { error in
            let message = "\(error)"
            return message.contains("tablet: BTN_TOOL_PEN is declared")
                && message.contains("device: { name: \"gestured virtual misdescribed panel\", type: \"touchscreen\" }")
                && message.contains("axes: { x: …, y: … }")
        }

        let forced = try ReplayOutput(recording: description, events: events, config: TestPaths.config("lobby.json5"),
                                      allowNonTouchscreen: true)
        let warnings = forced.of(type: "warning").map { $0["message"] as! String }
        #expect(warnings.count == 1)
        #expect(warnings.first?.contains("its position axes ABS_X and ABS_Y have not changed in 3 frames while ABS_Z, ABS_RX did") == true)
        #expect(warnings.first?.contains("device.axes: { x: \"ABS_Z\", y: \"ABS_RX\" }") == true)

        let configured = try ReplayOutput(recording: description, events: events,
                                          config: TestPaths.fixture("misdescribed-panel.json5"), tracing: true)
        #expect(configured.violations() == [])
        #expect(configured.of(type: "warning").isEmpty)
        #expect(configured.of(type: "hitTest").map { $0["view"] as? String } == ["welcomeStart", "carousel"])
        #expect(configured.of(type: "control").map { $0["event"] as? String } == ["touchDown", "touchUpInside"])
        #expect(configured.of(type: "gesture").contains { $0["recognizer"] as? String == "carouselPan" })
    }
}
