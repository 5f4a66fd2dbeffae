import Foundation
import GestureConfig
import GestureCore
import GestureRuntime
import Recordings
import Testing
import TestSupport

/// One recording, what replaying it must give, and a touch position computed by hand.
struct RecordingCase: Sendable, CustomTestStringConvertible {
    let file: String
    var events: String? = nil
    var config = "full-screen.json5"
    /// Distinct touches that begin: the recording's count of new tracking ids (or BTN_TOUCH
    /// presses), counted independently of gestured with a script over its `E:` lines.
    let touches: Int
    /// Where the first touch begins, from the first frame's raw values by SPEC 2 on the
    /// 1000 x 1000 test screen.
    let first: (x: Double, y: Double)
    var testDescription: String { file }
}

@Suite("Replaying every recording of the corpus", .needsCorpus)
struct ReplayRecordingsTests {
    static let cases: [RecordingCase] = [
        // ABS_MT_POSITION 340, 242 on 0..799, 0..479: 340/800*1000, 242/480*1000.
        RecordingCase(file: "atmel-maxtouch.1-finger-fast-taps.evemu", touches: 9, first: (425.0, 504.16666666666663)),
        // 415/800*1000, 107/480*1000.
        RecordingCase(file: "atmel-maxtouch.4-finger-drag-down.evemu", touches: 4, first: (518.75, 222.91666666666669)),
        // 265/1280*1000, 520/768*1000.
        RecordingCase(file: "ep0430m09.4-finger-drag-down.evemu", touches: 4, first: (207.03125, 677.0833333333334)),
        // 32752/32768*1000; the first finger never sends a Y in its first frame: the slot's
        // initial 0 (the kernel's), so y = 0.
        RecordingCase(file: "hidrec-egalax-7224.2f.evemu", touches: 7, first: (999.51171875, 0.0)),
        // 428/11175*1000, 474/6289*1000.
        RecordingCase(file: "hidrec-flatfrog-3200.12f.evemu", touches: 17, first: (38.29977628635347, 75.36969311496264)),
        // Protocol A through mtdev: 7411/9601*1000, 4677/7201*1000.
        RecordingCase(file: "ntrig-dell-xt2.protoA.evemu", touches: 4, first: (771.8987605457764, 649.4931259547285)),
        // 5-field A: lines; 1415/4649*1000, 1326/2557*1000.
        RecordingCase(file: "wacom-dth2242-finger.10f.evemu", touches: 66, first: (304.3665304366531, 518.5764567852952)),
        // MT-only, split files; 890/1536*1000, 576/2560*1000.
        RecordingCase(file: "nexus4-touch_dev.desc", events: "nexus4-touch_dev.events", touches: 12,
                      first: (579.4270833333334, 225.0)),
        // Slot 0 only, no ABS_MT_SLOT; 513/1921*1000, 320/1081*1000.
        RecordingCase(file: "quanta-optical.desc", events: "quanta-optical.events", touches: 9,
                      first: (267.0484122852681, 296.0222016651249)),
        // No description: ranges from the configuration (0..1439, 0..3199): 0x3c2 = 962,
        // 962/1440*1000; 0x9c1 = 2497, 2497/3200*1000.
        RecordingCase(file: "android-getevent-t.swipes.txt", config: "android-phone.json5", touches: 4,
                      first: (668.0555555555555, 780.3125)),
    ]

    func replay(_ c: RecordingCase, tracing: Bool = false) throws -> ReplayOutput {
        try ReplayOutput(recording: TestPaths.recording(c.file), events: c.events.map(TestPaths.recording),
                         config: TestPaths.fixture(c.config), tracing: tracing)
    }

