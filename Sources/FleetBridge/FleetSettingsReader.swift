import GestureConfig
import GestureServer

/// Reads `gestured-mqtt`'s file (JSON5) into ``FleetSettings``, collecting every problem with
/// its `FILE:LINE:COLUMN` and key path, as `gestured check-config` does for the daemon's.
/// Credentials in the file are refused with the sentence that says where they go instead.
public enum FleetSettingsReader {
    /// The problems of a file that cannot be used, one line each.
    public struct Failure: Error, CustomStringConvertible, Sendable {
        public var problems: [String]
        public var description: String { problems.joined(separator: "\n") }
    }

    /// `text` is the file's contents; `file` names it in messages; `defaultNode` is the node id
    /// when the file sets none (the host name, made a valid id).
    public static func read(_ text: String, file: String, defaultNode: String) throws(Failure) -> FleetSettings {
        let document: JSONParser.Document
        do {
            document = try JSONParser.parse(text, dialect: .json5, recordingPositions: true)
        } catch {
            throw Failure(problems: ["\(file):\(error)"])
        }
        var reader = Reader(file: file, positions: document.positions)
        for duplicate in document.duplicateKeys { reader.problems.append("\(file):\(duplicate)") }
        let settings = reader.settings(document.value, defaultNode: defaultNode)
        guard reader.problems.isEmpty else { throw Failure(problems: reader.problems) }
        return settings
    }

    /// A host name made a node id: characters outside `[A-Za-z0-9_-]` become `_`.
    public static func nodeID(fromHostName name: String) -> String {
        let cleaned = String(name.prefix(FleetLimits.nodeLength.upperBound).map { isIDCharacter($0) ? $0 : "_" })
        return cleaned.isEmpty ? "kiosk" : cleaned
    }

    static func isIDCharacter(_ character: Character) -> Bool {
        character.isASCII && (character.isLetter || character.isNumber || character == "_" || character == "-")
    }
}

private struct Reader {
    let file: String
    let positions: [String: SourcePosition]
    var problems: [String] = []

    init(file: String, positions: [String: SourcePosition]) {
        self.file = file
        self.positions = positions
    }

    mutating func problem(_ path: String, _ message: String) {
        let position = positions[path].map { "\($0): " } ?? ""
        problems.append("\(file):\(position)\(path.isEmpty ? "(the file)" : path): \(message)")
    }

    /// The members of an object, with unknown keys reported (and a "did you mean").
    mutating func members(_ value: JSONValue, at path: String, known: [String]) -> [String: JSONValue]? {
        guard case .object(let members) = value else {
            problem(path, "expected an object, found \(Request.describe(value))")
            return nil
        }
        for key in members.keys.sorted() where !known.contains(key) {
            let keyPath = path.isEmpty ? key : "\(path).\(key)"
            if key == "username" || key == "password" {
                problem(keyPath, "credentials are never read from the configuration file; give them to the unit as "
                        + "systemd credentials mqtt-username and mqtt-password (LoadCredential=, docs/fleet.md)")
            } else {
                problem(keyPath, "unknown key; allowed here: \(known.joined(separator: ", "))")
            }
        }
        return members
    }

    mutating func string(_ value: JSONValue, at path: String, length: ClosedRange<Int> = 1...4096) -> String? {
        guard case .string(let text) = value else {
            problem(path, "expected a string, found \(Request.describe(value))")
            return nil
        }
        guard length.contains(text.count), !text.contains("\0") else {
            problem(path, "expected \(length.lowerBound) to \(length.upperBound) characters, found \(text.count)")
            return nil
        }
        return text
    }

    mutating func integer(_ value: JSONValue, at path: String, range: ClosedRange<Int>) -> Int? {
        guard case .number(let number) = value, number.value.rounded() == number.value,
              number.value >= Double(range.lowerBound), number.value <= Double(range.upperBound) else {
            problem(path, "expected an integer from \(range.lowerBound) to \(range.upperBound), found \(describe(value))")
            return nil
        }
        return Int(number.value)
    }

