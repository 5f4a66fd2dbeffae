import GestureCore
import GestureServer
import TestSupport
import Testing

@Suite("Subscriptions and globs")
struct SubscriptionTests {
    @Test(arguments: [
        ("carousel*", "carousel", true), ("carousel*", "carouselPage2", true), ("carousel*", "myCarousel", false),
        ("*Button", "buyButton", true), ("*Button", "Button", true), ("*Button", "buttons", false),
        ("b?y", "buy", true), ("b?y", "by", false), ("*a*b*", "xaxxbx", true), ("*a*b*", "xbxa", false),
        ("exact", "exact", true), ("exact", "exactly", false), ("*", "", true), ("", "", true), ("", "x", false),
    ])
    func globs(pattern: String, text: String, matches: Bool) {
        #expect(Glob(pattern).matches(text) == matches)
    }

    static let touchesOnLeft = EventSummary(kind: "touches", views: .ids(["left", "screen"]))
    static let panOnLeft = EventSummary(kind: "gesture", views: .ids(["left"]), recognizer: "leftPan")
    static let failedTap = EventSummary(kind: "gesture", views: .ids(["screen"]), recognizer: "screenTap", isTraceOnly: true)
    static let layout = EventSummary(kind: "layout")
    static let missedHitTest = EventSummary(kind: "hitTest", views: .ids([]), isTraceOnly: true)

    @Test func filtersCombineWithAndAndApplyOnlyToEventsThatNameViewsOrRecognizers() {
        let everything = Subscription()
        #expect(everything.matches(Self.touchesOnLeft) && everything.matches(Self.layout) && everything.matches(Self.panOnLeft))
        // Responders count: touches on "left" reach "screen".
        #expect(Subscription(views: [Glob("screen")]).matches(Self.touchesOnLeft))
        #expect(!Subscription(views: [Glob("screen")]).matches(Self.panOnLeft))
        // Events without views pass a views filter; kinds choose them.
        #expect(Subscription(views: [Glob("nothing")]).matches(Self.layout))
        #expect(!Subscription(kinds: ["gesture"]).matches(Self.layout))
        // recognizers filters gesture events only.
        #expect(Subscription(recognizers: [Glob("left*")]).matches(Self.panOnLeft))
        #expect(!Subscription(recognizers: [Glob("right*")]).matches(Self.panOnLeft))
        #expect(Subscription(recognizers: [Glob("right*")]).matches(Self.touchesOnLeft))
        #expect(!Subscription(kinds: ["touches"], views: [Glob("right")]).matches(Self.touchesOnLeft))
    }

    @Test func traceOnlyEventsGoToSubscribersThatAskForThem() {
        #expect(!Subscription().matches(Self.failedTap))
        #expect(Subscription(trace: true).matches(Self.failedTap))
        #expect(Subscription().matches(Self.failedTap, traceAll: true))
        // Asking for the hitTest kind asks for tracing; a hit test that found nothing names no
        // view, so a views filter leaves it out.
        let hitTests = Subscription(kinds: ["hitTest"])
        #expect(hitTests.trace && hitTests.matches(Self.missedHitTest))
        #expect(!Subscription(kinds: ["hitTest"], views: [Glob("*")]).matches(Self.missedHitTest))
    }

    /// `contacts` events go to the subscribers that ask, whatever their other filters, and to
    /// no other: not to one that takes every kind, nor with `--trace`.
    @Test func contactsGoOnlyToSubscribersThatAskForThem() {
        let contacts = EventSummary(.contacts(ContactsEvent(time: Timestamp(microseconds: 5), contacts: [])))
        #expect(contacts.isContacts && contacts.kind == "contacts")
        #expect(!Subscription().matches(contacts) && !Subscription().matches(contacts, traceAll: true))
        #expect(!Subscription(trace: true).matches(contacts))
        #expect(Subscription(contacts: true).matches(contacts))
        #expect(Subscription(kinds: ["gesture"], views: [Glob("nothing")], recognizers: [Glob("none")], contacts: true)
            .matches(contacts))
        let kind = Subscription(kinds: ["contacts"])
        #expect(kind.contacts && kind.matches(contacts) && !kind.matches(Self.touchesOnLeft))
        // Asking for contacts changes nothing for the other events.
        #expect(!Subscription(kinds: ["gesture"], contacts: true).matches(Self.touchesOnLeft))
        #expect(Subscription(contacts: true).matches(Self.touchesOnLeft) && !Subscription(contacts: true).matches(Self.failedTap))
    }
}

/// Issue 25: a glob costs one step per character of the id whatever its stars, and a
/// subscriber's filters remember their answers; both must answer as the plain definitions do.
@Suite("Glob matching without backtracking, and the filters' memory")
struct GlobEquivalenceTests {
    /// The definition: `*` any run, `?` one character, the rest themselves (recursive, for
    /// short test strings only).
    static func reference(_ pattern: [Unicode.Scalar], _ text: [Unicode.Scalar]) -> Bool {
        guard let first = pattern.first else { return text.isEmpty }
        if first == "*" {
            return (0...text.count).contains { reference(Array(pattern.dropFirst()), Array(text.dropFirst($0))) }
        }
        guard let head = text.first, first == "?" || first == head else { return false }
        return reference(Array(pattern.dropFirst()), Array(text.dropFirst()))
    }

    @Test func randomPatternsMatchAsTheDefinitionSays() {
        var random = SeededRandom(seed: 25)
        let alphabet: [Unicode.Scalar] = ["a", "b", "*", "?", "é"]
        for _ in 0..<20_000 {
            let pattern = (0..<Int.random(in: 0...8, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
            let text = (0..<Int.random(in: 0...9, using: &random)).map { _ in alphabet.randomElement(using: &random)! }
                .filter { $0 != "*" && $0 != "?" }
            let patternString = String(String.UnicodeScalarView(pattern)), textString = String(String.UnicodeScalarView(text))
            #expect(Glob(patternString).matches(textString) == Self.reference(pattern, text),
                    "\(patternString) against \(textString)")
        }
    }

    @Test(arguments: [
        (String(repeating: "*a", count: 32), String(repeating: "a", count: 31) + "b", false),
        (String(repeating: "*a", count: 32), String(repeating: "a", count: 32), true),
        (String(repeating: "?", count: 64), String(repeating: "x", count: 64), true),
        (String(repeating: "?", count: 64), String(repeating: "x", count: 65), false),
        ("*" + String(repeating: "ab", count: 31) + "*", String(repeating: "ab", count: 500), true),
    ])
    func patternsAtTheLimitMatchAsWritten(pattern: String, text: String, matches: Bool) {
        #expect(Glob(pattern).matches(text) == matches)
    }
}
