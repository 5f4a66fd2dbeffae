import GestureConfig
import GestureCore

/// One request of a client (docs/protocol.md, "Requests and replies"), read from one line of JSON.
public enum Request: Sendable {
    case subscribe(Subscription)
    case unsubscribe
    /// The new root view, as sent (validated by the configuration reader).
    case layoutSet(JSONValue)
    /// The view's id and the keys to change.
    case viewUpdate(view: String, changes: JSONValue)
    case hitTest(x: Double, y: Double)
    case status
    case reload
    /// The panel's rotation for touches that begin from now on, and the screen's size in
    /// points when it changes too (nil: as it is).
    case screenSet(rotation: ScreenRotation, width: Double?, height: Double?)

    /// The request types, for messages that list them (``RequestType``'s table).
    public static let types = RequestType.allCases.map(\.rawValue)

    /// The request's type, as a client writes it.
    public var type: RequestType {
        switch self {
        case .subscribe: .subscribe
        case .unsubscribe: .unsubscribe
        case .layoutSet: .layoutSet
        case .viewUpdate: .viewUpdate
        case .hitTest: .hitTest
        case .status: .status
        case .reload: .reload
        case .screenSet: .screenSet
        }
    }

    /// Whether the request changes what the daemon does (the layout, the screen, the
    /// configuration) and so needs a peer allowed to control (``RequestType/changesState``).
    public var needsControl: Bool { type.changesState }

    /// Reads one line; throws a ``ProtocolError`` naming the problem (and the request's id,
    /// once it could be read). The `screen` a request may name is dropped: ``read(_:)`` keeps it.
    public static func parse(_ line: some Collection<UInt8>) throws(ProtocolError) -> (id: RequestID?, request: Request) {
        let read = try read(line)
        return (read.id, read.request)
    }

