@testable import GestureCore
import Testing

/// The `contacts` stream (docs/events.md): every finger down after each frame that changed a
/// contact, taken fingers included, made only while it is asked for. The square panel is
/// 1000 × 1000 device units on a 1000 × 500 screen, so device (x, y) is (x, y / 2) in points.
@Suite struct ContactsScriptTests {
    /// A map that pinches (its own view) beside a plain button.
    static let layout: ViewSpec = {
        var map = view("map", 0, 0, 600, 500)
        map.recognizers = [recognizer("mapPinch", .pinch)]
        return view("screen", 0, 0, 1000, 500, [map, view("button", 700, 100, 200, 200) { $0.handlesTouches = true }])
    }()

    static func contacts(_ log: [String]) -> [String] { log.filter { $0.hasPrefix("contacts:") } }

    @Test func nothingIsListedUnlessAsked() throws {
        var script = try PipelineScript(Self.layout, screen: ScreenGeometry(width: 1000, height: 500))
        #expect(script.pipeline.listsContacts == false)
        script.down(slot: 0, id: 1, 800, 400)
        script.move(slot: 0, 810, 400)
        script.up(slot: 0)
        #expect(Self.contacts(script.take()).isEmpty)
    }

    @Test func everyFingerIsListedAtItsPlaceAfterEveryFrameEvenOnceAPinchTookIt() throws {
        var script = try PipelineScript(Self.layout, screen: ScreenGeometry(width: 1000, height: 500))
        script.pipeline.listsContacts = true
        _ = script.take()
        script.down(slot: 0, id: 1, 250, 500)
        script.down(slot: 1, id: 2, 350, 500)
        script.down(slot: 2, id: 3, 800, 400)
        // The pinch spreads past its threshold at once: it begins and takes both fingers.
        for step in 1...3 {
            script.frame([EventScript.slot(0), EventScript.x(Int32(250 - 50 * step)),
                          EventScript.slot(1), EventScript.x(Int32(350 + 50 * step))])
        }
        script.up(slot: 0)
        script.up(slot: 1)
        script.up(slot: 2)
        let log = script.take()
        #expect(Self.contacts(log) == [
            "contacts: #1 began (250, 250) map",
            "contacts: #1 stationary (250, 250) map, #2 began (350, 250) map",
            "contacts: #1 stationary (250, 250) map, #2 stationary (350, 250) map, #3 began (800, 200) button",
            "contacts: #1 moved (200, 250) map taken by mapPinch, #2 moved (400, 250) map taken by mapPinch, "
                + "#3 stationary (800, 200) button",
            "contacts: #1 moved (150, 250) map taken by mapPinch, #2 moved (450, 250) map taken by mapPinch, "
                + "#3 stationary (800, 200) button",
            "contacts: #1 moved (100, 250) map taken by mapPinch, #2 moved (500, 250) map taken by mapPinch, "
                + "#3 stationary (800, 200) button",
            // The pinch ends with the first finger; the second stays its own until it lifts.
            "contacts: #1 ended (100, 250) map taken by mapPinch, #2 stationary (500, 250) map taken by mapPinch, "
                + "#3 stationary (800, 200) button",
            "contacts: #2 ended (500, 250) map taken by mapPinch, #3 stationary (800, 200) button",
            "contacts: #3 ended (800, 200) button",
        ])
        // The view got no delivery after the pinch began (the map takes one finger, not being
        // multipleTouchEnabled; the pinch both): the contacts are the only place of its fingers.
        let began = try #require(log.firstIndex(of: "mapPinch began"))
        #expect(log[began - 1] == "cancelled map: #1")
        #expect(!log.contains { $0.hasPrefix("moved map") || $0.hasPrefix("ended map") })
    }

    @Test func switchedOffMidStreamItStopsAndAFingerThatLiftedIsGone() throws {
        var script = try PipelineScript(Self.layout, screen: ScreenGeometry(width: 1000, height: 500))
        _ = script.take()
        script.down(slot: 0, id: 1, 800, 400)
        script.pipeline.listsContacts = true
        script.down(slot: 1, id: 2, 850, 400)
        script.up(slot: 0)
        script.move(slot: 1, 860, 400)
        script.pipeline.listsContacts = false
        script.up(slot: 1)
        #expect(Self.contacts(script.take()) == [
            "contacts: #1 stationary (800, 200) button, #2 began (850, 200) button",
            "contacts: #1 ended (800, 200) button, #2 stationary (850, 200) button",
            "contacts: #2 moved (860, 200) button",
        ])
    }

    @Test func aDeviceThatGoesAwayEndsItsContactsAsCancelled() throws {
        var script = try PipelineScript(Self.layout, screen: ScreenGeometry(width: 1000, height: 500))
        script.pipeline.listsContacts = true
        _ = script.take()
        script.down(slot: 0, id: 1, 800, 400)
        script.unplug()
        #expect(Self.contacts(script.take()) == ["contacts: #1 began (800, 200) button", "contacts: #1 cancelled (800, 200) button"])
    }
}
