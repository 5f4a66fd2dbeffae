import GestureCore

/// Builds the server's own lines (SPEC 9): `hello`, replies, errors and `bye`. Events are
/// encoded by the core's ``EventEncoder``.
public struct ReplyEncoder {
    public var writer = JSONWriter()

    public init() {}

    /// `{"type":"hello","protocol":"gestured/1","version":"…","canControl":true}`.
    public static func hello(version: String, canControl: Bool) -> [UInt8] {
        var encoder = ReplyEncoder()
        encoder.writer.beginObject()
        encoder.writer.key("type"); encoder.writer.string("hello")
        encoder.writer.key("protocol"); encoder.writer.string(EventServer.protocolName)
        encoder.writer.key("version"); encoder.writer.string(version)
        encoder.writer.key("canControl"); encoder.writer.bool(canControl)
        return encoder.finish()
    }

    /// `{"type":"error","re":…,"error":{"code":"…","message":"…","problems":[…]}}`.
    public static func error(_ error: ProtocolError) -> [UInt8] {
        var encoder = ReplyEncoder()
        encoder.writer.beginObject()
        encoder.writer.key("type"); encoder.writer.string("error")
        encoder.writer.key("re"); encoder.requestID(error.requestID)
        encoder.writer.key("error"); encoder.writer.beginObject()
        encoder.writer.key("code"); encoder.writer.string(error.code.rawValue)
        encoder.writer.key("message"); encoder.writer.string(error.message)
        if !error.problems.isEmpty {
            encoder.writer.key("problems"); encoder.writer.beginArray()
            for problem in error.problems {
                encoder.writer.beginObject()
                encoder.writer.key("path"); encoder.writer.string(problem.path)
                encoder.writer.key("message"); encoder.writer.string(problem.message)
                encoder.writer.endObject()
            }
            encoder.writer.endArray()
        }
        encoder.writer.endObject()
        return encoder.finish()
    }

    /// `{"type":"bye","reason":"…","message":"…"}`: the server is about to close the connection.
    public static func bye(reason: String, message: String) -> [UInt8] {
        var encoder = ReplyEncoder()
        encoder.writer.beginObject()
        encoder.writer.key("type"); encoder.writer.string("bye")
        encoder.writer.key("reason"); encoder.writer.string(reason)
        encoder.writer.key("message"); encoder.writer.string(message)
        return encoder.finish()
    }

    /// Starts `{"type":"reply","re":…,"ok":true`; add fields with ``writer`` and end with ``finish()``.
    public static func reply(to id: RequestID?) -> ReplyEncoder {
        var encoder = ReplyEncoder()
        encoder.writer.beginObject()
        encoder.writer.key("type"); encoder.writer.string("reply")
        encoder.writer.key("re"); encoder.requestID(id)
        encoder.writer.key("ok"); encoder.writer.bool(true)
        return encoder
    }

    public mutating func requestID(_ id: RequestID?) {
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

    /// Closes the object and returns the line with its newline.
    public mutating func finish() -> [UInt8] {
        writer.endObject()
        writer.newline()
        return writer.bytes
    }
}
