/// One kernel input event (`struct input_event`): a type, a code and a value at a time.
public struct RawEvent: Hashable, Sendable {
    public var time: Timestamp
    public var type: UInt16
    public var code: UInt16
    public var value: Int32

    public init(time: Timestamp, type: UInt16, code: UInt16, value: Int32) {
        (self.time, self.type, self.code, self.value) = (time, type, code, value)
    }

    /// True for `EV_SYN / SYN_REPORT`, the end of a frame.
    public var isFrameEnd: Bool { type == EventType.syn && code == SynCode.report }
}
