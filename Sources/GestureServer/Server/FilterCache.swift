import GestureCore

/// One subscriber's filters, with what its `views` and `recognizers` patterns said about each
/// id remembered, so that an event costs a subscriber a lookup per id it names instead of a
/// match per pattern. Answers exactly as ``Subscription/matches(_:traceAll:)``.
///
/// Matching every pattern on every event for every subscriber was the cost that grew without
/// bound (150,000 globs put another subscriber's events 1.5 s late). Now an id costs at most
/// ``ServerLimits/maximumPatterns`` matches of one step per character (``Glob``) the first
/// time, and a lookup afterwards. An answer depends only on the id, so it holds across layouts.
/// Each table keeps at most ``idLimit`` ids and starts again when full: a layout with more
/// views than that under one touch costs a match now and then, never unbounded memory. A
/// class, held by the client's state: an event updates the tables in place.
final class FilterCache {
    let subscription: Subscription
    private var views: [String: Bool] = [:]
    private var recognizers: [String: Bool] = [:]
    static let idLimit = 256

    init(_ subscription: Subscription) {
        self.subscription = subscription
    }

    func matches(_ event: EventSummary, traceAll: Bool) -> Bool {
        if event.isContacts { return subscription.contacts }
        if event.isTraceOnly && !subscription.trace && !traceAll { return false }
        if let kinds = subscription.kinds, !kinds.contains(event.kind) { return false }
        if let patterns = subscription.views, event.namesViews {
            guard event.containsView(where: { Self.verdict(for: $0, patterns, in: &views) }) else { return false }
        }
        if let patterns = subscription.recognizers, let recognizer = event.recognizer {
            guard Self.verdict(for: recognizer, patterns, in: &recognizers) else { return false }
        }
        return true
    }

    private static func verdict(for id: String, _ patterns: [Glob], in table: inout [String: Bool]) -> Bool {
        if let known = table[id] { return known }
        let verdict = patterns.contains { $0.matches(id) }
        if table.count >= idLimit { table.removeAll(keepingCapacity: true) }
        table[id] = verdict
        return verdict
    }
}
