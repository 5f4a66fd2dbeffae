#if canImport(Glibc)
import Glibc
#endif
import Foundation
import GestureServer
import Testing
@testable import WebBridge

/// The requests that change state have one home, `RequestType` (issue 30): the daemon's
/// parser, the bridge's token gate and the page library's lists are checked against it, so a
/// request added to one and not the others fails here.
struct RequestListTests {
    /// The string members of the `new Set([...])` that `web/gestured.js` assigns to `name`
    /// (web/dist is built from it, and checked against it by scripts/build-web.sh --check).
    static func jsSet(_ name: String, in source: String) throws -> Set<String> {
        let start = try #require(source.range(of: name + " = new Set(["), "\(name) is not in the page library")
        let end = try #require(source[start.upperBound...].range(of: "])"))
        let body = source[start.upperBound..<end.lowerBound]
        var names = Set<String>()
        for item in body.split(separator: ",") {
            let trimmed = item.trimmingCharacters(in: .whitespaces)
            #expect(trimmed.hasPrefix("\"") && trimmed.hasSuffix("\""), "\(name) holds \(trimmed), not a string")
            names.insert(String(trimmed.dropFirst().dropLast()))
        }
        return names
    }

    static let changing = Set(RequestType.allCases.filter(\.changesState).map(\.rawValue))
    static let onScreen = Set(RequestType.allCases.filter(\.takesScreen).map(\.rawValue))

    @Test func thePageLibrarysListsAreTheDaemonsTable() throws {
        let source = try String(contentsOfFile: Paths.packageRoot + "/web/gestured.js", encoding: .utf8)
        #expect(try Self.jsSet("const CHANGING", in: source) == Self.changing)
        #expect(try Self.jsSet("const ON_SCREEN", in: source) == Self.onScreen)
        #expect(Self.changing == ["layout.set", "view.update", "screen.set", "reload"])
    }

    @Test func everyTypeInTheTableIsReadByTheParserAndTheParserKnowsNoOther() throws {
        #expect(Request.types == RequestType.allCases.map(\.rawValue))
        for type in RequestType.allCases {
            // Unknown fields are refused by name, so a type the parser did not know would be
            // unknown_type instead.
            do {
                _ = try Request.parse(Array(#"{"type":"\#(type.rawValue)","bogus":1}"#.utf8))
                Issue.record("\(type.rawValue) with an unknown field was accepted")
            } catch {
                #expect(error.code == .badRequest, "\(type.rawValue): \(error.message)")
                #expect(error.message.contains(#"has no field "bogus""#), "\(error.message)")
                #expect(error.message.contains(#""screen""#) == type.takesScreen, "\(type.rawValue): \(error.message)")
            }
        }
    }

    /// Without the token, the gate refuses exactly the types the table says change state: a
    /// minimal valid request of each type is built, and its verdict compared with the table.
    @Test func theGateRefusesExactlyTheChangingTypes() throws {
        let minimal: [RequestType: String] = [
            .subscribe: #"{"type":"subscribe"}"#,
            .unsubscribe: #"{"type":"unsubscribe"}"#,
            .layoutSet: #"{"type":"layout.set","layout":{"id":"a","frame":[0,0,1,1]}}"#,
            .viewUpdate: #"{"type":"view.update","view":"a","set":{"hidden":true}}"#,
            .screenSet: #"{"type":"screen.set","rotation":90}"#,
            .hitTest: #"{"type":"hitTest","x":1,"y":1,"screen":"main"}"#,
            .status: #"{"type":"status"}"#,
            .reload: #"{"type":"reload"}"#,
        ]
        #expect(Set(minimal.keys) == Set(RequestType.allCases), "a minimal request for every type")
        let gate = RequestGate(mayChange: false)
        for (type, line) in minimal {
            switch gate.verdict(on: Array(line.utf8)) {
            case .forward: #expect(!type.changesState, "\(type.rawValue) went through without the token")
            case .refuse(let reply):
                let text = String(decoding: reply, as: UTF8.self)
                #expect(type.changesState, "\(type.rawValue) was refused: \(text)")
                #expect(text.contains(#""code":"forbidden""#) && text.contains("token for \(type.rawValue)"), "\(text)")
            case .nothing, .tooLong: Issue.record("\(type.rawValue): no verdict")
            }
        }
    }
}
