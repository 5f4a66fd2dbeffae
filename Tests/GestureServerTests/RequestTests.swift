import GestureCore
import GestureConfig
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
        (#"{"type":"screen.set","id":8}"#, .badRequest, .number(8)),
        (#"{"type":"screen.set","id":9,"rotation":45}"#, .badRequest, .number(9)),
        (#"{"type":"screen.set","id":10,"rotation":90,"width":0}"#, .badRequest, .number(10)),
        (#"{"type":"screen.set","id":11,"rotation":90,"height":"tall"}"#, .badRequest, .number(11)),
        (#"{"type":"screen.set","id":12,"rotation":90,"flip":true}"#, .badRequest, .number(12)),
    ])
    func badRequestsNameTheProblemAndKeepTheID(line: String, code: ProtocolErrorCode, id: RequestID?) {
        #expect {
            _ = try Self.parse(line)
        } throws: { error in
            guard let error = error as? ProtocolError else { return false }
            return error.code == code && error.requestID == id && !error.message.isEmpty
        }
    }

    @Test func screenSetReadsTheRotationAndAnOptionalSize() throws {
        guard case .screenSet(let rotation, let width, let height) = try Self.parse(
            #"{"type":"screen.set","rotation":270,"width":1080,"height":1920}"#).request else {
            Issue.record("not a screen.set")
            return
        }
        #expect(rotation == .clockwise270 && width == 1080 && height == 1920)
        guard case .screenSet(.none, nil, nil) = try Self.parse(#"{"type":"screen.set","rotation":0}"#).request else {
            Issue.record("not a screen.set without a size")
            return
        }
        #expect(throws: ProtocolError(.badRequest, "\"rotation\" is 45; use 0, 90, 180 or 270 (degrees clockwise of the "
                                      + "panel relative to the screen)")) {
            try Self.parse(#"{"type":"screen.set","rotation":45}"#)
        }
        #expect(String(decoding: ReplyEncoder.encode(.ok(.number(4), .screen(ScreenGeometry(width: 1080, height: 1920,
                                                                                            rotation: .clockwise90)))),
                       as: UTF8.self)
            == #"{"type":"reply","re":4,"ok":true,"screen":{"width":1080.0,"height":1920.0,"rotation":90}}"# + "\n")
    }

    @Test func onlyChangesNeedControl() throws {
        #expect(try Self.parse(#"{"type":"screen.set","rotation":90}"#).request.needsControl)
        #expect(try Self.parse(#"{"type":"reload"}"#).request.needsControl)
        #expect(try Self.parse(#"{"type":"view.update","view":"a","set":{}}"#).request.needsControl)
        #expect(try !Self.parse(#"{"type":"hitTest","x":1,"y":2}"#).request.needsControl)
        #expect(try !Self.parse(#"{"type":"status"}"#).request.needsControl)
    }

    @Test(arguments: [
        (Reply.error(ProtocolError(.invalidLayout, "bad \"frame\"", requestID: .string("x"),
                                   problems: [(path: "layout.frame", message: "negative")])),
         #"{"type":"error","re":"x","error":{"code":"invalid_layout","message":"bad \"frame\"","problems":[{"path":"layout.frame","message":"negative"}]}}"#),
        (.ok(.number(3), .revision(2)), #"{"type":"reply","re":3,"ok":true,"revision":2}"#),
        (.ok(nil, .done), #"{"type":"reply","re":null,"ok":true}"#),
        (.ok(.string("s"), .subscribed(Subscription(kinds: ["gesture", "control"], views: [Glob("buy*")]), trace: false)),
         #"{"type":"reply","re":"s","ok":true,"subscription":{"kinds":["control","gesture"],"views":["buy*"],"recognizers":null,"trace":false}}"#),
        (.hello(version: "1.2.3", startID: StartID(value: 0x00c0_ffee_1234_5678), screens: [], canControl: false),
         #"{"type":"hello","protocol":"gestured/1","version":"1.2.3","startId":"00c0ffee12345678","canControl":false}"#),
        // Several screens: listed before canControl, which still ends the line (the bridge reads it there).
        (.hello(version: "1.2.3", startID: StartID(value: 0xffff_ffff_ffff_ffff), screens: [
            ScreenStatus(id: "customer", device: "Panel A", path: "/dev/input/event4", activeTouches: 0, frames: 0,
                         screen: ScreenGeometry(width: 1920, height: 1080)),
            ScreenStatus(id: "clerk", device: nil, path: nil, activeTouches: 0, frames: 0,
                         screen: ScreenGeometry(width: 1080, height: 1920, rotation: .clockwise90)),
        ], canControl: true),
         #"{"type":"hello","protocol":"gestured/1","version":"1.2.3","startId":"ffffffffffffffff","screens":[{"id":"customer","screen":{"width":1920.0,"height":1080.0,"rotation":0},"device":"Panel A","path":"/dev/input/event4"},{"id":"clerk","screen":{"width":1080.0,"height":1920.0,"rotation":90},"device":null,"path":null}],"canControl":true}"#),
        (.bye(reason: "end", message: "the replay has ended"), #"{"type":"bye","reason":"end","message":"the replay has ended"}"#),
    ])
    func repliesAndErrorsAreOneLineOfJSON(reply: Reply, line: String) {
        #expect(String(decoding: ReplyEncoder.encode(reply), as: UTF8.self) == line + "\n")
    }
}

/// Issue 12 over the socket: requests are read by the same parser as files (strict JSON), so a
/// line too deep or with a number too large gets a precise answer, and any `id` comes back
/// as the client wrote it.
@Suite("Request limits")
struct RequestLimitTests {
    static func error(_ line: String) -> ProtocolError? {
        do {
            _ = try Request.parse(Array(line.utf8))
            return nil
        } catch {
            return error
        }
    }

    @Test func tooDeepALineSaysWhere() {
        let line = #"{"type":"layout.set","layout":"# + String(repeating: "[", count: 100_000)
        let error = Self.error(line)
        #expect(error?.code == .badJSON)
        #expect(error?.message == "the line is not valid JSON: at column 158: objects and arrays nest more than 128 "
            + "levels deep here; that is the limit (docs/limits.md), so flatten the structure")
    }

    @Test(arguments: [
        (#"{"type":"hitTest","x":1e309,"y":1}"#, "the line is not valid JSON: at column 23: the number 1e309 is too large to "
            + "be represented (the largest is about 1.8e308); write a number within the range the key allows"),
        (#"{"type":"hitTest","x":"# + String(repeating: "9", count: 400) + #","y":1}"#, "the line is not valid JSON: at column 23: "
            + "the number 99999999999999999999… (400 characters) is too large to be represented (the largest is about "
            + "1.8e308); write a number within the range the key allows"),
        (#"{"type":"status","id":"\u0000"}"#, "the line is not valid JSON: at column 24: \\u0000 (NUL) is not allowed in a "
            + "string; remove it"),
        (#"{"type":"status","id":"\ud800"}"#, "the line is not valid JSON: at column 24: \\uD800 is the first half of a "
            + "UTF-16 surrogate pair, but no second half (\\uDC00 to \\uDFFF) follows; write both halves, or the character itself"),
    ])
    func numbersAndStringsJSONCannotCarryAreBadJSON(_ line: String, _ message: String) {
        let error = Self.error(line)
        #expect(error?.code == .badJSON)
        #expect(error?.message == message)
    }

    @Test func repeatedFieldsAreBadRequests() {
        let error = Self.error(#"{"type":"status","id":1,"\u0074ype":"reload"}"#)
        #expect(error?.code == .badRequest)
        #expect(error?.requestID == .number(1))
        #expect(error?.message == #"at column 25: the key "type" appears again in this object (first at line 1, column 2); "#
            + "remove one of them, since only one value is used")
    }

    @Test func hitTestPointsAreBounded() {
        let error = Self.error(#"{"type":"hitTest","id":2,"x":2e6,"y":1}"#)
        #expect(error?.code == .badRequest)
        #expect(error?.message == #""x" is 2000000; use a number of points from -1000000 to 1000000"#)
    }

    /// A request id above 2^53 came back as 9007199254740992.0: the client could not match it.
    @Test(arguments: ["9007199254740993", "-9223372036854775809", "18446744073709551617", "1.50", "1e3", "0", "-0"])
    func numericIDsComeBackAsWritten(_ id: String) throws {
        let (parsed, _) = try Request.parse(Array(#"{"type":"status","id":\#(id)}"#.utf8))
        let reply = ReplyEncoder.encode(.ok(parsed, .done))
        #expect(String(decoding: reply, as: UTF8.self) == #"{"type":"reply","re":\#(id),"ok":true}"# + "\n")
        let error = ReplyEncoder.encode(.error(ProtocolError(.forbidden, "no", requestID: parsed)))
        #expect(String(decoding: error, as: UTF8.self).hasPrefix(#"{"type":"error","re":\#(id),"#))
    }

    /// Issue 25: "did you mean" ran an edit distance over the whole of a 1 MB unknown type or
    /// field (0.6–1.4 s of the loop per line), and the message repeated it whole. Long names
    /// get the configuration's rule (none over 64 characters) and are cut in the message.
    @Test(arguments: [
        (#"{"type":"NAME","id":1}"#, ProtocolErrorCode.unknownType),
        (#"{"type":"status","id":1,"NAME":true}"#, .badRequest),
        (#"{"type":"subscribe","id":1,"kinds":["NAME"]}"#, .badRequest),
    ])
    func longNamesAreCutInMessagesAndGetNoSuggestion(template: String, code: ProtocolErrorCode) {
        let long = "subscribe" + String(repeating: "x", count: 1 << 20)
        let error = Self.error(template.replacing("NAME", with: long))
        #expect(error?.code == code)
        #expect(error?.requestID == .number(1))
        let message = error?.message ?? ""
        #expect(message.utf8.count < 400, "the message does not grow with the name")
        #expect(message.contains("\"subscribexxx") && message.contains("…\" (\(long.utf8.count) bytes)"), "\(message)")
        #expect(!message.contains("did you mean"))
        // A typo of a sensible length still gets its suggestion.
        let typo = Self.error(template.replacing("NAME", with: code == .unknownType ? "subscrbe" : "verbos"))
        if code == .unknownType { #expect(typo?.message.contains(#"did you mean "subscribe"?"#) == true) }
    }

    @Test func subscriptionFiltersAreBoundedAndTheLimitIsNamed() throws {
        let many = (0...ServerLimits.maximumPatterns).map { #""v\#($0)*""# }.joined(separator: ",")
        let tooMany = Self.error(#"{"type":"subscribe","id":1,"views":[\#(many)]}"#)
        #expect(tooMany?.code == .badRequest)
        #expect(tooMany?.message == #""views" has 33 patterns; a subscription filter takes at most 32 (docs/limits.md): "#
            + #"name a common prefix with "*" instead"#)
        let long = String(repeating: "a*", count: 33)
        let tooLong = Self.error(#"{"type":"subscribe","id":1,"recognizers":["ok","\#(long)"]}"#)
        #expect(tooLong?.message == #""recognizers"[1] is a pattern of more than 64 characters; patterns may have at "#
            + "most 64 (docs/limits.md)")
        // At the limits: accepted.
        let most = (0..<ServerLimits.maximumPatterns).map { _ in #""\#(String(repeating: "?*", count: 32))""# }.joined(separator: ",")
        guard case .subscribe(let subscription) = try RequestTests.parse(#"{"type":"subscribe","views":[\#(most)],"recognizers":[\#(most)]}"#).request
        else { Issue.record("not a subscribe"); return }
        #expect(subscription.views?.count == 32 && subscription.recognizers?.count == 32)
    }

    @Test func stringIDsAreBounded() throws {
        let long = String(repeating: "i", count: ServerLimits.maximumRequestIDLength + 1)
        let error = Self.error(#"{"type":"status","id":"\#(long)"}"#)
        #expect(error?.code == .badRequest && error?.requestID == nil)
        #expect(error?.message == #""id" is a string of 257 bytes; use a number, or a string of at most 256 bytes (it comes back in the reply)"#)
        let most = String(repeating: "i", count: ServerLimits.maximumRequestIDLength)
        #expect(try RequestTests.parse(#"{"type":"status","id":"\#(most)"}"#).id == .string(most))
    }
}


/// A reload that changes the routing section says it needs a restart (the copy of the panel is
/// made with the panel, docs/routing.md); one that does not says nothing about it.
struct RoutingReloadTests {
    static func configuration(_ routing: RoutingConfiguration?) -> Configuration {
        Configuration(file: "k.json5", screen: ScreenGeometry(width: 10, height: 10),
                      layout: ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 10, height: 10)),
                      layoutSource: .inline(file: "k.json5"), routing: routing)
    }

    @Test func changingRoutingNeedsARestart() {
        let off = Self.configuration(nil), claim = Self.configuration(RoutingConfiguration(defaultRule: .claim))
        #expect(ReloadReport.changesNeedingRestart(from: off, to: claim) == ["routing applies after a restart"])
        #expect(ReloadReport.changesNeedingRestart(from: claim, to: Self.configuration(RoutingConfiguration(defaultRule: .forward)))
            == ["routing applies after a restart"])
        #expect(ReloadReport.changesNeedingRestart(from: claim, to: claim).isEmpty)
    }
}
