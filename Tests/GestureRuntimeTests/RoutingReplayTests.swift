import Foundation
import GestureConfig
import GestureCore
import GestureRuntime
import Recordings
import TestSupport
import Testing

/// Routing over whole recordings (docs/routing.md): with every touch forwarded, every touch of
/// the recording reaches the virtual panel and ends there, in complete frames; the copy of a
/// protocol A panel speaks protocol B. Checked on the project's recordings and, when present,
/// on every touchscreen of the corpus.
@Suite("Routing replays")
struct RoutingReplayTests {
    static let forwardAll = TestPaths.fixture("routing-forward-all.json5")

    static let own: [String] = [
        TestPaths.ownRecording("lobby-session.evemu"), TestPaths.ownRecording("map-session.evemu"),
        TestPaths.ownRecording("one-finger-taps.evemu"), TestPaths.ownRecording("four-finger-drag.evemu"),
        TestPaths.recordingFixture("protocol-a-drag.evemu"), TestPaths.recordingFixture("ntrig-like-drag.evemu"),
        TestPaths.recordingFixture("routing-session.evemu"),
    ]

    static let corpus: [String] = [
        "atmel-maxtouch.1-finger-fast-taps.evemu", "atmel-maxtouch.4-finger-drag-down.evemu",
        "ep0430m09.4-finger-drag-down.evemu", "hidrec-egalax-7224.2f.evemu", "hidrec-flatfrog-3200.12f.evemu",
        "ntrig-dell-xt2.protoA.evemu", "wacom-dth2242-finger.10f.evemu",
    ]

    /// The copy's stream read back from its evemu text: the description's axes and the events.
    struct Copy {
        var axes: Set<UInt16> = []
        var events: [RawEvent] = []

        init(_ bytes: [UInt8]) throws {
            for line in String(decoding: bytes, as: UTF8.self).split(separator: "\n") {
                let words = line.split(separator: " ")
                if words.first == "A:", words.count > 1, let code = UInt16(words[1], radix: 16) { axes.insert(code) }
                guard words.first == "E:", words.count == 5 else { continue }
                let seconds = words[1].split(separator: ".")
                let time = Timestamp(microseconds: Int64(seconds[0])! * 1_000_000 + Int64(seconds[1])!)
                events.append(RawEvent(time: time, type: UInt16(words[2], radix: 16)!, code: UInt16(words[3], radix: 16)!,
                                       value: Int32(words[4])!))
            }
        }

        /// Contacts begun on the copy, and what is wrong with the stream: a frame left open,
        /// a contact never lifted, time going back, a slot beyond the declared ones.
        func check() -> (begun: Int, problems: [String]) {
            var problems: [String] = []
            var slot: Int32 = 0
            var tracking: [Int32: Int32] = [:]
            var begun = 0
            var last = Timestamp(microseconds: .min)
            for event in events {
                if event.time < last { problems.append("time goes back at \(event.time.microseconds) µs") }
                last = event.time
                guard event.type == EventType.abs else { continue }
                if event.code == AbsCode.mtSlot { slot = event.value }
                if event.code == AbsCode.mtTrackingID {
                    if event.value >= 0 && (tracking[slot] ?? -1) != event.value { begun += 1 }
                    tracking[slot] = event.value
                }
            }
            if let end = events.last, !end.isFrameEnd { problems.append("the stream ends inside a frame") }
            let down = tracking.filter { $0.value >= 0 }
            if !down.isEmpty { problems.append("contacts left down on the copy in slots \(down.keys.sorted())") }
            return (begun, problems)
        }
    }

    static func verify(_ recording: String) throws {
        let output = try ReplayOutput(recording: recording, config: Self.forwardAll)
        #expect(output.violations() == [])
        let copy = try Copy(try #require(output.panel))
        #expect(copy.axes.contains(AbsCode.mtToolType), "the copy declares ABS_MT_TOOL_TYPE for cancels")
        #expect(copy.axes.contains(AbsCode.mtSlot), "the copy speaks protocol B")
        let (begun, problems) = copy.check()
        #expect(problems == [])
        // Every touch was forwarded, and each became one contact on the copy.
        var forwarded = Set<Int>()
        for event in output.of(type: "touches") {
            for touch in event["touches"] as! [[String: Any]] where touch["route"] as? String == "forwarded" {
                forwarded.insert(touch["id"] as! Int)
            }
        }
        #expect(!forwarded.isEmpty)
        #expect(begun == forwarded.count, "\(begun) contacts on the copy for \(forwarded.count) forwarded touches")
    }

    @Test(arguments: own)
    func everyTouchOfTheProjectsRecordingsReachesTheCopyAndEndsThere(_ recording: String) throws {
        try Self.verify(recording)
    }

    @Test(.needsCorpus, arguments: corpus)
    func everyTouchOfTheCorpusReachesTheCopyAndEndsThere(_ name: String) throws {
        try Self.verify(RecordingCorpus.path(name))
    }

    @Test func withEveryTouchClaimedTheCopyGetsNothing() throws {
        let text = try String(contentsOfFile: Self.forwardAll, encoding: .utf8)
            .replacingOccurrences(of: "default: \"forward\"", with: "default: \"claim\"")
        let config = FileManager.default.temporaryDirectory.appendingPathComponent("routing-claim-all-\(getpid()).json5").path
        try text.write(toFile: config, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: config) }
        let output = try ReplayOutput(recording: TestPaths.ownRecording("lobby-session.evemu"), config: config)
        let copy = try Copy(try #require(output.panel))
        #expect(copy.events.isEmpty)
        #expect(!output.of(type: "touches").isEmpty)
    }

    /// A libinput record keeps the panel's udev properties: the copy's header takes the fuzz
    /// libinput's rule saved there (`LIBINPUT_FUZZ_35` for `ABS_MT_POSITION_X`).
    @Test func theCopysHeaderTakesTheFuzzTheRecordingsUdevPropertiesSaved() throws {
        let original = try String(contentsOfFile: TestPaths.recordingFixture("elan-touchscreen.tap.libinput-record.yml"),
                                  encoding: .utf8)
        let marked = original.replacingOccurrences(of: "      - ID_INPUT_TOUCHSCREEN=1\n",
                                                   with: "      - ID_INPUT_TOUCHSCREEN=1\n      - LIBINPUT_FUZZ_35=9\n")
        #expect(marked != original)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("routing-udev-\(getpid()).yml").path
        try marked.write(toFile: file, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(atPath: file) }
        let output = try ReplayOutput(recording: file, config: Self.forwardAll)
        let header = String(decoding: try #require(output.panel), as: UTF8.self).split(separator: "\n")
        let axis = try #require(header.first { $0.hasPrefix("A: 35 ") })
        #expect(axis.split(separator: " ")[4] == "9", "\(axis)")
        let other = try #require(header.first { $0.hasPrefix("A: 36 ") })
        #expect(other.split(separator: " ")[4] == "0", "\(other)")
    }
}
