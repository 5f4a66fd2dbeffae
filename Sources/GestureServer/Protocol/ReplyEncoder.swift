import GestureCore

/// Turns the server's own lines (``Reply``) into JSON Lines. Events are not its business: they
/// arrive encoded (``EncodedEvents``).
public enum ReplyEncoder {
    /// One line of JSON, newline included.
    public static func encode(_ reply: Reply) -> [UInt8] {
        var writer = JSONWriter()
        writer.beginObject()
        switch reply {
        case .hello(let version, let startID, let screens, let canControl):
            writer.key("type"); writer.string("hello")
            writer.key("protocol"); writer.string(EventServer.protocolName)
            writer.key("version"); writer.string(version)
            writer.key("startId"); writer.string(startID.description)
            if !screens.isEmpty {
                // Before canControl: the line still ends with it, as the bridge reads it.
                writer.key("screens"); writer.beginArray()
                for screen in screens {
                    writer.beginObject()
                    writer.key("id"); writer.string(screen.id)
                    encode(screen.screen, into: &writer)
                    writer.key("device"); optional(screen.device, into: &writer)
                    writer.key("path"); optional(screen.path, into: &writer)
                    writer.endObject()
                }
                writer.endArray()
            }
            writer.key("canControl"); writer.bool(canControl)
        case .ok(let id, let answer):
            writer.key("type"); writer.string("reply")
            writer.key("re"); requestID(id, into: &writer)
            writer.key("ok"); writer.bool(true)
            encode(answer, into: &writer)
        case .error(let error):
            writer.key("type"); writer.string("error")
            writer.key("re"); requestID(error.requestID, into: &writer)
            writer.key("error"); writer.beginObject()
            writer.key("code"); writer.string(error.code.rawValue)
            writer.key("message"); writer.string(error.message)
            if !error.problems.isEmpty {
                writer.key("problems"); problems(error.problems, into: &writer)
            }
            writer.endObject()
        case .bye(let reason, let message):
            writer.key("type"); writer.string("bye")
            writer.key("reason"); writer.string(reason)
            writer.key("message"); writer.string(message)
        case .superseded(let seq, let time, let by, let revision, let message):
            writer.key("type"); writer.string("superseded")
            writer.key("seq"); writer.int(seq)
            writer.key("time"); writer.int(time)
            writer.key("what"); writer.string("layout")
            writer.key("by"); writer.string(by)
            writer.key("revision"); writer.int(revision)
            writer.key("message"); writer.string(message)
        }
        writer.endObject()
        writer.newline()
        return writer.bytes
    }

    private static func encode(_ answer: Reply.Answer, into writer: inout JSONWriter) {
        switch answer {
        case .done:
            break
        case .subscribed(let subscription, let trace):
            writer.key("subscription"); writer.beginObject()
            writer.key("kinds"); strings(subscription.kinds?.sorted(), into: &writer)
            writer.key("views"); strings(subscription.views?.map(\.pattern), into: &writer)
            writer.key("recognizers"); strings(subscription.recognizers?.map(\.pattern), into: &writer)
            writer.key("trace"); writer.bool(trace)
            if subscription.contacts { writer.key("contacts"); writer.bool(true) }
            writer.endObject()
        case .revision(let revision):
            writer.key("revision"); writer.int(revision)
        case .hitTest(let x, let y, let result):
            writer.key("x"); writer.number(x)
            writer.key("y"); writer.number(y)
            writer.key("view")
            if let view = result.view { writer.string(result.tree.id(of: view)) } else { writer.null() }
            writer.key("trace"); strings(result.trace.lines(in: result.tree), into: &writer)
        case .status(let status):
            encode(status, into: &writer)
        case .screen(let screen):
            encode(screen, into: &writer)
        case .reloaded(let report):
            writer.key("revision"); writer.int(report.revision)
            writer.key("layoutChanged"); writer.bool(report.layoutChanged)
            writer.key("needsRestart"); strings(report.needsRestart, into: &writer)
            if !report.screens.isEmpty {
                // Several screens: what the reload did to each (docs/protocol.md, "Several screens").
                writer.key("screens"); writer.beginArray()
                for screen in report.screens {
                    writer.beginObject()
                    writer.key("id"); writer.string(screen.id)
                    writer.key("revision"); writer.int(screen.revision)
                    writer.key("layoutChanged"); writer.bool(screen.layoutChanged)
                    if let kept = screen.keptLayout {
                        writer.key("error"); writer.beginObject()
                        writer.key("code"); writer.string(ProtocolErrorCode.invalidLayout.rawValue)
                        writer.key("message"); writer.string(kept.message)
                        writer.key("problems")
                        problems(kept.problems.map { (path: $0.path, message: $0.message) }, into: &writer)
                        writer.endObject()
                    }
                    writer.endObject()
                }
                writer.endArray()
            }
        }
    }

