import GestureCore
import Testing

/// `screen.set` mid-stream (SPEC 9): the rotation (and size) applies to touches that begin
/// afterwards; touches already down keep the mapping they began with. The square panel is
/// 1000 × 1000 device units, so device value n is n / 1000 of the screen.
@Suite struct ScreenSetScriptTests {
    /// A 1000 × 500 screen split into a left and a right half.
    static let halves = view("screen", 0, 0, 1000, 500, [
        view("left", 0, 0, 500, 500) { $0.handlesTouches = true },
        view("right", 500, 0, 500, 500) { $0.handlesTouches = true },
    ])

    @Test func aFingerDownKeepsItsMappingAndTheNextOneIsRotated() throws {
        var script = try PipelineScript(Self.halves, screen: ScreenGeometry(width: 1000, height: 500))
        #expect(script.take() == ["device added: test device"])
        script.down(slot: 0, id: 1, 100, 500)
        script.setScreen(.clockwise180, 1000, 500)
        script.move(slot: 0, 150, 500)
        script.down(slot: 1, id: 2, 100, 500)
        script.move(slot: 1, 150, 600)
        script.up(slot: 0)
        script.up(slot: 1)
        #expect(script.take() == [
            "began left: #1 (100, 250)",
            "screen 180 1000x500",
            // The first finger keeps the unrotated screen it landed on…
            "moved left: #1 (150, 250)",
            // …the second lands on the rotated one: (1 - 0.1, 1 - 0.5) of the screen.
            "began right: #2 (900, 250)",
            "moved right: #2 (850, 200)",
            "ended left: #1",
            "ended right: #2",
        ])
        #expect(script.pipeline.screen.rotation == .clockwise180)
    }

    @Test func aNewSizeMapsNewTouchesOntoItAndEdgePansMeasureFromIt() throws {
        var root = view("screen", 0, 0, 2000, 2000)
        root.recognizers = [recognizer("back", .edgePan) { $0.parameters["edges"] = ["right"]}]
        var script = try PipelineScript(root, screen: ScreenGeometry(width: 1000, height: 500))
        _ = script.take()
        // Portrait now: the panel turned 90° on a 500 × 1000 screen.
        script.setScreen(.clockwise90, 500, 1000)
        // Device (500, 0) is u = 0.5, v = 0: rotated (1 - v, u) = (1, 0.5) of the new screen,
        // (500, 500), on its right edge; on the old 1000-point-wide screen it was mid-screen.
        script.down(slot: 0, id: 2, 500, 0)
        script.move(slot: 0, 500, 100)
        script.move(slot: 0, 500, 200)
        script.up(slot: 0)
        #expect(script.take() == [
            "screen 90 500x1000",
            "began screen: #1 (500, 500)",
            // The edge pan takes the touch from the view once it begins (cancelsTouchesInView).
            "cancelled screen: #1", "back began", "back changed", "back ended",
        ])
    }
}
