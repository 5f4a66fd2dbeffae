import GestureCore
@testable import GestureServer
import Testing

/// The layouts of `layout.set`, `view.update` and `reload` are made on the worker thread —
/// read, validated, compiled and their recognizers prepared for the engine's basis — and only
/// installed on the loop (issue 25: a layout of 10,000 recognizers held the loop 70 ms). Work
/// made for a layout or a basis that another request replaced meanwhile is made again, so the
/// result is what answering on the loop, in order, would have given. The test lets the worker
/// finish and changes the owner before the loop takes the result.
@Suite("Layouts made off the loop")
struct OffLoopLayoutTests {
    /// A layout line longer than ``ServerLimits/inlineLineLength``: read on the worker thread.
    static func longLayoutSet(id: Int, layout: String) -> String {
        let tiles = (0..<200).map { #"{"id":"tile\#($0)","frame":[\#($0),0,1,1]}"# }.joined(separator: ",")
        return #"{"type":"layout.set","id":\#(id),"layout":{"id":"\#(layout)","frame":[0,0,100,100],"subviews":[\#(tiles)]}}"#
    }

    /// Runs one turn: the request line is read and its work handed to the worker thread; its
    /// result is not taken yet.
    static func handOver(_ harness: ServerHarness) throws {
        // The job is handed over at the end of a turn; its result can come in a later one only.
        for _ in 0..<100 where harness.server.linesBeingParsed == 0 { try harness.loop.runReady() }
        #expect(harness.server.linesBeingParsed == 1, "the work went to the worker thread")
    }

    @Test func aViewUpdateIsMadeOnTheWorkerAndInstalledPrepared() throws {
        let harness = try ServerHarness()
        let controller = try harness.connect()
        try controller.send(#"{"type":"view.update","id":1,"view":"button","set":{"hidden":true}}"#)
        try Self.handOver(harness)
        try harness.settle()
        let reply = try #require(controller.take().first)
        #expect(reply.object["revision"] as? Int == 2, "\(reply.object)")
        #expect(harness.owner.calls == ["replaceLayout screen"])
        #expect(harness.owner.preparedBases == [harness.owner.layoutBasis])
        #expect(harness.owner.currentLayout.subviews[0].hidden)
    }

    /// A `layout.set` lands while a `view.update` is being made: the update is made again
    /// from the new layout, as it would have been had it been answered after it.
    @Test func aViewUpdateMadeForAReplacedLayoutIsMadeAgainFromTheNewOne() throws {
        let harness = try ServerHarness()
        let controller = try harness.connect()
        try controller.send(#"{"type":"view.update","id":1,"view":"button","set":{"alpha":0.5}}"#)
        try Self.handOver(harness)
        let other = ViewSpec(id: "other", frame: Rect(x: 0, y: 0, width: 100, height: 100),
                             subviews: [ViewSpec(id: "button", frame: Rect(x: 60, y: 60, width: 30, height: 30))])
        _ = harness.owner.replaceLayout(screen: 0, other, prepared: nil, reason: "another controller")
        try harness.settle()
        let reply = try #require(controller.take().first)
        #expect(reply.object["revision"] as? Int == 3, "\(reply.object)")
        #expect(harness.owner.calls == ["replaceLayout other", "replaceLayout other"])
        #expect(harness.owner.currentLayout.subviews[0].frame == Rect(x: 60, y: 60, width: 30, height: 30))
        #expect(harness.owner.currentLayout.subviews[0].alpha == 0.5, "the update applies to the layout in force")
        #expect(harness.owner.preparedBases.last == harness.owner.layoutBasis)
    }

    /// The same, when the new layout has no such view: the answer is the one it would have got.
    @Test func aViewUpdateOfAViewTheNewLayoutLacksIsRefused() throws {
        let harness = try ServerHarness()
        let controller = try harness.connect()
        try controller.send(#"{"type":"view.update","id":1,"view":"button","set":{"hidden":true}}"#)
        try Self.handOver(harness)
        _ = harness.owner.replaceLayout(screen: 0, ViewSpec(id: "bare", frame: Rect(x: 0, y: 0, width: 100, height: 100)),
                                        prepared: nil, reason: "another controller")
        try harness.settle()
        let answer = try #require(controller.take().first)
        #expect((answer.object["error"] as? [String: Any])?["code"] as? String == "unknown_view", "\(answer.object)")
        #expect(harness.owner.calls == ["replaceLayout bare"])
    }

    /// A long `layout.set` is prepared for the basis of its time; when the basis changes
    /// before it is installed (`screen.set`), it is prepared again off the loop.
    @Test func aLayoutPreparedForAChangedBasisIsPreparedAgain() throws {
        let harness = try ServerHarness()
        let controller = try harness.connect()
        let first = harness.owner.layoutBasis
        let line = Self.longLayoutSet(id: 1, layout: "wall")
        #expect(line.utf8.count > ServerLimits.inlineLineLength)
        try controller.send(line)
        try Self.handOver(harness)
        harness.owner.layoutBasis.screen = Rect(x: 0, y: 0, width: 800, height: 480)
        try harness.settle()
        let reply = try #require(controller.take().first)
        #expect(reply.object["revision"] as? Int == 2, "\(reply.object)")
        #expect(harness.owner.calls == ["replaceLayout wall"])
        #expect(harness.owner.preparedBases == [harness.owner.layoutBasis])
        #expect(harness.owner.preparedBases != [first])
        #expect(harness.server.counters.requests == 1)
    }

    /// Requests a client sends after one that went off the loop wait for its answer, in order.
    @Test func laterRequestsWaitForTheOneOffTheLoop() throws {
        let harness = try ServerHarness()
        let controller = try harness.connect()
        try controller.send(#"{"type":"view.update","id":1,"view":"button","set":{"hidden":true}}"#
            + "\n" + #"{"type":"hitTest","id":2,"x":10,"y":10}"#)
        try harness.settle()
        let answers = controller.take()
        #expect(answers.map { $0.object["re"] as? Int } == [1, 2])
        #expect(harness.owner.calls == ["replaceLayout screen", "hitTest 10 10"])
    }

    /// A `screen.set` that changes the recognizers (settings in millimetres, edge pans) makes
    /// the layout again for the new screen on the worker thread; again if a layout came in
    /// meanwhile.
    @Test func aScreenSetMakesTheLayoutAgainOffTheLoop() throws {
        let harness = try ServerHarness()
        harness.owner.screenChangesRecognizers = true
        let controller = try harness.connect()
        try controller.send(#"{"type":"screen.set","id":1,"rotation":90,"width":1080,"height":1920}"#)
        try Self.handOver(harness)
        _ = harness.owner.replaceLayout(screen: 0, ViewSpec(id: "other", frame: Rect(x: 0, y: 0, width: 100, height: 100)),
                                        prepared: nil, reason: "another controller")
        try harness.settle()
        let reply = try #require(controller.take().first)
        #expect(reply.object["ok"] as? Bool == true, "\(reply.object)")
        #expect(harness.owner.calls == ["replaceLayout other", "setScreen 90 1080 1920"])
        #expect(harness.owner.preparedBases.last == PreparedLayout.Basis(settings: GestureSettings(),
                                                                         screen: Rect(x: 0, y: 0, width: 1080, height: 1920)))
    }

    /// A reload read for a layout that a `layout.set` replaced meanwhile is read again.
    @Test func aReloadMadeForAReplacedLayoutIsMadeAgain() throws {
        let harness = try ServerHarness()
        let controller = try harness.connect()
        try controller.send(#"{"type":"reload","id":1}"#)
        try Self.handOver(harness)
        _ = harness.owner.replaceLayout(screen: 0, ViewSpec(id: "other", frame: Rect(x: 0, y: 0, width: 100, height: 100)),
                                        prepared: nil, reason: "another controller")
        try harness.settle()
        #expect(controller.take().first?.object["ok"] as? Bool == true)
        #expect(harness.owner.reloadWorks == 2)
        #expect(harness.owner.reloadedRevisions == [2])
        #expect(harness.owner.calls == ["replaceLayout other", "reload"])
    }
}
