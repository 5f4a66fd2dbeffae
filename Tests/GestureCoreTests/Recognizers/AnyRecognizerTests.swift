import Testing
@testable import GestureCore

@Suite struct AnyRecognizerTests {
    @Test(arguments: RecognizerKind.allCases)
    func dispatchesToItsKind(kind: RecognizerKind) {
        let s = RecognizerScript(kind)
        #expect(s.recognizer.kind == kind)
        #expect(s.recognizer.deadline == nil)
        #expect(s.recognizer.trackedTouches.isEmpty)
        #expect(!s.recognizer.isFinished)
    }

    /// For each kind, a short script that reaches a terminal verdict with its touches up.
    static func finish(_ s: inout RecognizerScript) {
        switch s.recognizer.kind {
        case .tap:
            s.down(1, 10, 100)
            s.up(1, 10, 100, after: 10)
        case .longPress:
            s.down(1, 10, 100)
            s.up(1, 10, 100, after: 510)
        case .pan, .edgePan:
            s.down(1, 10, 100)
            s.move(1, 70, 100, after: 10)
            s.up(1, 70, 100, after: 10)
        case .swipe:
            s.down(1, 10, 100)
            s.move(1, 70, 100, after: 10)
            s.up(1, 70, 100, after: 10)
        case .pinch, .rotation, .transform:
            s.frame(.down(1, 10, 100), .down(2, 110, 100))
            s.move(2, 10, 300, after: 10) // scale 2, a quarter turn
            s.up(2, 10, 300, after: 10)
            s.up(1, 10, 100, after: 10) // it ends when both fingers have lifted
        default:
            Issue.record("no script finishes \(s.recognizer.kind)")
        }
    }

    @Test(arguments: RecognizerKind.allCases)
    func ignoresInputsAfterATerminalVerdictAndResets(kind: RecognizerKind) {
        var s = RecognizerScript(kind)
        Self.finish(&s)
        let first = s.log
        #expect(s.recognizer.isFinished)
        #expect(!first.isEmpty)
        s.frame(after: 10, .down(7, 10, 100))
        s.move(7, 300, 300, after: 10)
        #expect(s.log == first) // nothing after the terminal verdict
        s.up(7, 300, 300, after: 10)
        #expect(s.recognizer.trackedTouchCount == 0)
        s.recognizer.reset()
        #expect(!s.recognizer.isFinished)
        s.wait(1000)
        let before = s.log.count
        Self.finish(&s)
        #expect(Array(s.log.dropFirst(before)).count == first.count)
        #expect(s.recognizer.anomalies == 0)
    }

    @Test(arguments: RecognizerKind.allCases)
    func impossibleInputsAreIgnoredAndCounted(kind: RecognizerKind) {
        var s = RecognizerScript(kind)
        s.down(1, 10, 100)
        let time = s.now
        #expect(s.send(.touchMoved(TouchSample(touch: TouchID(9), location: .zero, time: time))) == .none)
        #expect(s.send(.touchEnded(TouchSample(touch: TouchID(9), location: .zero, time: time))) == .none)
        #expect(s.send(.touchCancelled(TouchSample(touch: TouchID(9), location: .zero, time: time))) == .none)
        #expect(s.send(.touchBegan(TouchSample(touch: TouchID(1), location: .zero, time: time))) == .none)
        #expect(s.recognizer.anomalies == 4)
        #expect(s.recognizer.trackedTouches == [TouchID(1)])
        #expect(s.log == [])
    }

    /// The engine gives most moves to `moveQuietly` and only the rest to `handle`: for every
    /// kind, two fingers moving apart (and a touch the machine never saw, an anomaly) give the
    /// same verdicts, values, anomalies and touches either way. Only the machines that do not
    /// judge moves take them quietly.
    @Test(arguments: RecognizerKind.allCases)
    func aQuietMoveDoesWhatHandlingTheMoveDoes(kind: RecognizerKind) {
        var fed = RecognizerScript(kind)
        var quiet = RecognizerScript(kind)
        fed.frame(.down(1, 300, 400), .down(2, 400, 400))
        quiet.frame(.down(1, 300, 400), .down(2, 400, 400))
        var tookQuietly = 0
        for step in 1...8 {
            fed.wait(10)
            quiet.wait(10)
            let d = Double(step) * 12
            for (touch, x) in [(1, 300 - d), (2, 400 + d), (9, 0)] {
                let sample = TouchSample(touch: TouchID(touch), location: Point(x: x, y: 400 + d / 2), time: fed.now)
                fed.send(.touchMoved(sample))
                if quiet.recognizer.moveQuietly(sample) { tookQuietly += 1 } else { quiet.send(.touchMoved(sample)) }
            }
            fed.send(.frameEnd(fed.now))
            quiet.send(.frameEnd(quiet.now))
        }
        fed.up(1, 200, 440, after: 10)
        quiet.up(1, 200, 440, after: 10)
        #expect(quiet.log == fed.log)
        #expect(quiet.recognizer.anomalies == fed.recognizer.anomalies)
        #expect(quiet.recognizer.trackedTouches == fed.recognizer.trackedTouches)
        #expect(quiet.values == fed.values)
        let judgesMoves = ![.pan, .pinch, .rotation, .transform].contains(kind)
        #expect(tookQuietly == (judgesMoves ? 0 : 24))
    }

    @Test func aDoubleTapFailsByAnOverdueDeadlineOnTheNextTouch() {
        var s = RecognizerScript(.tap, RecognizerParameters(["taps": 2]))
        s.deliversDeadlines = false
        s.down(1, 100, 100)
        s.up(1, 100, 100, after: 100)
        s.down(2, 100, 100, after: 400) // 50 ms after the 450 ms deadline
        #expect(s.log == ["500 failed"])
    }

    @Test func aSwipeFailsByAnOverdueDeadlineAtTheFrameEnd() {
        var s = RecognizerScript(.swipe)
        s.deliversDeadlines = false
        s.down(1, 100, 100)
        s.move(1, 120, 100, after: 600)
        #expect(s.log == ["600 failed"])
    }

    @Test func aSpuriousOrEarlyDeadlineDoesNothing() {
        var s = RecognizerScript(.longPress)
        s.down(1, 100, 100)
        #expect(s.send(.deadline(Timestamp(microseconds: 499_999))) == .none)
        var pan = RecognizerScript(.pan)
        #expect(pan.send(.deadline(Timestamp(microseconds: 1))) == .none)
    }
}