    @Test(arguments: cases)
    func replaysWithEveryTouchEndedExactlyOnce(_ c: RecordingCase) throws {
        let output = try replay(c)
        #expect(output.violations() == [])
        let began = output.beganTouches
        #expect(began.count == c.touches)
        #expect(Set(began).count == began.count, "touch ids are never reused")
        let first = try #require(output.of(type: "touches").first)
        let touch = try #require((first["touches"] as? [[String: Any]])?.first)
        #expect(first["phase"] as? String == "began")
        // The output has four decimals (docs/decisions.md): within half a ten-thousandth.
        #expect(abs(try #require(touch["x"] as? Double) - c.first.x) <= 0.00005)
        #expect(abs(try #require(touch["y"] as? Double) - c.first.y) <= 0.00005)
        #expect(output.of(type: "warning").isEmpty, "\(output.of(type: "warning"))")
    }

    @Test(arguments: cases)
    func tracingGivesOneHitTestPerTouch(_ c: RecordingCase) throws {
        let output = try replay(c, tracing: true)
        let hitTests = output.of(type: "hitTest")
        #expect(hitTests.count == c.touches)
        #expect(hitTests.map { $0["touch"] as! Int } == output.beganTouches)
        #expect(hitTests.allSatisfy { ($0["trace"] as? [String]) == ["Screen hitTest", "Screen point(inside): true"] })
    }

    @Test func touchpadRecordingIsRefusedWithAClearMessage() throws {
        let configuration = try ConfigurationLoader.load(path: TestPaths.fixture("full-screen.json5"))
        let path = TestPaths.recording("tp-bcm5974.three-finger-click.evemu")
        let recording = try RecordingReader.read(path: path)
        #expect(throws: ReplayError.notATouchscreen(file: path, device: recording.description!.name, reason: DeviceClassification(recording.description!).reason)) {
            _ = try Replayer(recording: recording, setup: configuration.pipelineSetup, options: ReplayOptions())
        }
        #expect(DeviceClassification(recording.description!).reason.contains("BTN_TOOL_FINGER without INPUT_PROP_DIRECT"))
        // Forced, it replays (protocol A through mtdev, negative minima) with every touch ended.
        var replayer = try Replayer(recording: recording, setup: configuration.pipelineSetup,
                                    options: ReplayOptions(allowNonTouchscreen: true))
        var bytes: [UInt8] = []
        replayer.run { bytes += $0 }
        #expect(String(decoding: bytes, as: UTF8.self).contains(#""phase":"began""#))
    }

    /// Every recording of the corpus is replayed above with its touch count, or is the touchpad,
    /// which is refused: none is left out when the corpus grows.
    @Test func everyCorpusRecordingHasACase() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: RecordingCorpus.directory)
            .filter { $0 != "README.md" }
        let covered = Set(Self.cases.flatMap { [$0.file] + ($0.events.map { [$0] } ?? []) })
            .union(["tp-bcm5974.three-finger-click.evemu"])
        #expect(Set(files).subtracting(covered).sorted() == [])
    }

    @Test func recordingWithoutDescriptionOrAxesIsRefused() throws {
        let configuration = try ConfigurationLoader.load(path: TestPaths.fixture("full-screen.json5"))
        let path = TestPaths.recording("android-getevent-t.swipes.txt")
        #expect(throws: ReplayError.noDescription(file: path)) {
            _ = try Replayer(recording: try RecordingReader.read(path: path), setup: configuration.pipelineSetup,
                             options: ReplayOptions())
        }
    }

    @Test func tenFingerReplayIsDeterministic() throws {
        let c = Self.cases.first { $0.file.hasPrefix("wacom") }!
        let first = try replay(c, tracing: true)
        let second = try replay(c, tracing: true)
        #expect(first.bytes == second.bytes)
        #expect(first.bytes.count > 100_000)
    }
}

/// Records what a realtime replay asked to wait for, instead of sleeping.
final class RecordingPacer: Pacer, @unchecked Sendable {
    private(set) var waits: [Timestamp] = []
    func wait(until time: Timestamp) { waits.append(time) }
}
