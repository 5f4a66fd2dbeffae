import Testing
@testable import GestureCore

@Suite struct EdgePanRecognizerTests {
    /// Screen 1000 × 800; a point 5 pt from each edge, one 50 pt from it, and the way inwards.
    static let cases: [(ScreenEdge, inside: Point, outside: Point, inwards: Point)] = [
        (.left, Point(x: 5, y: 400), Point(x: 50, y: 400), Point(x: 1, y: 0)),
        (.right, Point(x: 995, y: 400), Point(x: 950, y: 400), Point(x: -1, y: 0)),
        (.top, Point(x: 500, y: 5), Point(x: 500, y: 50), Point(x: 0, y: 1)),
        (.bottom, Point(x: 500, y: 795), Point(x: 500, y: 750), Point(x: 0, y: -1)),
    ]

    @Test(arguments: cases)
    func startingInsideTheBandPans(edge: ScreenEdge, inside: Point, outside: Point, inwards: Point) {
        var s = RecognizerScript(.edgePan, RecognizerParameters(["edges": .words([edge.rawValue])]))
        s.down(1, inside.x, inside.y)
        s.move(1, inside.x + 30 * inwards.x, inside.y + 30 * inwards.y, after: 10)
        s.up(1, inside.x + 30 * inwards.x, inside.y + 30 * inwards.y, after: 10)
        #expect(s.log == ["10 began", "20 ended"])
        #expect(s.values.translation == Point(x: 30 * inwards.x, y: 30 * inwards.y))
    }

    @Test(arguments: cases)
    func startingOutsideTheBandFailsAtOnce(edge: ScreenEdge, inside: Point, outside: Point, inwards: Point) {
        var s = RecognizerScript(.edgePan, RecognizerParameters(["edges": .words([edge.rawValue])]))
        s.down(1, outside.x, outside.y)
        s.move(1, outside.x + 30 * inwards.x, outside.y + 30 * inwards.y, after: 10)
        #expect(s.log == ["0 failed"])
        #expect(s.recognizer.isFinished)
        #expect(s.recognizer.trackedTouches == [TouchID(1)])
        s.up(1, 0, 0, after: 10)
        #expect(s.recognizer.trackedTouchCount == 0)
    }

    @Test func theBandIncludesItsWidth() {
        var s = RecognizerScript(.edgePan, RecognizerParameters(["edges": ["left"], "edgeWidth": 20]))
        s.down(1, 20, 400)
        s.move(1, 40, 400, after: 10)
        #expect(s.log == ["10 began"])
    }

    @Test func anotherEdgeDoesNotCount() {
        var s = RecognizerScript(.edgePan, RecognizerParameters(["edges": ["left"]]))
        s.down(1, 995, 400)
        #expect(s.log == ["0 failed"])
    }

    /// Apple: an edge pan "ignores any touches beyond the first", wherever they land.
    @Test func aSecondFingerBeforeBeginningIsIgnored() {
        var s = RecognizerScript(.edgePan, RecognizerParameters(["edges": ["left", "right"]]))
        s.down(1, 5, 400)
        s.down(2, 500, 400, after: 10)
        s.frame(after: 10, .move(1, 25, 400), .move(2, 800, 400))
        #expect(s.log == ["20 began"])
        #expect(s.values.translation == Point(x: 20, y: 0))
        #expect(s.recognizer.isIgnoring(TouchID(2)))
    }

    @Test func aSecondFingerAfterBeginningIsIgnored() {
        var s = RecognizerScript(.edgePan)
        s.down(1, 5, 400)
        s.move(1, 25, 400, after: 10)
        s.down(2, 500, 400, after: 10)
        s.frame(after: 10, .move(1, 35, 400), .move(2, 900, 400))
        s.up(1, 35, 400, after: 10)
        #expect(s.log == ["10 began", "30 changed", "40 ended"], "the first finger's lift ends it")
        #expect(s.values.translation == Point(x: 30, y: 0))
    }

    @Test func theFirstFingerLiftingBeforeBeginningFailsItWhateverTheOthersDo() {
        var s = RecognizerScript(.edgePan)
        s.down(1, 5, 400)
        s.down(2, 10, 400, after: 10)
        s.up(1, 5, 400, after: 10)
        s.move(2, 200, 400, after: 10)
        #expect(s.log == ["20 failed"])
    }
}
