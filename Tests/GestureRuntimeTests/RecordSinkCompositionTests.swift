import GestureConfig
import GestureCore
import GestureRuntime
import Recordings
import Testing

/// A driver composes the sinks it needs (docs/architecture.md, "The output path"): a sink
/// added to a replay gets every record and changes no byte of the others' output, and
/// `gestured replay --panel`'s writer writes exactly the panel's records as evemu lines.
@Suite("Sinks composed by a driver")
struct RecordSinkCompositionTests {
    static let kiosk = TestPaths.fixture("routing-kiosk.json5")
    static let session = TestPaths.recordingFixture("routing-session.evemu")

    /// Counts what it is given: the shape of a new output (a metrics exporter).
    final class CountingSink: RecordSink {
        var deliveries = 0
        var edgeEvents = 0
        var routeChanges = 0
        var panelFrames = 0
        var flushes = 0

        func consume(_ records: PipelineRecords) {
            for segment in records.segments {
                switch segment {
                case .engineEvents(let range):
                    deliveries += range.count { if case .touches = records.engineEvents[$0] { true } else { false } }
                case .edgeEvent: edgeEvents += 1
                case .routeChanges(let range): routeChanges += range.count
                case .panelFrames(let range): panelFrames += records.panel[range].count { $0.isFrameEnd }
                }
            }
        }

        func flush() { flushes += 1 }
    }

    static func replay(_ recording: String, config: String, sinks: [any RecordSink]) throws -> [UInt8] {
        let configuration = try ConfigurationLoader.load(path: config)
        var replayer = try Replayer(stream: try RecordingReader.open(path: recording, eventsPath: nil),
                                    setup: configuration.pipelineSetup, options: ReplayOptions(tracing: true))
        var bytes: [UInt8] = []
        replayer.run(sinks: sinks) { bytes += $0 }
        return bytes
    }

    @Test func aSinkAddedToAReplayGetsEveryRecordAndChangesNoByteOfTheStream() throws {
        let alone = try Self.replay(Self.session, config: Self.kiosk, sinks: [])
        let collector = RecordCollector()
        let counting = CountingSink()
        var panelText: [UInt8] = []
        let panel = EvemuPanelSink { panelText += $0 }
        let composed = try Self.replay(Self.session, config: Self.kiosk, sinks: [collector, counting, panel])
        #expect(composed == alone)
        // The collector's events, encoded one by one by a fresh encoder, are the stream.
        var encoder = EventEncoder()
        encoder.writesRoutes = true
        var encoded: [UInt8] = []
        for event in collector.events { encoder.encode(event, into: &encoded) }
        #expect(encoded == alone)
        // Every record reached every sink.
        let lines = String(decoding: alone, as: UTF8.self).split(separator: "\n")
        #expect(counting.deliveries == lines.count { $0.hasPrefix(#"{"type":"touches""#) })
        #expect(counting.edgeEvents == lines.count {
            $0.hasPrefix(#"{"type":"device""#) || $0.hasPrefix(#"{"type":"warning""#)
                || $0.hasPrefix(#"{"type":"layout""#) || $0.hasPrefix(#"{"type":"screen""#)
        })
        #expect(counting.routeChanges == collector.routeChanges.count && counting.routeChanges > 0)
        #expect(counting.panelFrames == collector.panel.count { $0.isFrameEnd } && counting.panelFrames > 0)
        #expect(counting.flushes == 1, "flushed once, at the end")
        var expectedPanel: [UInt8] = []
        EvemuWriter.appendEventLines(collector.panel, to: &expectedPanel)
        #expect(panelText == expectedPanel)
    }

    @Test(arguments: [1, 512, 4096, 1 << 16])
    func thePanelsEvemuLinesGoOutInChunksOfAtLeastTheGivenSize(_ chunk: Int) throws {
        var writes: [[UInt8]] = []
        let collector = RecordCollector()
        _ = try Self.replay(Self.session, config: Self.kiosk,
                            sinks: [EvemuPanelSink(chunkBytes: chunk) { writes.append($0) }, collector])
        var expected: [UInt8] = []
        EvemuWriter.appendEventLines(collector.panel, to: &expected)
        #expect(!expected.isEmpty)
        #expect(Array(writes.joined()) == expected)
        #expect(writes.dropLast().allSatisfy { $0.count >= chunk })
        #expect(writes.allSatisfy { !$0.isEmpty })
        if expected.count < chunk { #expect(writes.count == 1, "one write, at the end") }
    }
}
