import GestureCore
import Testing

/// A contact that goes down and up between two `SYN_REPORT`s (issue 27): a tracking id set and
/// reset to -1 in one frame goes down and up in that frame, whatever the slot held before, so
/// that a tap on a slow panel is not lost (docs/decisions.md § A contact down and up in one
/// frame). The same test panel as ``ContactTrackerTests``: a device value is its screen point.
@Suite struct ContactInOneFrameTests {
    typealias S = EventScript

    static func at(_ milliseconds: Int64) -> Timestamp { S.time(milliseconds) }
    static func c(_ id: Int) -> ContactID { ContactID(id) }
    static func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    @Test func anEmptySlotsContactGoesDownAndUpInItsFrame() {
        var script = S()
        script.frame(0, [S.slot(0), S.id(5), S.x(100), S.y(200), S.id(-1)])
        script.frame(10, [S.slot(0), S.x(300)]) // no contact: values without a contact
        var tracker = ContactTrackerTests.tracker()
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(5), Self.p(100, 200)), .up(Self.c(5))]),
        ])
        #expect(tracker.activeContacts.isEmpty)
        #expect(tracker.anomalyCount == 1) // the frame at 10 ms, not the one at 0
    }

    @Test func theOrderOfTheFramesEventsDoesNotMatter() {
        var script = S()
        // The tracking id first, then its lift, then the position: the values of the frame count.
        script.frame(0, [S.slot(1), S.id(7), S.id(-1), S.x(40), S.y(50)])
        var tracker = ContactTrackerTests.tracker()
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(7), Self.p(40, 50)), .up(Self.c(7))]),
        ])
        #expect(tracker.anomalyCount == 0)
    }

    @Test func aTouchingSlotsContactEndsFirst() {
        var script = S()
        script.frame(0, [S.slot(0), S.id(1), S.x(10), S.y(10)])
        // One frame: contact 1 lifts, contact 2 touches and lifts.
        script.frame(10, [S.slot(0), S.id(-1), S.id(2), S.x(60), S.id(-1)])
        // One frame: contact 3 replaces 2's slot without a -1 between, then lifts.
        script.frame(20, [S.slot(0), S.id(3), S.x(70)])
        script.frame(30, [S.slot(0), S.id(4), S.id(-1)])
        var tracker = ContactTrackerTests.tracker()
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(1), Self.p(10, 10))]),
            TouchFrame(time: Self.at(10), changes: [.up(Self.c(1)), .down(Self.c(2), Self.p(60, 10)), .up(Self.c(2))]),
            TouchFrame(time: Self.at(20), changes: [.down(Self.c(3), Self.p(70, 10))]),
            TouchFrame(time: Self.at(30), changes: [.up(Self.c(3)), .down(Self.c(4), Self.p(70, 10)), .up(Self.c(4))]),
        ])
        #expect(tracker.activeContacts.isEmpty)
        #expect(tracker.anomalyCount == 0)
    }

    @Test func severalSlotsInOneFrameKeepSlotOrder() {
        var script = S()
        script.frame(0, [S.slot(2), S.id(9), S.x(30), S.y(30), S.id(-1),
                         S.slot(0), S.id(8), S.x(10), S.y(10),
                         S.slot(1), S.id(7), S.x(20), S.y(20), S.id(-1)])
        var tracker = ContactTrackerTests.tracker()
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(8), Self.p(10, 10)),
                                                   .down(Self.c(7), Self.p(20, 20)), .up(Self.c(7)),
                                                   .down(Self.c(9), Self.p(30, 30)), .up(Self.c(9))]),
        ])
        #expect(tracker.activeContacts == [Self.c(8)])
    }

    @Test func aPalmOrADuplicateThatFlashesIsIgnoredAsEver() {
        var script = S()
        script.frame(0, [S.slot(0), S.id(1), S.x(10), S.y(10)])
        // A palm touching and lifting in one frame: nothing.
        script.frame(10, [S.slot(1), S.id(2), S.tool(ToolType.palm), S.x(20), S.y(20), S.id(-1)])
        // Slot 2 flashes the id slot 0 holds: a duplicate, reported, not a touch.
        script.frame(20, [S.slot(2), S.id(1), S.x(30), S.y(30), S.id(-1)])
        var tracker = ContactTrackerTests.tracker()
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(1), Self.p(10, 10))]),
        ])
        #expect(tracker.activeContacts == [Self.c(1)])
        #expect(tracker.anomalyCount == 1)
    }

    @Test func aDroppedFrameForgetsWhatStartedInIt() {
        var script = S()
        script.frame(0, [S.slot(0), S.id(3), S.x(10), S.y(10), S.dropped], partial: true)
        script.frame(0, [S.id(-1)]) // discarded up to this SYN_REPORT, as the kernel says
        script.frame(10, [S.slot(0), S.x(20)])
        var tracker = ContactTrackerTests.tracker()
        let frames = script.run(&tracker)
        #expect(frames.allSatisfy { frame in !frame.changes.contains { if case .down = $0 { true } else { false } } })
    }

    @Test func aSingleTouchTapWithinOneFrame() throws {
        let description = DeviceFixtures.resistive
        let mapping = try DeviceMapping(description: description, screen: ScreenGeometry(width: 4096, height: 4096))
        var tracker = ContactTracker(description: description, mapping: mapping)
        var script = S()
        script.frame(0, [S.absX(100), S.absY(200), S.absPressure(255), S.touch(1), S.touch(0)])
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(0), Self.p(100, 200), force: 1), .up(Self.c(0))]),
        ])
    }

    /// Through the whole pipeline: the flash is a tap (delivered began and ended, recognized).
    @Test func aTapWithinOneFrameIsRecognized() throws {
        let root = view("Root", 0, 0, 1024, 1024, [view("Photo", 0, 0, 512, 512) {
            $0.recognizers = [recognizer("double", .tap) { $0.parameters["taps"] = 2 },
                              recognizer("tap", .tap, requireToFail: ["double"])]
        }])
        var s = try PipelineScript(root, screen: ScreenGeometry(width: 1024, height: 1024))
        _ = s.take()
        s.frame([S.slot(0), S.id(1), S.x(100), S.y(100), S.id(-1)])
        s.frame([S.slot(0), S.id(2), S.x(104), S.y(102), S.id(-1)], after: 150)
        // The first flash's began is delivered and its ended held for the double tap, which the
        // second flash completes (its touch, never delivered, is the double tap's at once).
        #expect(s.take() == ["began Photo: #1 (102.4, 102.4)", "cancelled Photo: #1", "double recognized taps=2"])
        // A single flash is a single tap, once the double tap's interval has passed.
        s.frame([S.slot(0), S.id(3), S.x(300), S.y(300), S.id(-1)], after: 500)
        s.wait(400)
        #expect(s.take() == ["began Photo: #3 (307.2, 307.2)", "cancelled Photo: #3", "tap recognized taps=1"])
    }
}
