import Testing
@testable import GestureCore

/// The pipeline's output as typed records, and the sinks of the core that consume them: the
/// JSON Lines encoder (its `seq` across engine and edge events and across batches, what the
/// socket server needs) and the collector tests read (docs/architecture.md, "The output path").
@Suite("Records and sinks")
struct RecordSinkTests {
    /// A routed session on the kiosk of ``RoutingTests``, in batches as a driver would take
    /// them: the device added, a forwarded and a claimed touch, a third on the map (held, and
    /// claimed at once: the map's hold claims three fingers), a warning, a `SYN_DROPPED` that
    /// loses the third touch, a new screen, the forwarded touch lifted, the end of the input.
    struct Session {
        var pipeline: GesturePipeline
        var now: Int64 = 0

        init(routing: RoutingRule? = .forward) throws {
            pipeline = GesturePipeline(setup: PipelineSetup(tree: try ViewTree(root: RoutingTests.kiosk()),
                                                            settings: GestureSettings(),
                                                            screen: ScreenGeometry(width: 1000, height: 1000),
                                                            routing: routing.map { RoutingConfiguration(defaultRule: $0) }))
            try pipeline.addDevice(DeviceFixtures.square, message: "test device", at: .zero)
        }

        mutating func frame(_ events: [EventScript.Event]) {
            now += 10
            var script = EventScript()
            script.frame(now, events)
            for event in script.events {
                if let deadline = pipeline.nextDeadline, deadline < event.time { pipeline.advance(to: deadline) }
                pipeline.feed(event)
            }
        }

        var time: Timestamp { Timestamp(microseconds: now * 1000) }

        /// Each step of the session, one batch each; `drain` is called after every step.
        mutating func run(_ drain: (inout GesturePipeline) -> Void) {
            drain(&pipeline)
            frame([EventScript.slot(0), EventScript.id(1), EventScript.x(300), EventScript.y(300)]) // page: forwarded
            drain(&pipeline)
            frame([EventScript.slot(1), EventScript.id(2), EventScript.x(500), EventScript.y(50)])  // bar: claimed
            frame([EventScript.slot(2), EventScript.id(3), EventScript.x(500), EventScript.y(700)]) // map: held
            drain(&pipeline)
            frame([EventScript.slot(0), EventScript.x(320), EventScript.y(310)])
            pipeline.warn("a reader's warning", at: time)
            frame([EventScript.slot(1), EventScript.x(510)])
            drain(&pipeline)
            now += 10
            pipeline.resynchronise(with: DeviceSnapshot(currentSlot: 0, slots: [
                SlotSnapshot(trackingID: 1, position: DevicePosition(x: 330, y: 320)),
                SlotSnapshot(trackingID: 2, position: DevicePosition(x: 510, y: 50)),
            ]), at: time)
            drain(&pipeline)
            now += 10
            pipeline.setScreen(rotation: .clockwise180, size: Size(width: 1000, height: 1000), message: "turned", at: time)
            frame([EventScript.slot(0), EventScript.id(-1)])
            drain(&pipeline)
            now += 1000
            pipeline.finish(at: time)
            pipeline.advance(to: time + TimeSpan(seconds: 10))
            drain(&pipeline)
        }
    }

    static func lines(_ bytes: [UInt8]) -> [String] {
        String(decoding: bytes, as: UTF8.self).split(separator: "\n").map(String.init)
    }

    /// The text of the first member `name` of a line (up to the next comma or brace).
    static func field(_ name: String, of line: String) -> String? {
        let key = "\"\(name)\":"
        var rest = Substring(line)
        while !rest.isEmpty {
            if rest.hasPrefix(key) { return String(rest.dropFirst(key.count).prefix { $0 != "," && $0 != "}" }) }
            rest = rest.dropFirst()
        }
        return nil
    }

    @Test func theJSONLinesAreTheCollectedEventsEncodedOneByOneWithOneSeqAcrossBatches() throws {
        var session = try Session()
        var sink = JSONLinesSink(writesRoutes: true)
        let collector = RecordCollector()
        var batches = 0
        session.run { pipeline in
            guard !pipeline.records.isEmpty else { return }
            batches += 1
            sink.consume(pipeline.records)
            collector.consume(pipeline.records)
            pipeline.removeRecords()
        }
        // The other way to the same text: every collected event made as a value and encoded
        // alone by a fresh encoder, which numbers them from 1 in the collected order.
        var encoder = EventEncoder()
        encoder.writesRoutes = true
        var expected: [UInt8] = []
        for event in collector.events { encoder.encode(event, into: &expected) }
        #expect(batches == 7)
        #expect(sink.batch.bytes == expected)
        let lines = Self.lines(sink.batch.bytes)
        #expect(lines.map { Self.field("seq", of: $0) } == (1...lines.count).map { String($0) })
        #expect(sink.nextSequence == lines.count + 1)
        let types = lines.map { Self.field("type", of: $0) ?? "" }
        #expect(types.first == #""device""#)
        #expect(types.contains(#""warning""#) && types.contains(#""screen""#))
        // The stream says so first: the resynchronisation's line comes before the frame it made
        // (touch 1 moved to the snapshot's place, touch 3 cancelled).
        let resynchronised = try #require(lines.firstIndex { $0.contains(#""action":"resynchronised""#) })
        #expect(lines[resynchronised].contains("1 of 3 touches cancelled"))
        let time = try #require(Self.field("time", of: lines[resynchronised]))
        #expect(lines[(resynchronised + 1)...].prefix { Self.field("time", of: $0) == time }.map {
            "\(Self.field("phase", of: $0) ?? "") \(Self.field("id", of: $0) ?? "")"
        } == [#""moved" 1"#, #""cancelled" 3"#])
        // Forwarded touches say so; claimed ones, gestured's alone, carry no route.
        #expect(lines.contains { $0.contains(#""route":"forwarded""#) } && !lines.contains { $0.contains(#""route":"claimed""#) })
    }

