import Testing
@testable import GestureCore

/// The shared driver's contract (docs/recognizers.md § Driving a machine), checked with a
/// machine that only records what its transition sees.
@Suite struct RecognizerStateMachineTests {
    /// Logs every transition with where its touches are; reports `deadline` until a
    /// `.deadline` at or after it arrives, which returns `fires`.
    struct Recorder: RecognizerStateMachine {
        var touches = RecognizerTouches(capacity: 4)
        var anomalies = 0
        var deadline: Timestamp?
        var fires = RecognizerVerdict.failed
        var log: [String] = []

        mutating func transition(_ input: RecognizerInput) -> RecognizerVerdict {
            let table = touches.entries.map { "\($0.id)@\(Int($0.location.x))" }.joined(separator: ",")
            switch input {
            case .touchBegan(let s): log.append("began \(s.touch) [\(table)]")
            case .touchMoved(let s): log.append("moved \(s.touch) [\(table)]")
            case .touchEnded(let s): log.append("ended \(s.touch) [\(table)]")
            case .touchCancelled(let s): log.append("cancelled \(s.touch) [\(table)]")
            case .frameEnd: log.append("frameEnd [\(table)]")
            case .deadline(let t):
                log.append("deadline \(t.microseconds) [\(table)]")
                if let due = deadline, t >= due {
                    deadline = nil
                    return fires
                }
            }
            return .none
        }
    }

    static func ms(_ ms: Int64) -> Timestamp { Timestamp(microseconds: ms * 1000) }
    static func sample(_ id: Int, _ x: Double, at ms: Int64) -> TouchSample {
        TouchSample(touch: TouchID(id), location: Point(x: x, y: 0), time: Self.ms(ms))
    }

    @Test func touchTableIsUpdatedBeforeTheTransitionAndForgetsAfter() {
        var m = Recorder()
        #expect(m.drive(.touchBegan(Self.sample(1, 10, at: 0))) == .none)
        #expect(m.drive(.touchMoved(Self.sample(1, 20, at: 10))) == .none)
        #expect(m.drive(.touchEnded(Self.sample(1, 30, at: 20))) == .none)
        #expect(m.log == ["began 1 [1@10]", "moved 1 [1@20]", "ended 1 [1@30]"])
        #expect(m.touches.count == 0)
        #expect(m.anomalies == 0)
    }

    @Test func impossibleInputsAreCountedAndNeverReachTheTable() {
        var m = Recorder()
        _ = m.drive(.touchBegan(Self.sample(1, 10, at: 0)))
        #expect(m.drive(.touchBegan(Self.sample(1, 10, at: 1))) == .none) // a second began
        #expect(m.drive(.touchMoved(Self.sample(2, 10, at: 2))) == .none) // never saw it
        #expect(m.drive(.touchEnded(Self.sample(2, 10, at: 3))) == .none)
        #expect(m.log == ["began 1 [1@10]"])
        #expect(m.anomalies == 3)
        #expect(m.touches.count == 1)
    }

    @Test func anOverdueDeadlineFiresFirstAndATerminalOneSwallowsTheInput() {
        var m = Recorder()
        _ = m.drive(.touchBegan(Self.sample(1, 10, at: 0)))
        m.deadline = Self.ms(50)
        // The input at 60 ms overtook the deadline: it fires with the touch where it was.
        #expect(m.drive(.touchMoved(Self.sample(1, 40, at: 60))) == .failed)
        #expect(m.log == ["began 1 [1@10]", "deadline 50000 [1@10]"])
        #expect(m.touches.entry(TouchID(1))?.location == Point(x: 40, y: 0))
        // An input before a deadline leaves it pending.
        m.deadline = Self.ms(100)
        #expect(m.drive(.frameEnd(Self.ms(99))) == .none)
        #expect(m.log.last == "frameEnd [1@40]")
        #expect(m.deadline == Self.ms(100))
    }

    @Test func aDeadlineThatFiresNothingLetsTheInputThrough() {
        var m = Recorder()
        m.deadline = Self.ms(50)
        m.fires = .none
        #expect(m.drive(.touchBegan(Self.sample(1, 10, at: 50))) == .none)
        #expect(m.log == ["deadline 50000 []", "began 1 [1@10]"])
    }

    @Test func fingerPairMeasuresTheLineFromTheFirstFingerToTheSecond() {
        var touches = RecognizerTouches(capacity: 4)
        let first = Self.sample(1, 10, at: 0)
        let second = TouchSample(touch: TouchID(2), location: Point(x: 13, y: 4), time: Self.ms(5))
        touches.admit(.touchBegan(first))
        #expect(FingerPair(completedBy: first, in: touches) == nil) // alone: no pair yet
        touches.admit(.touchBegan(second))
        let pair = FingerPair(completedBy: second, in: touches)
        #expect(pair?.first == TouchID(1))
        #expect(pair?.second == TouchID(2))
        #expect(pair?.contains(TouchID(2)) == true)
        #expect(pair?.contains(TouchID(3)) == false)
        #expect(pair?.line(in: touches) == Point(x: 3, y: 4))
        #expect(pair?.span(in: touches) == 5)
        touches.retire(.touchEnded(second))
        #expect(pair?.line(in: touches) == nil)
    }

    @Test func hasMovedMeasuresFromWhereTheTouchLanded() {
        var touches = RecognizerTouches(capacity: 2)
        touches.admit(.touchBegan(Self.sample(1, 10, at: 0)))
        touches.admit(.touchMoved(Self.sample(1, 20, at: 5)))
        #expect(touches.hasMoved(Self.sample(1, 20, at: 5), fartherThan: 9.5))
        #expect(!touches.hasMoved(Self.sample(1, 20, at: 5), fartherThan: 10)) // the limit is allowed
        #expect(!touches.hasMoved(Self.sample(2, 99, at: 5), fartherThan: 0)) // not held
    }
}