    private static func encode(_ status: ServerStatus, into writer: inout JSONWriter) {
        writer.key("protocol"); writer.string(EventServer.protocolName)
        writer.key("version"); writer.string(status.version)
        writer.key("startId"); writer.string(status.startID.description)
        writer.key("pid"); writer.int(status.pid)
        if let input = status.input {
            writer.key("input"); writer.beginObject()
            writer.key("source"); writer.string(input.source)
            writer.key("device"); optional(input.device, into: &writer)
            writer.key("path"); optional(input.path, into: &writer)
            writer.key("activeTouches"); writer.int(input.activeTouches)
            if let routes = input.routes {
                writer.key("routes"); writer.beginObject()
                writer.key("claimed"); writer.int(routes.claimed)
                writer.key("forwarded"); writer.int(routes.forwarded)
                writer.key("held"); writer.int(routes.held)
                writer.endObject()
            }
            writer.key("frames"); writer.int(input.frames)
            writer.key("time"); writer.int(input.time)
            writer.endObject()
            writer.key("layout"); writer.beginObject()
            writer.key("revision"); writer.int(input.layoutRevision)
            if let hash = input.layoutHash { writer.key("hash"); writer.string(hash.description) }
            writer.endObject()
            // The screen the layout's frames are in (the web client scales CSS pixels to it).
            encode(input.screen, into: &writer)
            if !input.screens.isEmpty {
                // Several screens: each with its id, panel and geometry (docs/protocol.md).
                writer.key("screens"); writer.beginArray()
                for screen in input.screens {
                    writer.beginObject()
                    writer.key("id"); writer.string(screen.id)
                    writer.key("device"); optional(screen.device, into: &writer)
                    writer.key("path"); optional(screen.path, into: &writer)
                    writer.key("activeTouches"); writer.int(screen.activeTouches)
                    writer.key("frames"); writer.int(screen.frames)
                    encode(screen.screen, into: &writer)
                    writer.endObject()
                }
                writer.endArray()
            }
        }
        writer.key("socket"); writer.string(status.socket)
        writer.key("clients"); writer.beginObject()
        writer.key("connected"); writer.int(status.connected)
        writer.key("subscribed"); writer.int(status.subscribed)
        writer.endObject()
        let counters = status.counters
        writer.key("counters"); writer.beginObject()
        writer.key("connections"); writer.int(counters.connections)
        writer.key("events"); writer.int(counters.eventsPublished)
        writer.key("requests"); writer.int(counters.requests)
        writer.key("errors"); writer.int(counters.errorReplies)
        writer.key("slowConsumers"); writer.int(counters.slowConsumers)
        writer.endObject()
    }

    /// `"screen":{"width":…,"height":…,"rotation":…}`.
    private static func encode(_ screen: ScreenGeometry, into writer: inout JSONWriter) {
        writer.key("screen"); writer.beginObject()
        writer.key("width"); writer.number(screen.size.width)
        writer.key("height"); writer.number(screen.size.height)
        writer.key("rotation"); writer.int(screen.rotation.degrees)
        writer.endObject()
    }

    /// A request's `id` as the client sent it: whole numbers without a fraction.
    private static func requestID(_ id: RequestID?, into writer: inout JSONWriter) {
        switch id {
        case nil: writer.null()
        case .string(let string)?: writer.string(string)
        case .number(let number)?:
            // Requests are read as strict JSON, so the literal is a JSON number; one built in
            // code may not be, and is written as its value.
            if number.literalIsJSON {
                writer.numberLiteral(number.literal)
            } else if number.value == number.value.rounded(), abs(number.value) < 1e15 {
                writer.int(Int64(number.value))
            } else {
                writer.number(number.value)
            }
        }
    }

    /// An error's `problems`: each a key path and what is wrong there.
    private static func problems(_ problems: [(path: String, message: String)], into writer: inout JSONWriter) {
        writer.beginArray()
        for problem in problems {
            writer.beginObject()
            writer.key("path"); writer.string(problem.path)
            writer.key("message"); writer.string(problem.message)
            writer.endObject()
        }
        writer.endArray()
    }

    private static func strings(_ values: [String]?, into writer: inout JSONWriter) {
        guard let values else { return writer.null() }
        writer.beginArray()
        for value in values { writer.string(value) }
        writer.endArray()
    }

    private static func optional(_ value: String?, into writer: inout JSONWriter) {
        if let value { writer.string(value) } else { writer.null() }
    }
}
