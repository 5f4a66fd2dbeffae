import Testing
@testable import GestureCore

/// A transform in the arena with the recognizers it is most often combined with, a pan and a
/// pinch: excluded by default, together when `simultaneousWith` says so, and held back by a
/// failure requirement (docs/recognizers-and-arbitration.md). Whole ordered logs.
@Suite("Recognizers and arbitration: transform")
struct TransformArbitrationTests {
    /// A root with one 400 x 400 multi-touch view "Photo" at (100, 100) carrying `recognizers`.
    func photo(_ recognizers: [RecognizerSpec]) -> ViewSpec {
        view("Root", 0, 0, 800, 800, [view("Photo", 100, 100, 400, 400) {
            $0.recognizers = recognizers
            $0.multipleTouchEnabled = true
        }])
    }

    /// Two fingers 100 pt apart spread to 200 pt, then lift together.
    func spread(_ s: inout TouchScript) {
        s.frame(.down(ContactID(1), Point(x: 200, y: 300)), .down(ContactID(2), Point(x: 300, y: 300)))
        s.wait(16)
        s.frame(.move(ContactID(1), Point(x: 150, y: 300)), .move(ContactID(2), Point(x: 350, y: 300)))
        s.wait(16)
        s.frame(.up(ContactID(1)), .up(ContactID(2)))
    }

    @Test func withoutSimultaneityTheFirstToBeginExcludesTheOther() {
        var s = TouchScript(photo([recognizer("pinch", .pinch), recognizer("move", .transform)]))
        spread(&s)
        #expect(s.take() == ["began Photo > Root: #1 #2", "cancelled Photo > Root: #1 #2", "pinch began", "pinch ended"])
    }

    @Test func simultaneousWithAPinchBothBeginAndEnd() {
        var s = TouchScript(photo([recognizer("pinch", .pinch, simultaneousWith: ["move"]),
                                   recognizer("move", .transform)]))
        spread(&s)
        #expect(s.take() == ["began Photo > Root: #1 #2", "cancelled Photo > Root: #1 #2", "pinch began", "move began",
                             "pinch ended", "move ended"])
    }

    @Test func aPanThatRequiresTheTransformToFailWaitsAndLoses() {
        var s = TouchScript(photo([recognizer("drag", .pan, requireToFail: ["move"]), recognizer("move", .transform)]))
        spread(&s)
        #expect(s.take() == ["began Photo > Root: #1 #2", "cancelled Photo > Root: #1 #2", "move began", "move ended"])
    }

    /// A two-finger transform fails only when its last finger lifts (it waits for a second
    /// finger, as a pan waits for its minimum): a one-finger pan that requires it to fail never
    /// gets to begin, and the views see the whole drag (UIKit's rule, docs/recognizers.md).
    @Test func aPanThatRequiresATwoFingerTransformToFailIsHeldTillTheLift() {
        var s = TouchScript(photo([recognizer("drag", .pan, requireToFail: ["move"]),
                                   recognizer("move", .transform) { $0.parameters["minimumTouches"] = 2 }]))
        s.down(1, 200, 300)
        s.wait(16)
        s.move(1, 240, 300)
        s.wait(16)
        s.move(1, 260, 300)
        s.wait(16)
        s.up(1)
        #expect(s.take() == ["began Photo > Root: #1", "moved Photo > Root: #1", "moved Photo > Root: #1",
                             "ended Photo > Root: #1"])
    }
}