    mutating func bool(_ value: JSONValue, at path: String) -> Bool? {
        guard case .bool(let flag) = value else {
            problem(path, "expected true or false, found \(Request.describe(value))")
            return nil
        }
        return flag
    }

    func describe(_ value: JSONValue) -> String {
        if case .number(let number) = value { return number.literal }
        return Request.describe(value)
    }

    mutating func strings(_ value: JSONValue, at path: String, allowed: [String]? = nil, limit: Int,
                          length: Int) -> [String]? {
        guard case .array(let elements) = value else {
            problem(path, "expected an array of strings, found \(Request.describe(value))")
            return nil
        }
        guard elements.count <= limit else {
            problem(path, "at most \(limit) entries, found \(elements.count)")
            return nil
        }
        var result: [String] = []
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            guard let text = string(element, at: elementPath, length: 1...length) else { continue }
            if let allowed, !allowed.contains(text) {
                problem(elementPath, "\"\(text)\" is not one of \(allowed.joined(separator: ", "))")
                continue
            }
            result.append(text)
        }
        return result
    }

    /// A topic prefix: MQTT topic levels without wildcards, no leading or trailing `/`.
    mutating func topicPrefix(_ value: JSONValue, at path: String) -> String? {
        guard let text = string(value, at: path, length: FleetLimits.prefixLength) else { return nil }
        if text.contains("+") || text.contains("#") || text.hasPrefix("/") || text.hasSuffix("/")
            || text.contains("//") || text.unicodeScalars.contains(where: { $0.value < 0x20 }) {
            problem(path, "\"\(text)\" is not a topic prefix: no +, #, control characters, empty levels, "
                    + "or / at either end")
            return nil
        }
        return text
    }

    mutating func settings(_ root: JSONValue, defaultNode: String) -> FleetSettings {
        var settings = FleetSettings(node: defaultNode)
        guard let top = members(root, at: "", known: ["broker", "topics", "events", "health", "queue",
                                                      "homeAssistant", "metrics", "commands"]) else { return settings }
        if let broker = top["broker"] { readBroker(broker, into: &settings) }
        if let topics = top["topics"], let keys = members(topics, at: "topics", known: ["prefix", "node"]) {
            if let value = keys["prefix"], let prefix = topicPrefix(value, at: "topics.prefix") { settings.prefix = prefix }
            if let value = keys["node"], let node = string(value, at: "topics.node", length: FleetLimits.nodeLength) {
                if node.allSatisfy(FleetSettingsReader.isIDCharacter) {
                    settings.node = node
                } else {
                    problem("topics.node", "\"\(node)\" may hold only letters, digits, _ and - (it names topics and "
                            + "Home Assistant's ids)")
                }
            }
        }
        if let events = top["events"],
           let keys = members(events, at: "events", known: ["views", "recognizers", "gestureStates", "controlEvents"]) {
            let limit = FleetLimits.patternLimit, length = FleetLimits.patternLength
            if let value = keys["views"], let list = strings(value, at: "events.views", limit: limit, length: length) {
                settings.views = list
            }
            if let value = keys["recognizers"],
               let list = strings(value, at: "events.recognizers", limit: limit, length: length) {
                settings.recognizers = list
            }
            if let value = keys["gestureStates"],
               let list = strings(value, at: "events.gestureStates", allowed: FleetSettings.knownGestureStates,
                                  limit: 8, length: 16) {
                settings.gestureStates = list
            }
            if let value = keys["controlEvents"],
               let list = strings(value, at: "events.controlEvents", allowed: FleetSettings.knownControlEvents,
                                  limit: 16, length: 32) {
                settings.controlEvents = list
            }
        }
        if let health = top["health"], let keys = members(health, at: "health", known: ["interval"]),
           let value = keys["interval"],
           let interval = integer(value, at: "health.interval", range: FleetLimits.healthIntervalRange) {
            settings.healthInterval = interval
        }
        if let queue = top["queue"], let keys = members(queue, at: "queue", known: ["limit"]),
           let value = keys["limit"], let limit = integer(value, at: "queue.limit", range: FleetLimits.queueLimitRange) {
            settings.queueLimit = limit
        }
        if let homeAssistant = top["homeAssistant"],
           let keys = members(homeAssistant, at: "homeAssistant", known: ["discovery", "prefix"]) {
            var enabled = true
            if let value = keys["discovery"], let flag = bool(value, at: "homeAssistant.discovery") { enabled = flag }
            if let value = keys["prefix"], let prefix = topicPrefix(value, at: "homeAssistant.prefix") {
                settings.discoveryPrefix = prefix
            }
            if !enabled { settings.discoveryPrefix = nil }
        }
        if let metrics = top["metrics"] {
            if case .null = metrics {
                settings.metricsDirectoryIsSet = true
                settings.metricsDirectory = nil
            } else if let keys = members(metrics, at: "metrics", known: ["directory", "interval"]) {
                if let value = keys["directory"] {
                    settings.metricsDirectoryIsSet = true
                    if case .null = value {
                        settings.metricsDirectory = nil
                    } else if let directory = string(value, at: "metrics.directory") {
                        if directory.hasPrefix("/") {
                            settings.metricsDirectory = directory
                        } else {
                            problem("metrics.directory", "expected an absolute path, found \"\(directory)\"")
                        }
                    }
                }
                if let value = keys["interval"],
                   let interval = integer(value, at: "metrics.interval", range: FleetLimits.metricsIntervalRange) {
                    settings.metricsInterval = interval
                }
            }
        }
        if let commands = top["commands"], let keys = members(commands, at: "commands", known: ["enabled"]),
           let value = keys["enabled"], let flag = bool(value, at: "commands.enabled") {
            settings.commandsEnabled = flag
        }
        return settings
    }

    mutating func readBroker(_ value: JSONValue, into settings: inout FleetSettings) {
        guard let keys = members(value, at: "broker", known: ["host", "port", "socket", "keepalive", "clientId", "tls"])
        else { return }
        var host = "localhost", port = 1883
        if let value = keys["host"], let text = string(value, at: "broker.host", length: 1...253) { host = text }
        if let value = keys["port"], let number = integer(value, at: "broker.port", range: 1...65535) { port = number }
        settings.broker = .tcp(host: host, port: port)
        if keys["socket"] != nil {
            problem("broker.socket", "libmosquitto 2.0 (Debian 12's) connects to a host and port only; run the broker "
                    + "with a loopback listener (listener 1883 127.0.0.1) and give host and port")
        }
        if let value = keys["keepalive"],
           let seconds = integer(value, at: "broker.keepalive", range: FleetLimits.keepaliveRange) {
            settings.keepalive = seconds
        }
        if let value = keys["clientId"], let id = string(value, at: "broker.clientId", length: 1...23) {
            settings.clientID = id
        }
        if let value = keys["tls"], let tls = members(value, at: "broker.tls", known: ["ca", "certificate", "key"]) {
            var ca: String?, certificate: String?, key: String?
            if let value = tls["ca"] { ca = string(value, at: "broker.tls.ca") }
            if let value = tls["certificate"] { certificate = string(value, at: "broker.tls.certificate") }
            if let value = tls["key"] { key = string(value, at: "broker.tls.key") }
            if ca == nil, tls["ca"] == nil {
                problem("broker.tls", "needs \"ca\": the CA file that signed the broker's certificate")
            }
            if (certificate == nil) != (key == nil), (tls["certificate"] == nil) != (tls["key"] == nil) {
                problem("broker.tls", "a client certificate needs both \"certificate\" and \"key\"")
            }
            if let ca { settings.tls = FleetSettings.TLS(caFile: ca, certificateFile: certificate, keyFile: key) }
        }
    }
}
