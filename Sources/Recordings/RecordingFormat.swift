/// The text format a recording was written in.
public enum RecordingFormat: Hashable, Sendable, CustomStringConvertible {
    /// `evemu-record` / `evemu-describe` output, with the file format version it declares
    /// (1.0 when the `# EVEMU` line is missing, as evemu itself assumes).
    case evemu(EvemuVersion)
    /// `libinput record` YAML, file format version 1.
    case libinputRecord
    /// `evtest` text output.
    case evtest
    /// Android `getevent -t` output.
    case getevent

    public var description: String {
        switch self {
        case .evemu(let version): "evemu \(version)"
        case .libinputRecord: "libinput record"
        case .evtest: "evtest"
        case .getevent: "getevent"
        }
    }
}
