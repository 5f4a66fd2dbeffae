/// The bytes of one recording file and the name to use for it in errors; lets tests and
/// callers parse text that is already in memory.
public struct RecordingSource: Sendable {
    /// The path or label errors name.
    public var name: String
    public var bytes: [UInt8]

    public init(name: String, bytes: [UInt8]) {
        (self.name, self.bytes) = (name, bytes)
    }

    public init(name: String, text: String) {
        self.name = name
        self.bytes = Array(text.utf8)
    }
}
