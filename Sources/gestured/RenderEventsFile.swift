import GestureConfig
import GestureCore
import GestureServer
import GestureSystem
import SystemPackage

/// `gestured render --from-jsonl EVENTS`: the picture from a saved event stream instead of a
/// replay — the JSON Lines of `gestured replay --trace --contacts` (or of a daemon, `run
/// --stdout --trace` with contacts asked for), such as a bug report carries. Each line goes to
/// the same ``RenderCollector`` methods the in-process replay's records go to, so the same
/// events draw the same picture (`RenderTests` checks it byte for byte against `render
/// RECORDING`, the header's file name aside). Read a line at a time: memory is bounded by
/// the longest line, as for `tail`.
struct RenderEventsFile {
    let path: String
    /// With a stream of several screens: only this screen's events (those naming it).
    let screen: String?

    /// The longest line read: the daemon's client queue, as for `tail` (``SocketLineReader``).
    static let maximumLineLength = SocketLineReader.maximumLineLength

    /// Why the file cannot be drawn; `description` names the file and line.
    struct Problem: Error, CustomStringConvertible {
        let description: String
    }

    /// Reads every line into `collector`; throws at the first line that is not a gestured
    /// event, or when the stream lacks the events a picture needs.
    func read(into collector: RenderCollector) throws(Problem) {
        let file: FileDescriptor
        do {
            file = try FileDescriptor.open(path: path, .readOnly)
        } catch {
            throw Problem(description: "\(path): cannot read the events: \(error)")
        }
        defer { try? file.close() }
        var framer = LineFramer(maxLineLength: Self.maximumLineLength)
        var chunk = [UInt8](repeating: 0, count: 1 << 16)
        var number = 0
        var seen = Seen()
        while true {
            let count: Int?
            do {
                count = try file.readAvailable(into: &chunk, subject: path)
            } catch {
                throw Problem(description: "\(path): cannot read the events: \(error)")
            }
            guard let count, count > 0 else { break }
            framer.append(chunk[0..<count])
            while let output = framer.nextRawLine() {
                number += 1
                switch output {
                case .line(let line):
                    try take(line, number: number, into: collector, seen: &seen)
                case .tooLong:
                    throw Problem(description: "\(path):\(number): expected a line of at most \(Self.maximumLineLength) bytes, "
                        + "found a longer one; is this gestured's JSON Lines output?")
                }
            }
        }
        if let rest = framer.takeUnterminated(), !rest.isEmpty {
            number += 1
            try take(rest, number: number, into: collector, seen: &seen)
        }
        if seen.touches && !seen.contacts {
            throw Problem(description: "\(path): the events have touches but no contacts events, so there are no paths to "
                + "draw; save them with gestured replay --trace --contacts (a socket client: subscribe with \"contacts\":true)")
        }
        if seen.contacts && !seen.hitTests {
            throw Problem(description: "\(path): the events have no hitTest events, so no touch's hit view is known; save "
                + "them with gestured replay --trace --contacts (a socket client: subscribe with \"trace\":true)")
        }
    }

    /// Which kinds of events the stream held.
    private struct Seen {
        var touches = false
        var contacts = false
        var hitTests = false
    }

