import Foundation
import GestureConfig
import GestureCore
@testable import GestureRuntime
import Recordings
import Testing

/// A replay streams its recording and survives what a hostile one holds (issue 12).
@Suite("Streaming replay")
struct StreamingReplayTests {
    /// A file in a fresh temporary directory, removed with it.
    final class TemporaryFile {
        let directory: URL
        let path: String

        init(name: String, text: String) throws {
            directory = FileManager.default.temporaryDirectory.appendingPathComponent("gestured-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            path = directory.appendingPathComponent(name).path
            try text.write(toFile: path, atomically: true, encoding: .utf8)
        }

        deinit { try? FileManager.default.removeItem(at: directory) }
    }

    static func lines(of path: String) throws -> [String] {
        try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    }

    /// A malformed line halfway: the events before it are replayed, then a warning names the
    /// file and line, the touches down are cancelled, and the replayer keeps the error for the
    /// command's exit status.
    @Test func aMalformedLineEndsTheReplayThereNamingIt() throws {
        var lines = try Self.lines(of: TestPaths.ownRecording("one-finger-taps.evemu"))
        // The first line of the frame after the second tap's finger went down: it is down.
        let downs = lines.indices.filter { lines[$0].hasPrefix("E:") && lines[$0].contains(" 0001 014a 0001") }
        let broken = try #require(lines[downs[1]...].firstIndex { $0.contains(" 0000 0000 0000") }) + 1
        lines[broken] = "E: 0.000001 0003"
        let file = try TemporaryFile(name: "broken.evemu", text: lines.joined(separator: "\n"))
        let output = try ReplayOutput(recording: file.path, config: TestPaths.config("lobby.json5"))
        #expect(output.violations() == [], "every touch that began ends")
        let warnings = output.of(type: "warning").compactMap { $0["message"] as? String }
        #expect(warnings == ["\(file.path):\(broken + 1): expected \"E: <sec>.<usec> <type> <code> <value>\", "
            + "found \"E: 0.000001 0003\"; the replay ends at the line before"])
        #expect(output.beganTouches.count == 2)
        #expect(output.events.last?["type"] as? String != "warning", "the cancellations follow the warning")

