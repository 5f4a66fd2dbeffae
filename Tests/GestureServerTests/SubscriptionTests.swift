import GestureCore
import GestureServer
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
}
