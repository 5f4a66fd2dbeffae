#if canImport(Glibc)
import Glibc
#endif
import GestureSystem
import Logging
import SystemPackage

/// A swift-log handler that writes one line per message to stderr in the form journald reads:
/// a `<N>` syslog priority prefix (sd-daemon(3)) when stderr is the journal (`JOURNAL_STREAM`
/// is set), and `gestured: level: message key=value` for a person at a terminal otherwise.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let prefixesPriority: Bool

    /// - Parameters:
    ///   - prefixesPriority: `nil` decides from `JOURNAL_STREAM`, as systemd documents it.
    public init(label: String, level: Logger.Level = .info, prefixesPriority: Bool? = nil) {
        self.label = label
        self.logLevel = level
        self.prefixesPriority = prefixesPriority ?? (getenv("JOURNAL_STREAM") != nil)
    }

    /// Bootstraps swift-log with this handler at `level` (once per process).
    public static func bootstrap(level: Logger.Level = .info) {
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, level: level) }
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var line = prefixesPriority ? "<\(Self.priority(event.level))>" : "\(label): \(event.level): "
        line += event.message.description
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        for (key, value) in merged.sorted(by: { $0.key < $1.key }) {
            line += " \(key)=\(Self.quoted("\(value)"))"
        }
        line += "\n"
        // One write per line (short writes continued), so lines of concurrent writers never
        // interleave. A log line that cannot be written has nowhere else to go.
        _ = try? FileDescriptor.standardError.writeAll(Array(line.utf8), subject: "stderr")
    }

    /// The syslog priority of sd-daemon(3): `<3>` error … `<7>` debug.
    static func priority(_ level: Logger.Level) -> Int {
        switch level {
        case .trace, .debug: 7
        case .info: 6
        case .notice: 5
        case .warning: 4
        case .error: 3
        case .critical: 2
        }
    }

    /// Values with spaces or quotes are quoted, so `key=value` pairs stay parseable.
    static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\n" }) else {
            return value
        }
        var escaped = "\""
        for character in value {
            switch character {
            case "\"": escaped += "\\\""
            case "\\": escaped += "\\\\"
            case "\n": escaped += "\\n"
            default: escaped.append(character)
            }
        }
        return escaped + "\""
    }
}
