import GestureConfig

/// One line from gestured's socket as the sidecar reads it (docs/protocol.md): the greeting, a
/// reply or error to one of its requests (answered in order), an event, or a goodbye.
public enum DaemonLine: Sendable {
    /// `startId`: the daemon's start id (docs/protocol.md, "hello"), nil from a daemon without one.
    case hello(canControl: Bool, startID: String?)
    /// `reply` (ok) or `error`; `raw` is the line as the daemon wrote it.
    case answer(ok: Bool, object: [String: JSONValue], raw: [UInt8])
    case event(type: String, object: [String: JSONValue])
    case bye(reason: String, message: String)
    /// A line that is not JSON or has no `type`: a daemon bug, logged and skipped.
    case unreadable(String)

    /// Whether `line` is a `touches` delivery other than `began`: the sidecar counts touches
    /// that begin and nothing else of these, and they are most of a busy panel's lines (ten
    /// fingers moving: 100 a second), so they are recognised by their fixed start
    /// (`{"type":"touches","seq":…,"time":…,"phase":"…"`, docs/events.md: fields come in a fixed
    /// order) and never parsed. Anything else, or a line not in that form, is parsed.
    public static func isTouchesWithoutBegan(_ line: some Collection<UInt8>) -> Bool {
        let prefix = Self.touchesPrefix
        guard line.count > prefix.count, line.starts(with: prefix) else { return false }
        // The delivery's phase is the first "phase" key: before the touches array, after the
        // numbers seq and time (and the screen id in a daemon of several screens).
        let key = Self.phaseKey
        var window = line.dropFirst(prefix.count)
        var scanned = 0
        while !window.isEmpty, scanned < 256 {
            if window.starts(with: key) {
                return !window.dropFirst(key.count).starts(with: Self.began)
            }
            if window.first == UInt8(ascii: "[") { return false }
            window = window.dropFirst()
            scanned += 1
        }
        return false
    }

    private static let touchesPrefix = Array(#"{"type":"touches","#.utf8)
    private static let phaseKey = Array(#""phase":""#.utf8)
    private static let began = Array(#"began""#.utf8)

    public static func parse(_ bytes: some Collection<UInt8>) -> DaemonLine {
        let raw = Array(bytes)
        let document: JSONParser.Document
        do {
            document = try JSONParser.parse(bytes: raw, dialect: .json)
        } catch {
            return .unreadable("\(error)")
        }
        guard case .object(let object) = document.value, case .string(let type)? = object["type"] else {
            return .unreadable("not an object with a type")
        }
        switch type {
        case "hello":
            if case .bool(let flag)? = object["canControl"] { return .hello(canControl: flag, startID: object.string("startId")) }
            return .hello(canControl: false, startID: object.string("startId"))
        case "reply": return .answer(ok: true, object: object, raw: raw)
        case "error": return .answer(ok: false, object: object, raw: raw)
        case "bye":
            return .bye(reason: object.string("reason") ?? "?", message: object.string("message") ?? "")
        default: return .event(type: type, object: object)
        }
    }
}

extension Dictionary where Key == String, Value == JSONValue {
    public func string(_ key: String) -> String? {
        if case .string(let text)? = self[key] { return text }
        return nil
    }

    public func number(_ key: String) -> JSONNumber? {
        if case .number(let number)? = self[key] { return number }
        return nil
    }

    public func object(_ key: String) -> [String: JSONValue]? {
        if case .object(let members)? = self[key] { return members }
        return nil
    }

    public func array(_ key: String) -> [JSONValue]? {
        if case .array(let elements)? = self[key] { return elements }
        return nil
    }

    public func integer(_ key: String) -> Int64? {
        guard let value = number(key)?.value, value.rounded() == value, abs(value) < 9.0e15 else { return nil }
        return Int64(value)
    }
}
