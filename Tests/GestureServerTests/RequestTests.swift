import GestureServer
import Testing

@Suite("Requests")
struct RequestTests {
    static func parse(_ line: String) throws(ProtocolError) -> (id: RequestID?, request: Request) {
        try Request.parse(Array(line.utf8))
    }

    @Test func subscribeReadsItsFilters() throws {
        let (id, request) = try Self.parse(#"{"type":"subscribe","id":7,"kinds":["gesture","control"],"views":["buy*"],"trace":true}"#)
        #expect(id == .number(7))
        guard case .subscribe(let subscription) = request else {
            Issue.record("not a subscribe: \(request)")
            return
        }
        #expect(subscription == Subscription(kinds: ["gesture", "control"], views: [Glob("buy*")], trace: true))
    }

    @Test(arguments: [
        ("{", ProtocolErrorCode.badJSON, nil as RequestID?),
        (#""status""#, .badRequest, nil),
        (#"{"id":1}"#, .badRequest, .number(1)),
        (#"{"type":"status","id":[1]}"#, .badRequest, nil),
        (#"{"type":"stat","id":"a"}"#, .unknownType, .string("a")),
        (#"{"type":"status","id":2,"verbose":true}"#, .badRequest, .number(2)),
        (#"{"type":"subscribe","id":3,"trace":"yes"}"#, .badRequest, .number(3)),
        (#"{"type":"subscribe","id":4,"recognizers":[1]}"#, .badRequest, .number(4)),
        (#"{"type":"layout.set","id":5}"#, .badRequest, .number(5)),
        (#"{"type":"view.update","id":6,"view":"a","set":[]}"#, .badRequest, .number(6)),
        (#"{"type":"hitTest","id":7,"x":1}"#, .badRequest, .number(7)),
    ])
    func badRequestsNameTheProblemAndKeepTheID(line: String, code: ProtocolErrorCode, id: RequestID?) {
        #expect {
            _ = try Self.parse(line)
        } throws: { error in
            guard let error = error as? ProtocolError else { return false }
            return error.code == code && error.requestID == id && !error.message.isEmpty
        }
    }

    @Test func onlyLayoutChangesNeedControl() throws {
        #expect(try Self.parse(#"{"type":"reload"}"#).request.changesLayout)
        #expect(try Self.parse(#"{"type":"view.update","view":"a","set":{}}"#).request.changesLayout)
        #expect(try !Self.parse(#"{"type":"hitTest","x":1,"y":2}"#).request.changesLayout)
        #expect(try !Self.parse(#"{"type":"status"}"#).request.changesLayout)
    }

    @Test func repliesAndErrorsAreOneLineOfJSON() {
        let error = ReplyEncoder.error(ProtocolError(.invalidLayout, "bad \"frame\"", requestID: .string("x"),
                                                     problems: [(path: "layout.frame", message: "negative")]))
        #expect(String(decoding: error, as: UTF8.self) == #"{"type":"error","re":"x","error":{"code":"invalid_layout","message":"bad \"frame\"","problems":[{"path":"layout.frame","message":"negative"}]}}"# + "\n")
        var reply = ReplyEncoder.reply(to: .number(3))
        reply.writer.key("revision"); reply.writer.int(2)
        #expect(String(decoding: reply.finish(), as: UTF8.self) == #"{"type":"reply","re":3,"ok":true,"revision":2}"# + "\n")
        #expect(String(decoding: ReplyEncoder.hello(version: "1.2.3", canControl: false), as: UTF8.self)
                == #"{"type":"hello","protocol":"gestured/1","version":"1.2.3","canControl":false}"# + "\n")
    }
}