    @Test func theJSONLinesSinkKeepsWhatTheSocketServerNeeds() throws {
        var session = try Session()
        var sink = JSONLinesSink(writesRoutes: true, keepsSummaries: true)
        var announced: [Bool] = []
        var lineCounts: [Int] = []
        session.run { pipeline in
            guard !pipeline.records.isEmpty else { return }
            sink.consume(pipeline.records)
            pipeline.removeRecords()
            let batch = sink.batch
            #expect(batch.summaries.count == batch.lines.count)
            // Each range is exactly one line, whose type is its summary's kind.
            var end = 0
            for (summary, range) in zip(batch.summaries, batch.lines) {
                #expect(range.lowerBound == end)
                end = range.upperBound
                let line = String(decoding: batch.bytes[range], as: UTF8.self)
                #expect(line.hasSuffix("\n") && line.dropLast().allSatisfy { $0 != "\n" })
                #expect(Self.field("type", of: line) == "\"\(summary.kind)\"")
            }
            #expect(end == batch.bytes.count)
            let events = EncodedEvents(batch)
            #expect(events.events.count == batch.lines.count)
            announced.append(batch.announcesDevice)
            lineCounts.append(batch.lines.count)
            sink.batch.removeAll()
        }
        // The device added, and resynchronised, are announced; nothing else is.
        #expect(announced == [true, false, false, false, true, false, false])
        #expect(lineCounts.allSatisfy { $0 > 0 })
    }

    @Test func summariesAreLeftOutWhileTheSinkIsToldNoOneFilters() throws {
        var session = try Session()
        var counting = JSONLinesSink(writesRoutes: true, keepsLines: true)
        var plain = JSONLinesSink(writesRoutes: true)
        session.run { pipeline in
            counting.consume(pipeline.records)
            plain.consume(pipeline.records)
            pipeline.removeRecords()
        }
        #expect(counting.batch.summaries.isEmpty)
        #expect(counting.batch.lines.count == Self.lines(counting.batch.bytes).count)
        #expect(plain.batch.lines.isEmpty && plain.batch.summaries.isEmpty)
        #expect(plain.batch.bytes == counting.batch.bytes)
    }

    @Test func theCollectorKeepsEveryKindOfRecordInTheOrderItWasMade() throws {
        var session = try Session()
        let collector = RecordCollector()
        var kinds: [[String]] = []
        session.run { pipeline in
            kinds.append(pipeline.records.segments.map { segment in
                switch segment {
                case .engineEvents: "engine"
                case .edgeEvent(let index): "edge " + pipeline.records.edgeEvents[index].kind
                case .routeChanges: "routes"
                case .panelFrames: "panel"
                }
            })
            collector.consume(pipeline.records)
            pipeline.removeRecords()
        }
        #expect(kinds == [
            ["edge device"],
            // The touch, its route and its frame on the copy.
            ["engine", "routes", "panel"],
            // Touch 2 claimed; touch 3 held, then claimed in the same frame.
            ["engine", "routes", "engine", "routes"],
            // Touch 1 moves on the copy; the warning; touch 2 moves, claimed: nothing on the copy.
            ["engine", "panel", "edge warning", "engine"],
            // The resynchronisation first, then its frame and touch 1's new place on the copy.
            ["edge device", "engine", "panel"],
            ["edge screen", "engine", "panel"],
            // The end of the input cancels touch 2; nothing of it was on the copy.
            ["engine"],
        ])
        let routes = collector.routeChanges.map(\.description)
        #expect(routes == ["#1 began forwarded", "#2 began claimed", "#3 began held", "#3 claimed"])
        // The copy got touch 1 (forwarded) and nothing of 2 or 3 (claimed).
        let trackingIDs = collector.panel.filter { $0.type == EventType.abs && $0.code == AbsCode.mtTrackingID }.map(\.value)
        #expect(trackingIDs == [1, -1])
        #expect(collector.panel.last?.isFrameEnd == true)
        #expect(collector.batches == 7)
    }

    @Test func withoutRoutingABatchOfFramesHoldsEngineEventsOnly() throws {
        var session = try Session(routing: nil)
        var shapes: [Bool] = []
        session.run { pipeline in
            shapes.append(pipeline.records.holdsEngineEventsOnly)
            #expect(pipeline.records.routeChanges.isEmpty && pipeline.records.panel.isEmpty)
            pipeline.removeRecords()
            #expect(pipeline.records.isEmpty)
        }
        // Frames alone add no segment; the device, the warning, the resynchronisation and the
        // screen do.
        #expect(shapes == [false, true, true, false, false, false, true])
    }
}