    /// Reads one line, with the `screen` it names (docs/protocol.md, "Several screens"); throws
    /// a ``ProtocolError`` naming the problem (and the request's id, once it could be read).
    public static func read(_ line: some Collection<UInt8>) throws(ProtocolError) -> ParsedRequest {
        let document: JSONParser.Document
        do {
            document = try JSONParser.parse(bytes: Array(line), dialect: .json)
        } catch {
            throw ProtocolError(.badJSON, "the line is not valid JSON: at column \(error.position.column): \(error.message)")
        }
        let value = document.value
        guard case .object(let members) = value else {
            throw ProtocolError(.badRequest, "a request is a JSON object with a \"type\", found \(describe(value))")
        }
        var id: RequestID?
        switch members["id"] {
        case nil, .null?: id = nil
        case .number(let number)?: id = .number(number)
        case .string(let string)? where string.utf8.count <= ServerLimits.maximumRequestIDLength: id = .string(string)
        case .string(let string)?:
            throw ProtocolError(.badRequest, "\"id\" is a string of \(string.utf8.count) bytes; use a number, or a string of "
                + "at most \(ServerLimits.maximumRequestIDLength) bytes (it comes back in the reply)")
        case let other?:
            throw ProtocolError(.badRequest, "\"id\" must be a number or a string, found \(describe(other))")
        }
        if let duplicate = document.duplicateKeys.first {
            throw ProtocolError(.badRequest, "at column \(duplicate.position.column): \(duplicate.message)", requestID: id)
        }
        let reader = FieldReader(members: members, id: id)
        guard let typeValue = members["type"] else {
            throw ProtocolError(.badRequest, "the request has no \"type\"; add one of \(list(types))", requestID: id)
        }
        guard case .string(let type) = typeValue else {
            throw ProtocolError(.badRequest, "\"type\" must be a string, found \(describe(typeValue))", requestID: id)
        }
        guard let requestType = RequestType(rawValue: type) else {
            var message = "\(quote(type)) is not a request type; use \(list(types))"
            if let near = suggestion(for: type, among: types) { message = "\(quote(type)) is not a request type; did you mean \"\(near)\"?" }
            throw ProtocolError(.unknownType, message, requestID: id)
        }
        // The screen a request for one screen's layout or state names: read, and checked to be
        // a screen id at all; the server answers one it does not have.
        var screen: String?
        if requestType.takesScreen {
            screen = try reader.string("screen")
            if let screen, ConfigurationLimits.screenIDProblem(screen) != nil {
                let length = ConfigurationLimits.screenIDLength
                throw ProtocolError(.badRequest, "\"screen\" is \(quote(screen)), which is not a screen id: one has "
                    + "\(length.lowerBound) to \(length.upperBound) characters A–Z a–z 0–9 - _ (the ids of the configuration's "
                    + "screens; the hello lists them)", requestID: id)
            }
        }
        let fields = requestType.takesScreen ? ["screen"] : []
        let request: Request
        switch requestType {
        case .subscribe:
            try reader.allow(["kinds", "views", "recognizers", "trace", "contacts"], in: type)
            let kinds = try reader.strings("kinds")
            if let kinds {
                for kind in kinds where !Subscription.knownKinds.contains(kind) {
                    throw ProtocolError(.badRequest, "\"kinds\" names \(quote(kind)), which is not an event type; use \(list(Subscription.knownKinds))",
                                        requestID: id)
                }
            }
            request = .subscribe(Subscription(kinds: kinds.map(Set.init), views: try reader.patterns("views"),
                                              recognizers: try reader.patterns("recognizers"),
                                              trace: try reader.bool("trace") ?? false,
                                              contacts: try reader.bool("contacts") ?? false))
        case .unsubscribe:
            try reader.allow([], in: type)
            request = .unsubscribe
        case .layoutSet:
            try reader.allow(["layout"] + fields, in: type)
            guard let layout = members["layout"] else {
                throw ProtocolError(.badRequest, "layout.set needs \"layout\": the root view { \"id\", \"frame\", … }", requestID: id)
            }
            request = .layoutSet(layout)
        case .viewUpdate:
            try reader.allow(["view", "set"] + fields, in: type)
            guard let view = try reader.string("view") else {
                throw ProtocolError(.badRequest, "view.update needs \"view\": the id of the view to change", requestID: id)
            }
            guard let changes = members["set"] else {
                throw ProtocolError(.badRequest, "view.update needs \"set\": the keys to change, such as {\"hidden\": true}",
                                    requestID: id)
            }
            guard case .object = changes else {
                throw ProtocolError(.badRequest, "\"set\" must be an object of view keys, found \(describe(changes))", requestID: id)
            }
            request = .viewUpdate(view: view, changes: changes)
        case .hitTest:
            try reader.allow(["x", "y"] + fields, in: type)
            guard let x = try reader.number("x"), let y = try reader.number("y") else {
                throw ProtocolError(.badRequest, "hitTest needs \"x\" and \"y\", numbers in screen points", requestID: id)
            }
            for (key, value) in [("x", x), ("y", y)] where abs(value) > LayoutLimits.points {
                let limit = LayoutValidator.describe(LayoutLimits.points)
                throw ProtocolError(.badRequest, "\"\(key)\" is \(LayoutValidator.describe(value)); use a number of points "
                    + "from -\(limit) to \(limit)", requestID: id)
            }
            request = .hitTest(x: x, y: y)
        case .screenSet:
            try reader.allow(["rotation", "width", "height"] + fields, in: type)
            guard let degrees = try reader.number("rotation") else {
                throw ProtocolError(.badRequest, "screen.set needs \"rotation\": 0, 90, 180 or 270, the panel's rotation in "
                    + "degrees clockwise relative to the screen", requestID: id)
            }
            guard let rotation = Int(exactly: degrees).flatMap(ScreenRotation.init(degrees:)) else {
                throw ProtocolError(.badRequest, "\"rotation\" is \(LayoutValidator.describe(degrees)); use 0, 90, 180 or 270 "
                    + "(degrees clockwise of the panel relative to the screen)", requestID: id)
            }
            let width = try reader.number("width"), height = try reader.number("height")
            for (key, value) in [("width", width), ("height", height)] {
                guard let value else { continue }
                if !(value > 0 && value <= LayoutLimits.points) {
                    throw ProtocolError(.badRequest, "\"\(key)\" is \(LayoutValidator.describe(value)); use a number of points "
                        + "greater than 0 and at most \(LayoutValidator.describe(LayoutLimits.points))", requestID: id)
                }
            }
            request = .screenSet(rotation: rotation, width: width, height: height)
        case .status:
            try reader.allow([], in: type)
            request = .status
        case .reload:
            try reader.allow([], in: type)
            request = .reload
        }
        return ParsedRequest(id: id, request: request, screen: screen)
    }

