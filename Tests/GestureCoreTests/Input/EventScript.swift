import GestureCore

/// A tiny language for raw event streams in tests: each frame is a list of events at one
/// millisecond, closed by `SYN_REPORT` unless it is `partial`.
struct EventScript {
    private(set) var events: [RawEvent] = []

    typealias Event = (type: UInt16, code: UInt16, value: Int32)

    static func slot(_ value: Int32) -> Event { (EventType.abs, AbsCode.mtSlot, value) }
    static func id(_ value: Int32) -> Event { (EventType.abs, AbsCode.mtTrackingID, value) }
    static func x(_ value: Int32) -> Event { (EventType.abs, AbsCode.mtPositionX, value) }
    static func y(_ value: Int32) -> Event { (EventType.abs, AbsCode.mtPositionY, value) }
    static func major(_ value: Int32) -> Event { (EventType.abs, AbsCode.mtTouchMajor, value) }
    static func pressure(_ value: Int32) -> Event { (EventType.abs, AbsCode.mtPressure, value) }
    static func tool(_ value: Int32) -> Event { (EventType.abs, AbsCode.mtToolType, value) }
    static func touch(_ value: Int32) -> Event { (EventType.key, KeyCode.btnTouch, value) }
    static func absX(_ value: Int32) -> Event { (EventType.abs, AbsCode.x, value) }
    static func absY(_ value: Int32) -> Event { (EventType.abs, AbsCode.y, value) }
    static func absPressure(_ value: Int32) -> Event { (EventType.abs, AbsCode.pressure, value) }
    static let dropped: Event = (EventType.syn, SynCode.dropped, 0)
    static let mtReport: Event = (EventType.syn, SynCode.mtReport, 0)

    static func time(_ milliseconds: Int64) -> Timestamp { Timestamp(microseconds: milliseconds * 1000) }

    mutating func frame(_ milliseconds: Int64, _ frameEvents: [Event], partial: Bool = false) {
        for event in frameEvents {
            events.append(RawEvent(time: Self.time(milliseconds), type: event.type, code: event.code, value: event.value))
        }
        if !partial {
            events.append(RawEvent(time: Self.time(milliseconds), type: EventType.syn, code: SynCode.report, value: 0))
        }
    }

    /// Feeds every event and collects the frames (copied, since the tracker reuses its buffer).
    func run(_ tracker: inout ContactTracker) -> [TouchFrame] {
        var frames: [TouchFrame] = []
        for event in events {
            if let frame = tracker.process(event) { frames.append(frame) }
        }
        return frames
    }
}
