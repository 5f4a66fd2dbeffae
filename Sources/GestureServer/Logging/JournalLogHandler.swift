#if canImport(Glibc)
import Glibc
#endif
import GestureSystem
import Logging
import SystemPackage

/// A swift-log handler for the journal. Under systemd (`JOURNAL_STREAM` names stderr) each
/// message is one datagram of journald's native protocol (systemd.journal-fields(7), "Native
/// Journal Protocol" of systemd's docs): `MESSAGE` (the same line as on a terminal, the
/// metadata as `key=value` after it), `PRIORITY`, `SYSLOG_IDENTIFIER`, a `MESSAGE_ID` for the
/// main messages (``JournalMessageID``), and each metadata value as a field of its own,
/// `GESTURED_DEVICE`, `GESTURED_CLIENT` … (`journalctl GESTURED_CLIENT=7`). When the datagram
/// cannot be sent (no journal socket, a full queue: never wait for journald), and everywhere
/// else, one line on stderr: with a `<N>` syslog priority prefix (sd-daemon(3)) when stderr is
/// the journal, `gestured: level: message key=value` for a person at a terminal.
public struct JournalLogHandler: LogHandler {
    public var logLevel: Logger.Level
    public var metadata: Logger.Metadata = [:]
    private let label: String
    private let prefixesPriority: Bool
    private let journal: JournalSocket?

    /// journald's socket for the native protocol.
    public static let journalSocketPath = "/run/systemd/journal/socket"

    /// - Parameters:
    ///   - prefixesPriority: `nil` decides from `JOURNAL_STREAM`, as systemd documents it.
    ///   - journal: where native datagrams go; `nil` writes lines on stderr only.
    public init(label: String, level: Logger.Level = .info, prefixesPriority: Bool? = nil, journal: JournalSocket? = nil) {
        self.label = label
        self.logLevel = level
        self.prefixesPriority = prefixesPriority ?? (getenv("JOURNAL_STREAM") != nil)
        self.journal = journal
    }

    /// Bootstraps swift-log with this handler at `level` (once per process); under systemd
    /// with journald's native socket.
    public static func bootstrap(level: Logger.Level = .info) {
        let journal = getenv("JOURNAL_STREAM") != nil ? JournalSocket(path: journalSocketPath) : nil
        LoggingSystem.bootstrap { label in JournalLogHandler(label: label, level: level, journal: journal) }
    }

    /// The levels `--log-level` takes, by swift-log's names.
    public static func level(named name: String) -> Logger.Level? {
        Logger.Level(rawValue: name)
    }

    public subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }

    public func log(event: LogEvent) {
        var text = event.message.description
        var merged = metadata
        if let extra = event.metadata { merged.merge(extra) { _, new in new } }
        let sorted = merged.sorted(by: { $0.key < $1.key })
        for (key, value) in sorted {
            text += " \(key)=\(Self.quoted("\(value)"))"
        }
        if let journal {
            var fields: [(String, String)] = [("MESSAGE", text), ("PRIORITY", "\(Self.priority(event.level))"),
                                              ("SYSLOG_IDENTIFIER", label)]
            if let id = JournalMessageID.id(label: label, message: event.message.description) { fields.append(("MESSAGE_ID", id)) }
            for (key, value) in sorted { fields.append((Self.fieldName(key), "\(value)")) }
            fields.append(("CODE_FILE", event.file))
            fields.append(("CODE_LINE", "\(event.line)"))
            fields.append(("CODE_FUNC", event.function))
            if journal.send(Self.datagram(fields)) { return }
        }
        var line = prefixesPriority ? "<\(Self.priority(event.level))>" : "\(label): \(event.level): "
        line += text
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

    /// A metadata key as a journal field: `GESTURED_` and the key in capitals, anything but a
    /// letter or digit as `_` (journal field names are `[A-Z0-9_]`, at most 64 characters, and
    /// not from the sender if they start with `_`).
    static func fieldName(_ key: String) -> String {
        var name = "GESTURED_"
        for scalar in key.unicodeScalars.prefix(64 - name.count) {
            switch scalar {
            case "a"..."z": name.unicodeScalars.append(Unicode.Scalar(scalar.value - 32)!)
            case "A"..."Z", "0"..."9": name.unicodeScalars.append(scalar)
            default: name += "_"
            }
        }
        return name
    }

    /// The native protocol's datagram: `NAME=value` lines, or, for a value with a newline,
    /// `NAME`, a newline, its length as 64-bit little-endian, the bytes and a newline.
    static func datagram(_ fields: [(String, String)]) -> [UInt8] {
        var bytes: [UInt8] = []
        for (name, value) in fields {
            bytes.append(contentsOf: name.utf8)
            let data = Array(value.utf8)
            if data.contains(UInt8(ascii: "\n")) {
                bytes.append(UInt8(ascii: "\n"))
                var length = UInt64(data.count).littleEndian
                withUnsafeBytes(of: &length) { bytes.append(contentsOf: $0) }
            } else {
                bytes.append(UInt8(ascii: "="))
            }
            bytes.append(contentsOf: data)
            bytes.append(UInt8(ascii: "\n"))
        }
        return bytes
    }

    /// Values with spaces or quotes are quoted, so `key=value` pairs stay parseable.
    static func quoted(_ value: String) -> String {
        guard value.isEmpty || value.unicodeScalars.contains(where: { $0 == " " || $0 == "\"" || $0 == "=" || $0 == "\n" }) else {
            return value
        }
        return "\"" + escapedQuotedText(value) + "\""
    }
}

/// A value for inside double quotes, as logfmt and Prometheus' text format write a label's value:
/// the backslash, the double quote and the line feed escaped, nothing else. By scalar, not by
/// character: a CR LF is one `Character`, and its line feed must still be escaped.
public func escapedQuotedText(_ value: String) -> String {
    var escaped = String.UnicodeScalarView()
    for scalar in value.unicodeScalars {
        switch scalar {
        case "\\": escaped.append(contentsOf: "\\\\".unicodeScalars)
        case "\"": escaped.append(contentsOf: "\\\"".unicodeScalars)
        case "\n": escaped.append(contentsOf: "\\n".unicodeScalars)
        default: escaped.append(scalar)
        }
    }
    return String(escaped)
}

/// journald's native socket, as the handler sends to it: one non-blocking datagram socket for
/// the process, so a log call never waits for journald (a full queue is `EAGAIN`, and the line
/// goes to stderr instead).
public final class JournalSocket: Sendable {
    private let descriptor: FileDescriptor
    private let address: UnixSocketAddress

    /// `nil` when there is no socket at `path` or none can be opened.
    public init?(path: String) {
        guard (try? SocketFile.kind(at: path)) == .socket, let address = try? UnixSocketAddress(path),
              let descriptor = try? UnixSocket.open(.datagram, nonBlocking: true, subject: path) else {
            return nil
        }
        self.descriptor = descriptor
        self.address = address
    }

    deinit { descriptor.closeReleasing() }

    /// Sends one datagram; false when it was not sent.
    func send(_ bytes: [UInt8]) -> Bool {
        (try? descriptor.send(bytes, to: address)) != nil
    }
}
