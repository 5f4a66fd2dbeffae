import GestureCore

/// A recorded evdev log: the device it came from (when the file says), its raw events in
/// file order, and what the reader noticed on the way.
public struct Recording: Hashable, Sendable {
    /// The recorded device, or nil when the file has no description (Android `getevent`,
    /// an evemu events-only file read on its own).
    public var description: DeviceDescription?
    /// Every event in file order, with timestamps exactly as written (`sec * 1_000_000 + usec`).
    /// Events after the last `SYN_REPORT` are kept: the replay layer cancels those touches.
    public var events: [RawEvent]
    /// The format of the file the events came from.
    public var format: RecordingFormat
    /// Things the reader tolerated, for the user to see (damaged evtest lines, a second device).
    public var warnings: [String]
    /// The file(s) read: the recording, or the description file followed by the events file.
    public var sourcePaths: [String]

    public init(description: DeviceDescription?, events: [RawEvent], format: RecordingFormat,
                warnings: [String] = [], sourcePaths: [String]) {
        (self.description, self.events, self.format, self.warnings, self.sourcePaths) =
            (description, events, format, warnings, sourcePaths)
    }

    /// The number of frames, counted as `EV_SYN / SYN_REPORT` events whatever their value
    /// (hid-devices recordings end with a `SYN_REPORT` of value 1).
    public var frameCount: Int {
        events.reduce(0) { $0 + ($1.isFrameEnd ? 1 : 0) }
    }
}