        let configuration = try ConfigurationLoader.load(path: TestPaths.config("lobby.json5"))
        var replayer = try Replayer(stream: RecordingReader.open(path: file.path), setup: configuration.pipelineSetup,
                                    options: ReplayOptions())
        replayer.run { _ in }
        #expect(replayer.readError?.line == broken + 1)
    }

    /// Warnings the reader can only give at the end of the file (damaged evtest lines) come
    /// after the last event, before the touches still down are cancelled.
    @Test func closingWarningsComeAtTheEnd() throws {
        let text = """
            Input driver version is 1.0.1
            Input device ID: bus 0x3 vendor 0x1 product 0x2 version 0x3
            Input device name: "Panel"
            Supported events:
              Event type 1 (EV_KEY)
                Event code 330 (BTN_TOUCH)
              Event type 3 (EV_ABS)
                Event code 0 (ABS_X)
                  Min        0
                  Max     1919
                Event code 1 (ABS_Y)
                  Min        0
                  Max     1079
            Testing ... (interrupt to exit)
            Event: time 1.000000, type 3 (EV_ABS), code 0 (ABS_X), value 100
            Event: time 1.000000, type 3 (EV_ABS), code 1 (ABS_Y), value 100
            Event: time 1.000000, type 1 (EV_KEY), code 330 (BTN_TOUCH), value 1
            Event: time 1.000000, -------------- SYN_REPORT ------------
            Event: time 1.0100
            Event: time 1.020000, -------------- SYN_REPORT ------------

            """
        let file = try TemporaryFile(name: "damaged.evtest", text: text)
        let output = try ReplayOutput(recording: file.path, config: TestPaths.fixture("full-screen.json5"))
        let types = output.events.map { $0["type"] as! String }
        #expect(types.first == "device")
        let warning = try #require(types.firstIndex(of: "warning"))
        #expect(output.events[warning]["message"] as? String == "1 damaged line skipped (first at line 19)")
        #expect(types[..<warning].contains("touches"), "after the events")
        #expect(output.of(type: "touches").last?["phase"] as? String == "cancelled")
    }

    /// Issue 25: a frame in the middle of a pan stamped 0.3 s before the frame before it. The
    /// replay clamps it to that frame's time, says so in the stream where it happens (file and
    /// line) and once more at the end, and no event's time goes back.
    @Test func aFrameThatGoesBackIsClampedAndSaidWhereItHappens() throws {
        var lines = try Self.lines(of: TestPaths.ownRecording("lobby-session.evemu"))
        let frameEnds = lines.indices.filter { lines[$0].hasPrefix("E:") && lines[$0].hasSuffix(" 0000 0000 0000") }
        // A frame that moves a contact, halfway through the file.
        let end = try #require(frameEnds[(frameEnds.count / 2)...].first { end in
            lines[(frameEnds[frameEnds.firstIndex(of: end)! - 1] + 1)..<end].contains { $0.contains(" 0003 0035 ") }
        })
        let start = frameEnds[frameEnds.firstIndex(of: end)! - 1] + 1
        func micros(_ line: String) -> Int64 {
            let stamp = line.dropFirst(3).prefix { $0 != " " }.split(separator: ".")
            return Int64(stamp[0])! * 1_000_000 + Int64(stamp[1])!
        }
        let previous = micros(lines[start - 1])
        for index in start...end {
            let time = micros(lines[index]) - 300_000
            let fraction = String(time % 1_000_000)
            lines[index] = "E: \(time / 1_000_000).\(String(repeating: "0", count: 6 - fraction.count) + fraction) "
                + lines[index].drop { $0 != " " }.dropFirst().drop { $0 != " " }.dropFirst()
        }
        let file = try TemporaryFile(name: "back.evemu", text: lines.joined(separator: "\n"))
        let output = try ReplayOutput(recording: file.path, config: TestPaths.config("lobby.json5"))
        #expect(output.violations() == [])
        let times = output.events.map { $0["time"] as! Int }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "no event goes back in time")
        let warnings = output.events.indices.filter { output.events[$0]["type"] as? String == "warning" }
        #expect(warnings.count == 2)
        let first = try #require(warnings.first)
        let message = try #require(output.events[first]["message"] as? String)
        #expect(message.hasPrefix("\(file.path):\(start + 1): the time goes back here, from "))
        #expect(output.events[first]["time"] as? Int == Int(previous), "said at the time the frame is clamped to")
        #expect(output.events[first + 1]["time"] as? Int == Int(previous), "right before the clamped frame's events")
        #expect((output.events[warnings[1]]["message"] as? String)?.hasPrefix("\(file.path): \(end - start + 1) events in "
            + "one place went back in time (lines \(start + 1) to \(end + 1), at most 0.") == true)

        // The same as the driver's notices (stderr for `gestured replay`, the log for a socket replay).
        let configuration = try ConfigurationLoader.load(path: TestPaths.config("lobby.json5"))
        var replayer = try Replayer(stream: RecordingReader.open(path: file.path), setup: configuration.pipelineSetup,
                                    options: ReplayOptions())
        replayer.run { _ in }
        #expect(replayer.takeNotices() == warnings.map { output.events[$0]["message"] as! String })
        #expect(!replayer.hasNotices)
    }

    /// A protocol A panel declaring its X axis from INT32_MIN to INT32_MAX trapped computing
    /// mtdev's default fuzz (`max - min` in 32 bits).
    @Test func aProtocolAAxisOfTheWholeInt32RangeReplays() throws {
        let lines = try Self.lines(of: TestPaths.recordingFixture("protocol-a-drag.evemu"))
            .map { $0.hasPrefix("A: 35 ") ? "A: 35 -2147483648 2147483647 0 0 0" : $0 }
        let file = try TemporaryFile(name: "wide.evemu", text: lines.joined(separator: "\n"))
        let output = try ReplayOutput(recording: file.path, config: TestPaths.config("lobby.json5"))
        #expect(output.violations() == [])
        #expect(!output.beganTouches.isEmpty)
    }

    /// A recording whose `ABS_MT_SLOT` goes up to 2^31 - 1 replays (the reader keeps 64 slots
    /// and says so at its line), instead of aborting on a 51 GB allocation.
    @Test func aHugeSlotCountReplays() throws {
        let lines = try Self.lines(of: TestPaths.ownRecording("one-finger-taps.evemu"))
        let slotLine = try #require(lines.firstIndex { $0.hasPrefix("A: 2f ") })
        var changed = lines
        changed[slotLine] = "A: 2f 0 2147483647 0 0 0"
        let file = try TemporaryFile(name: "slots.evemu", text: changed.joined(separator: "\n"))
        let output = try ReplayOutput(recording: file.path, config: TestPaths.config("lobby.json5"))
        let original = try ReplayOutput(recording: TestPaths.ownRecording("one-finger-taps.evemu"),
                                        config: TestPaths.config("lobby.json5"))
        #expect(output.of(type: "warning").map { $0["message"] as? String } == [
            "\(file.path):\(slotLine + 1): the recorded device declares 2147483648 contact slots (ABS_MT_SLOT up to "
                + "2147483647); gestured tracks the first 64, so contacts in the slots above are ignored",
        ])
        #expect(output.beganTouches == original.beganTouches)
    }
}

/// `--realtime` over a recording whose timestamps jump by more than Int64 nanoseconds hold
/// (about 9.2e9 s): the pacer's target saturates instead of trapping, so the replay waits
/// until it is stopped.
@Suite("Monotonic pacer")
struct MonotonicPacerTests {
    static let wallOrigin: Int64 = 5_000_000_000

    static func target(from start: Int64, to time: Int64) -> Int64 {
        MonotonicPacer.target(wallOrigin: wallOrigin, time: time, origin: start)
    }

    @Test func anOrdinaryOffsetIsNanosecondsAfterTheOrigin() {
        #expect(Self.target(from: 1_000_000, to: 3_500_000) == Self.wallOrigin + 2_500_000_000)
    }

    static let farJumps: [(start: Int64, time: Int64)] = [
        (0, 9_300_000_000_000_000),                       // a jump of 9.3e9 s
        (0, 999_999_999_999_999_999),                     // the latest time a recording can hold
        (Int64.min, Int64.max),                           // the whole range: the subtraction overflows
        (0, Int64.max / 1000 - wallOrigin / 1000 + 1),   // the sum overflows, the product does not
    ]

    @Test(arguments: farJumps)
    func aJumpTooFarForTheClockWaitsForever(_ start: Int64, _ time: Int64) {
        #expect(Self.target(from: start, to: time) == .max)
    }

    static let backJumps: [(start: Int64, time: Int64)] = [(9_300_000_000_000_000, 0), (Int64.max, Int64.min)]

    @Test(arguments: backJumps)
    func aJumpBackIsNoWait(_ start: Int64, _ time: Int64) {
        #expect(Self.target(from: start, to: time) <= Self.wallOrigin)
    }
}