    private func take(_ line: ArraySlice<UInt8>, number: Int, into collector: RenderCollector, seen: inout Seen) throws(Problem) {
        if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D }) { return }
        let value: JSONValue
        do {
            value = try JSONParser.parse(bytes: Array(line), dialect: .json).value
        } catch {
            throw Problem(description: "\(path):\(number): \(error.message); expected one JSON event per line")
        }
        let event = Fields(value: value, where: "\(path):\(number)")
        guard case .object = value, let type = event.string("type"), let time = event.integer("time").map(Int64.init) else {
            throw Problem(description: "\(path):\(number): expected an event with \"type\" and \"time\" (gestured's JSON Lines)")
        }
        if let screen, let own = event.string("screen"), own != screen { return }
        switch type {
        case "device":
            collector.device(event.string("name") ?? "", at: time)
        case "warning":
            collector.warning(event.string("message") ?? "", at: time)
        case "hitTest":
            guard let touch = event.integer("touch") else { return }
            seen.hitTests = true
            collector.hitTest(touch: touch, view: event.string("view"), at: time)
        case "touches":
            seen.touches = true
            let touches = try event.objects("touches").map { touch throws(Problem) in try touch.required(touch.integer("id"), "touches[].id") }
            collector.delivered(touches: touches, responders: event.strings("responders"), at: time)
        case "gesture":
            let name = try event.required(event.string("recognizer"), "recognizer")
            let stateName = try event.required(event.string("state"), "state")
            guard let state = GestureState(rawValue: stateName) else {
                throw Problem(description: "\(path):\(number): \"state\" is \"\(stateName)\", not a recognizer state")
            }
            let reason = event.string("reason").map { cause in
                RenderText.reason(cause, measured: event.number("measured"), limit: event.number("limit"), by: event.string("by"))
            }
            collector.gesture(name, state: state, touches: event.integers("touches"), reason: reason, at: time)
        case "control":
            collector.control(try event.required(event.string("view"), "view"), event: try event.required(event.string("event"), "event"),
                              touch: event.integer("touch") ?? 0, at: time)
        case "contacts":
            seen.contacts = true
            var contacts: [(id: Int, phase: ContactsEvent.Phase, location: Point, recognizer: String?)] = []
            for contact in try event.objects("contacts").prefix(ContactsEvent.maximumContacts) {
                let id = try contact.required(contact.integer("id"), "contacts[].id")
                let phaseName = try contact.required(contact.string("phase"), "contacts[].phase")
                guard let phase = ContactsEvent.Phase(rawValue: phaseName) else {
                    throw Problem(description: "\(path):\(number): a contact's \"phase\" is \"\(phaseName)\", not a contact phase")
                }
                let x = try contact.required(contact.number("x"), "contacts[].x")
                let y = try contact.required(contact.number("y"), "contacts[].y")
                contacts.append((id, phase, Point(x: x, y: y), contact.string("recognizer")))
            }
            collector.contacts(at: time, contacts)
        default:
            // layout, screen and kinds added later draw nothing.
            break
        }
    }

    /// The members of one event object, read leniently (a missing optional member is nil);
    /// `required` turns a missing one into a problem naming the line and the member.
    private struct Fields {
        let value: JSONValue
        let `where`: String

        private var members: [String: JSONValue] {
            if case .object(let members) = value { return members }
            return [:]
        }

        func string(_ key: String) -> String? {
            if case .string(let text)? = members[key] { return text }
            return nil
        }

        func number(_ key: String) -> Double? {
            if case .number(let number)? = members[key], number.value.isFinite { return number.value }
            return nil
        }

        /// A whole number within ±2^53 (times in microseconds, ids).
        func integer(_ key: String) -> Int? {
            guard let value = number(key), value == value.rounded(), abs(value) <= 9_007_199_254_740_992 else { return nil }
            return Int(value)
        }

        func strings(_ key: String) -> [String] {
            guard case .array(let items)? = members[key] else { return [] }
            return items.compactMap { if case .string(let text) = $0 { text } else { nil } }
        }

        func integers(_ key: String) -> [Int] {
            guard case .array(let items)? = members[key] else { return [] }
            return items.compactMap { item in
                guard case .number(let number) = item, number.value == number.value.rounded(), abs(number.value) <= 9e15 else { return nil }
                return Int(number.value)
            }
        }

        func objects(_ key: String) throws(Problem) -> [Fields] {
            guard case .array(let items)? = members[key] else {
                throw Problem(description: "\(`where`): expected \"\(key)\", an array")
            }
            return items.map { Fields(value: $0, where: `where`) }
        }

        func required<Value>(_ value: Value?, _ key: String) throws(Problem) -> Value {
            guard let value else { throw Problem(description: "\(`where`): expected \"\(key)\"") }
            return value
        }
    }
}
