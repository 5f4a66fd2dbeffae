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

/// A machine that declares it does not judge moves (`judgesMoves` false) has its moves skip
/// `transition(_:)`: that is only sound if every state answers a move with `.none` and changes
/// nothing. Checked over a script that takes each such machine through its states (one
/// finger, two, a third held aside, the gesture begun, fingers lifting, finished): before each
/// input, a copy is given a move of every touch it holds, straight to its transition, and
/// must answer `.none` and then answer the rest of the script as the original does.
@Suite struct MachinesThatSkipMovesTests {
    static func sample(_ id: Int, _ x: Double, _ y: Double, at ms: Int64) -> TouchSample {
        TouchSample(touch: TouchID(id), location: Point(x: x, y: y), time: Timestamp(microseconds: ms * 1000))
    }

    /// Frames of a two-finger gesture that begins, gets a third finger, loses fingers and ends.
    static var script: [RecognizerInput] {
        var inputs: [RecognizerInput] = []
        var ms: Int64 = 0
        func frame(_ changes: [RecognizerInput]) {
            inputs += changes
            inputs.append(.frameEnd(Timestamp(microseconds: ms * 1000)))
            ms += 10
        }
        frame([.touchBegan(sample(1, 100, 100, at: ms))])
        frame([.touchMoved(sample(1, 104, 100, at: ms))])
        frame([.touchBegan(sample(2, 300, 100, at: ms))])
        for step in 1...6 {
            let d = Double(step) * 15
            frame([.touchMoved(sample(1, 104 - d, 100 + d, at: ms)), .touchMoved(sample(2, 300 + d, 100 + 4 * d, at: ms))])
        }
        frame([.touchBegan(sample(3, 600, 600, at: ms))])
        frame([.touchMoved(sample(3, 640, 600, at: ms)), .touchMoved(sample(1, 0, 200, at: ms))])
        frame([.touchEnded(sample(3, 640, 600, at: ms))])
        frame([.touchEnded(sample(2, 400, 190, at: ms))])
        frame([.touchMoved(sample(1, 40, 260, at: ms))])
        frame([.touchEnded(sample(1, 40, 260, at: ms))])
        return inputs
    }

    static func check<Machine: RecognizerStateMachine>(_ machine: Machine) {
        #expect(!Machine.judgesMoves)
        var machine = machine
        let inputs = script
        var verdicts: [RecognizerVerdict] = []
        for (position, input) in inputs.enumerated() {
            for entry in machine.touches.entries {
                var copy = machine
                let sample = TouchSample(touch: entry.id, location: entry.location, time: Timestamp(microseconds: 0))
                #expect(copy.transition(.touchMoved(sample)) == .none)
                var rest: [RecognizerVerdict] = []
                for later in inputs[position...] { rest.append(copy.handle(later)) }
                var original = machine
                var expected: [RecognizerVerdict] = []
                for later in inputs[position...] { expected.append(original.handle(later)) }
                #expect(rest == expected, "after touch \(entry.id.rawValue)'s move at input \(position)")
            }
            verdicts.append(machine.handle(input))
        }
        // The script is a real gesture: the machine began and ended, and never saw an impossible input.
        #expect(verdicts.contains(.began) && verdicts.contains(.ended))
        #expect(machine.anomalies == 0)
    }

    static let context = RecognizerContext(screen: Rect(x: 0, y: 0, width: 1920, height: 1080))

    @Test func pan() {
        let parameters = GestureSettings().resolved(RecognizerSpec(id: "pan", kind: .pan, parameters: ["maximumTouches": 2]))
        Self.check(PanRecognizer(resolved: parameters, context: Self.context))
    }

    @Test func pinch() {
        Self.check(TwoFingerRecognizer<PinchMeasure>(threshold: 0.05, context: Self.context))
    }

    @Test func rotation() {
        Self.check(TwoFingerRecognizer<RotationMeasure>(threshold: 0.1, context: Self.context))
    }
}