    static func list(_ words: [String]) -> String { words.map { "\"\($0)\"" }.joined(separator: ", ") }

    /// How a message names a value it did not expect: "a number" (the socket's requests and
    /// gestured-mqtt's settings).
    public static func describe(_ value: JSONValue) -> String {
        switch value {
        case .object: "an object"
        case .array: "an array"
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        }
    }

    /// The likely intent of a mistyped name, for "did you mean": the configuration's rule and
    /// bound (``LayoutValidator/suggestion(for:among:budget:)``: names of more than 64
    /// characters get none, and the search spends at most ``LayoutLimits/suggestionBudget``
    /// steps). A name of more than 256 bytes is not even read: it has more than 64 characters
    /// but for pathological ones (a letter under hundreds of combining marks), and reading
    /// it as characters would cost as much as the rest of the request.
    static func suggestion(for word: String, among candidates: [String]) -> String? {
        guard word.utf8.count <= 4 * ServerLimits.echoedNameLength else { return nil }
        var budget = LayoutLimits.suggestionBudget
        return LayoutValidator.suggestion(for: word, among: candidates, budget: &budget)
    }

    /// A name the client sent, quoted for a message: whole up to ``ServerLimits/echoedNameLength``
    /// characters, else cut there with its length in bytes, so no reply grows with what a
    /// client sent (a 1 MiB unknown type was echoed whole).
    static func quote(_ name: String) -> String {
        if name.utf8.count <= ServerLimits.echoedNameLength { return "\"\(name)\"" }
        let shown = name.prefix(ServerLimits.echoedNameLength)
        if shown.endIndex == name.endIndex { return "\"\(name)\"" }
        return "\"\(shown)…\" (\(name.utf8.count) bytes)"
    }
}

/// The requests of the protocol, one row each: its type as a client writes it, whether it
/// changes state (and so needs a peer allowed to control, and the bridge's token), and whether
/// it acts on one screen (and so takes `screen`). The one list: ``Request/parse(_:)`` reads by
/// it, ``BridgeGate`` (the bridge's token) decides by it, and a test checks the page library's
/// list (`web/gestured.js`) against it.
public enum RequestType: String, CaseIterable, Sendable {
    case subscribe
    case unsubscribe
    case layoutSet = "layout.set"
    case viewUpdate = "view.update"
    case screenSet = "screen.set"
    case hitTest
    case status
    case reload

    /// Changes what the daemon does (the layout, the screen, the configuration).
    public var changesState: Bool {
        switch self {
        case .layoutSet, .viewUpdate, .screenSet, .reload: true
        case .subscribe, .unsubscribe, .hitTest, .status: false
        }
    }

    /// Acts on one screen's layout or state, and so takes `screen` (docs/protocol.md,
    /// "Several screens").
    public var takesScreen: Bool {
        switch self {
        case .layoutSet, .viewUpdate, .screenSet, .hitTest: true
        case .subscribe, .unsubscribe, .status, .reload: false
        }
    }
}

