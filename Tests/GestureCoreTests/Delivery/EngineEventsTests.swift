import Testing
@testable import GestureCore

/// The engine's events as the daemon takes them (``EngineEvents``: plain records, pools
/// reused frame after frame) against the events as values (`[EngineEvent]`).
@Suite("Engine events as records")
struct EngineEventsTests {
    /// A pan on a view of its own: a drag makes it begin, which cancels the touch in the view
    /// (its `cancelled` delivery goes in before the gesture's event), then changes.
    static func layout() throws -> ViewTree {
        try ViewTree(root: view("Root", 0, 0, 800, 600, [
            view("Panel", 0, 0, 400, 600) { $0.recognizers = [recognizer("drag", .pan)] },
            view("Other", 400, 0, 400, 600),
        ]) { $0.multipleTouchEnabled = true })
    }

    static func frames() -> [TouchFrame] {
        var frames = [TouchFrame(time: .zero, changes: [.down(ContactID(0), Point(x: 100, y: 100)),
                                                        .down(ContactID(1), Point(x: 500, y: 100))])]
        for step in 1...12 {
            frames.append(TouchFrame(time: Timestamp(microseconds: Int64(step) * 10_000),
                                     changes: [.move(ContactID(0), Point(x: 100 + Double(step) * 9, y: 100)),
                                               .move(ContactID(1), Point(x: 500, y: 100 + Double(step)))]))
        }
        frames.append(TouchFrame(time: Timestamp(microseconds: 130_000), changes: [.up(ContactID(0)), .up(ContactID(1))]))
        return frames
    }

    @Test func recordsEncodeAsTheEventsMadeFromThem() throws {
        var byRecords = Engine(tree: try Self.layout())
        var byValues = Engine(tree: try Self.layout())
        var records = EngineEvents()
        var encodedRecords = EventEncoder()
        var encodedValues = EventEncoder()
        var fromRecords: [UInt8] = []
        var fromValues: [UInt8] = []
        var lines: [String] = []
        for frame in Self.frames() {
            records.removeAll()
            byRecords.process(frame, into: &records)
            encodedRecords.buffer(records)
            encodedRecords.flush(into: &fromRecords)
            var values: [EngineEvent] = []
            byValues.process(frame, into: &values)
            #expect(values.count == records.count)
            for event in values {
                encodedValues.encode(event, into: &fromValues)
                lines.append(TouchScript.describe(event))
            }
        }
        #expect(fromRecords == fromValues)
        // What the records held: the recognition's cancellation moved before its event.
        let began = try #require(lines.firstIndex(of: "drag began"))
        #expect(lines[began - 1] == "cancelled Panel > Root: #1")
        #expect(lines.contains("moved Other > Root: #2"))
    }

    /// A value: a copy keeps its events while the original is appended to and cleared.
    @Test func aCopyKeepsItsEvents() throws {
        var engine = Engine(tree: try Self.layout())
        var events = EngineEvents()
        let frames = Self.frames()
        for frame in frames.prefix(4) { engine.process(frame, into: &events) }
        let copy = events
        let lines = copy.map(TouchScript.describe)
        var encoder = EventEncoder()
        encoder.buffer(copy)
        var bytes: [UInt8] = []
        encoder.flush(into: &bytes)
        for frame in frames.dropFirst(4) {
            events.removeAll()
            engine.process(frame, into: &events)
        }
        #expect(copy.map(TouchScript.describe) == lines)
        var again = EventEncoder()
        again.buffer(copy)
        var bytesAgain: [UInt8] = []
        again.flush(into: &bytesAgain)
        #expect(bytesAgain == bytes)
        #expect(lines.count == copy.count && copy.count > 6)
    }

    @Test func eventsMadeFromRecordsOutliveTheirFrame() throws {
        var engine = Engine(tree: try Self.layout())
        var events = EngineEvents()
        var kept: [EngineEvent] = []
        var keptLines: [String] = []
        for frame in Self.frames() {
            events.removeAll()
            engine.process(frame, into: &events)
            for event in events {
                kept.append(event)
                keptLines.append(TouchScript.describe(event))
            }
        }
        // The kept events read as they did: their touches and values are theirs, not the
        // collection's pools, which were emptied and written over frame after frame.
        #expect(kept.map(TouchScript.describe) == keptLines)
        #expect(kept.count > 20)
    }
}
