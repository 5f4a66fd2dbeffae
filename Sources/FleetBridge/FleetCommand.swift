import GestureConfig
import GestureCore

/// A message on the `command` topic made a request line for the daemon (docs/fleet.md,
/// "Commands"): one JSON object of the socket protocol whose `type` is a control request. The
/// sidecar checks only that much and forwards the object unchanged, `id` included; the daemon
/// validates the rest and applies its own access rules to the sidecar's connection.
public struct FleetCommand: Hashable, Sendable {
    /// The requests the command topic forwards; the others (subscribe, status, hitTest) answer
    /// the sidecar's own connection and mean nothing over MQTT.
    public static let forwarded = ["reload", "layout.set", "view.update", "screen.set"]

    public var type: String
    /// The request as one line, newline included.
    public var line: [UInt8]
    /// The request's `id` exactly as written (`null` when it has none), for the result.
    public var id: [UInt8]

    /// The command in `payload`, or the sentence that says why it is not one.
    public static func parse(_ payload: [UInt8]) -> Result<FleetCommand, CommandProblem> {
        guard payload.count <= FleetLimits.lineLimit else {
            return .failure(CommandProblem("the command is \(payload.count) bytes; at most \(FleetLimits.lineLimit)"))
        }
        let document: JSONParser.Document
        do {
            document = try JSONParser.parse(bytes: payload, dialect: .json)
        } catch {
            return .failure(CommandProblem("the command is not JSON: \(error)"))
        }
        guard case .object(let object) = document.value, let type = object.string("type") else {
            return .failure(CommandProblem("the command must be an object with a \"type\""))
        }
        guard forwarded.contains(type) else {
            return .failure(CommandProblem("\"\(type.prefix(64))\" is not a command; allowed: "
                                           + forwarded.joined(separator: ", ")))
        }
        var id: [UInt8] = Array("null".utf8)
        switch object["id"] {
        case .string(let text)?: id = JSONWriter.quoted(text)
        case .number(let number)?: id = Array(number.literal.utf8)
        default: break
        }
        // Valid JSON holds a raw line break only as whitespace between tokens: a space means
        // the same and keeps the request on one line.
        var line = payload.map { $0 == 0x0A || $0 == 0x0D ? UInt8(ascii: " ") : $0 }
        line.append(0x0A)
        return .success(FleetCommand(type: type, line: line, id: id))
    }
}

/// Why a command was not forwarded.
public struct CommandProblem: Error, Hashable, Sendable {
    public var message: String
    public init(_ message: String) { self.message = message }
}

