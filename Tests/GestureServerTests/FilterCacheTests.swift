import GestureCore
@testable import GestureServer
import TestSupport
import Testing

/// Issue 25: a subscriber's filters remember what their patterns said about each id, so an
/// event costs a lookup, not a match per pattern. The memory must never change an answer.
@Suite("Filter memory")
struct FilterCacheTests {
    @Test func rememberedAnswersAreTheSubscriptionsAnswers() {
        var random = SeededRandom(seed: 2025)
        let ids = (0..<600).map { "view\($0 % 300)-\($0 / 300)" } + ["screen", "left", "leftPan", "screenTap"]
        let patterns = ["view1*", "*-1", "view?-0", "screen", "left*", "*Tap", "*9*"]
        let kinds = ["touches", "gesture", "control", "layout"]
        for _ in 0..<50 {
            let subscription = Subscription(
                kinds: Bool.random(using: &random) ? nil : Set(kinds.shuffled(using: &random).prefix(2)),
                views: Bool.random(using: &random) ? nil : Array(patterns.shuffled(using: &random).prefix(3)).map(Glob.init),
                recognizers: Bool.random(using: &random) ? nil : Array(patterns.shuffled(using: &random).prefix(2)).map(Glob.init),
                trace: Bool.random(using: &random))
            let cache = FilterCache(subscription)
            // More distinct ids than a table keeps: it starts again and still answers alike.
            for _ in 0..<2_000 {
                let kind = kinds.randomElement(using: &random)!
                let named = (0..<Int.random(in: 0...3, using: &random)).map { _ in ids.randomElement(using: &random)! }
                let event = EventSummary(kind: kind, views: kind == "layout" ? .none : .ids(named),
                                         recognizer: kind == "gesture" ? ids.randomElement(using: &random) : nil,
                                         isTraceOnly: Int.random(in: 0..<5, using: &random) == 0)
                let traceAll = Int.random(in: 0..<7, using: &random) == 0
                #expect(cache.matches(event, traceAll: traceAll) == subscription.matches(event, traceAll: traceAll))
            }
        }
    }
}
