/// Why the pipeline cannot take a device.
public enum PipelineError: Error, Hashable, Sendable, CustomStringConvertible {
    /// The device's description does not allow reading touches from it (no axis ranges, a
    /// protocol A device mtdev refuses); the sentence says why.
    case unusableDevice(String)

    public var description: String {
        switch self {
        case .unusableDevice(let message): message
        }
    }
}
