#if canImport(Glibc)
import Glibc
#endif
import Logging

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
        for key in merged.keys.sorted() {
            line += " \(key)=\(Self.quoted("\(merged[key]!)"))"
        }
        line += "\n"
        // One write(2) per line, so lines of concurrent writers never interleave.
        var bytes = Array(line.utf8)
        bytes.withUnsafeMutableBytes { raw in
            var offset = 0
            while offset < raw.count {
                let written = write(2, raw.baseAddress! + offset, raw.count - offset)
                if written < 0 { if errno == EINTR { continue } else { return } }
                offset += written
            }
        }
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
