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

    @Test(arguments: [
        (Reply.error(ProtocolError(.invalidLayout, "bad \"frame\"", requestID: .string("x"),
                                   problems: [(path: "layout.frame", message: "negative")])),
         #"{"type":"error","re":"x","error":{"code":"invalid_layout","message":"bad \"frame\"","problems":[{"path":"layout.frame","message":"negative"}]}}"#),
        (.ok(.number(3), .revision(2)), #"{"type":"reply","re":3,"ok":true,"revision":2}"#),
        (.ok(nil, .done), #"{"type":"reply","re":null,"ok":true}"#),
        (.ok(.string("s"), .subscribed(Subscription(kinds: ["gesture", "control"], views: [Glob("buy*")]), trace: false)),
         #"{"type":"reply","re":"s","ok":true,"subscription":{"kinds":["control","gesture"],"views":["buy*"],"recognizers":null,"trace":false}}"#),
        (.hello(version: "1.2.3", canControl: false),
         #"{"type":"hello","protocol":"gestured/1","version":"1.2.3","canControl":false}"#),
        (.bye(reason: "end", message: "the replay has ended"), #"{"type":"bye","reason":"end","message":"the replay has ended"}"#),
    ])
    func repliesAndErrorsAreOneLineOfJSON(reply: Reply, line: String) {
        #expect(String(decoding: ReplyEncoder.encode(reply), as: UTF8.self) == line + "\n")
    }
}
