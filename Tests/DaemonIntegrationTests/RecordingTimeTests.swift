#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// Issue 25, served: a replay to socket clients of a recording whose time goes back gives the
/// clients the same `warning` a replay to stdout prints, where it happens, with the times
/// clamped, and the daemon logs it.
@Suite("Socket replay of a recording whose time goes back")
struct RecordingTimeTests {
    /// A pan whose fourth move is stamped 0.15 s before the third.
    static let recording: String = {
        typealias Frame = (time: Double, changes: [SyntheticRecording.Change])
        func move(_ step: Int) -> Frame { (1.0 + Double(step) * 0.01, [.move(slot: 0, x: 100 + step * 12, y: 300)]) }
        var frames: [Frame] = [(1.0, [.down(slot: 0, id: 1, x: 100, y: 300)])]
        frames += (1...3).map(move)
        frames.append((0.88, [.move(slot: 0, x: 150, y: 300)]))
        frames += (5...10).map(move)
        frames.append((1.2, [.up(slot: 0)]))
        return SyntheticRecording.evemu(frames)
    }()

    @Test func theClientsGetTheWarningWhereItHappensAndTimesThatNeverGoBack() throws {
        let daemon = try DaemonFixture(recording: Self.recording)
        let client = try daemon.subscriber()
        let received = events(in: try client.readToEnd())
        #expect(daemon.process.waitForExit() == 0)
        let parsed = try received.map(parse)
        let times = parsed.map { $0["time"] as! Int }
        #expect(zip(times, times.dropFirst()).allSatisfy { $0 <= $1 }, "\(times)")
        let warnings = parsed.indices.filter { parsed[$0]["type"] as? String == "warning" }
        let file = daemon.directory.file("recording.evemu")
        // The header's lines, the down's six, three moves of four: the fourth move's first line.
        let line = Self.recording.split(separator: "\n", omittingEmptySubsequences: false)
            .firstIndex { $0.hasPrefix("E: 0.880000") }! + 1
        let first: String = "\(file):\(line): the time goes back here, from 1.030000 to 0.880000 (0.150000 s earlier: "
            + "the kernel stamped events out of order, or the file was edited or joined); an event earlier than the one "
            + "before it is replayed at that event's time, so that no gesture sees time go backwards"
        let count: String = "\(file): 4 events in one place went back in time (lines \(line) to \(line + 3), at most "
            + "0.150000 s); each was replayed at the time of the event before it"
        let messages: [String?] = warnings.map { parsed[$0]["message"] as? String }
        #expect(messages == [first, count])
        #expect(parsed[warnings[0]]["time"] as? Int == 1_030_000)
        #expect(daemon.process.stderrText.contains("the time goes back here"), "logged too")
    }
}