/// One request line as read: its id, the request, and the screen it names (nil: none named).
public struct ParsedRequest: Sendable {
    public var id: RequestID?
    public var request: Request
    public var screen: String?

    public init(id: RequestID?, request: Request, screen: String? = nil) {
        (self.id, self.request, self.screen) = (id, request, screen)
    }
}

/// Reads typed fields of a request, throwing `bad_request` with the field's name.
private struct FieldReader {
    let members: [String: JSONValue]
    let id: RequestID?

    func allow(_ fields: [String], in type: String) throws(ProtocolError) {
        for key in members.keys.sorted() where key != "type" && key != "id" && !fields.contains(key) {
            var message = "\(type) has no field \(Request.quote(key))"
            if let near = Request.suggestion(for: key, among: fields) {
                message += "; did you mean \"\(near)\"?"
            } else if fields.isEmpty {
                message += "; it takes only \"type\" and \"id\""
            } else {
                message += "; its fields are \(Request.list(fields))"
            }
            throw ProtocolError(.badRequest, message, requestID: id)
        }
    }

    func strings(_ key: String) throws(ProtocolError) -> [String]? {
        guard let value = members[key] else { return nil }
        guard case .array(let elements) = value else {
            throw ProtocolError(.badRequest, "\"\(key)\" must be an array of strings, found \(Request.describe(value))", requestID: id)
        }
        var strings: [String] = []
        for (index, element) in elements.enumerated() {
            guard case .string(let string) = element else {
                throw ProtocolError(.badRequest, "\"\(key)\"[\(index)] must be a string, found \(Request.describe(element))",
                                    requestID: id)
            }
            strings.append(string)
        }
        return strings
    }

    /// A subscription filter: at most ``ServerLimits/maximumPatterns`` patterns of at most
    /// ``ServerLimits/maximumPatternLength`` characters each, counted before any is read.
    func patterns(_ key: String) throws(ProtocolError) -> [Glob]? {
        if case .array(let elements)? = members[key], elements.count > ServerLimits.maximumPatterns {
            throw ProtocolError(.badRequest, "\"\(key)\" has \(elements.count) patterns; a subscription filter takes at most "
                + "\(ServerLimits.maximumPatterns) (docs/limits.md): name a common prefix with \"*\" instead", requestID: id)
        }
        guard let strings = try strings(key) else { return nil }
        for (index, pattern) in strings.enumerated() {
            // Bytes first, so a megabyte is not walked character by character.
            let length = pattern.utf8.count <= 4 * ServerLimits.maximumPatternLength
                ? pattern.unicodeScalars.count : pattern.utf8.count
            if length > ServerLimits.maximumPatternLength {
                throw ProtocolError(.badRequest, "\"\(key)\"[\(index)] is a pattern of more than \(ServerLimits.maximumPatternLength) "
                    + "characters; patterns may have at most \(ServerLimits.maximumPatternLength) (docs/limits.md)", requestID: id)
            }
        }
        return strings.map(Glob.init)
    }

    func string(_ key: String) throws(ProtocolError) -> String? {
        guard let value = members[key] else { return nil }
        guard case .string(let string) = value else {
            throw ProtocolError(.badRequest, "\"\(key)\" must be a string, found \(Request.describe(value))", requestID: id)
        }
        return string
    }

    func number(_ key: String) throws(ProtocolError) -> Double? {
        guard let value = members[key] else { return nil }
        guard case .number(let number) = value else {
            throw ProtocolError(.badRequest, "\"\(key)\" must be a number, found \(Request.describe(value))", requestID: id)
        }
        return number.value
    }

    func bool(_ key: String) throws(ProtocolError) -> Bool? {
        guard let value = members[key] else { return nil }
        guard case .bool(let bool) = value else {
            throw ProtocolError(.badRequest, "\"\(key)\" must be true or false, found \(Request.describe(value))", requestID: id)
        }
        return bool
    }
}
