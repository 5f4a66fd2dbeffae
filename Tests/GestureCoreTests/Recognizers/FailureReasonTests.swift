import Testing
@testable import GestureCore

/// Every way a recognizer fails or is cancelled gives its reason (docs/recognizers.md § Why a
/// recognizer failed): each fail path of each kind, driven on its own, and each of the arena's,
/// in a layout; together they cover every cause of ``FailureCause`` but `unexplained`.
@Suite("Why a recognizer failed")
struct FailureReasonTests {
    /// One fail path of one kind: the frames that take it there and the reason it must give.
    struct Path: Sendable, CustomTestStringConvertible {
        var name: String
        var kind: RecognizerKind
        var parameters: RecognizerParameters = RecognizerParameters()
        var frames: @Sendable (inout RecognizerScript) -> Void
        var verdict: RecognizerVerdict = .failed
        var cause: FailureCause
        var measured: Double?
        var limit: Double?

        var testDescription: String { "\(kind) \(name)" }
    }

    static let paths: [Path] = [
        // tap
        Path(name: "moved", kind: .tap, frames: { $0.down(1, 100, 100); $0.move(1, 146, 100, after: 20) },
             cause: .movedTooFar, measured: 46, limit: 45),
        Path(name: "lifted far", kind: .tap, frames: { $0.down(1, 100, 100); $0.up(1, 100, 150, after: 20) },
             cause: .movedTooFar, measured: 50, limit: 45),
        Path(name: "one of two fingers", kind: .tap, parameters: ["touches": 2],
             frames: { $0.down(1, 100, 100); $0.up(1, 100, 100, after: 20) }, cause: .tooFewTouches, measured: 1, limit: 2),
        Path(name: "cancelled", kind: .tap, frames: { $0.down(1, 100, 100); $0.cancel(1, 100, 100, after: 20) },
             cause: .touchCancelled),
        Path(name: "held", kind: .tap, frames: { $0.down(1, 100, 100); $0.wait(800) }, cause: .tooLong, measured: 0.75, limit: 0.75),
        Path(name: "second tap late", kind: .tap, parameters: ["taps": 2],
             frames: { $0.down(1, 100, 100); $0.up(1, 100, 100, after: 100); $0.wait(1000) },
             cause: .nextTapTooLate, measured: 0.35, limit: 0.35),
        Path(name: "two fingers", kind: .tap, frames: { $0.down(1, 100, 100); $0.down(2, 200, 100, after: 10) },
             cause: .tooManyTouches, measured: 2, limit: 1),
        Path(name: "second tap far", kind: .tap, parameters: ["taps": 2],
             frames: { $0.down(1, 100, 100); $0.up(1, 100, 100, after: 100); $0.down(2, 146, 100, after: 100) },
             cause: .tapTooFarFromFirst, measured: 46, limit: 45),
        // longPress
        Path(name: "tap moved", kind: .longPress, parameters: ["taps": 1],
             frames: { $0.down(1, 100, 100); $0.move(1, 146, 100, after: 20) }, cause: .movedTooFar, measured: 46, limit: 45),
        Path(name: "tap lifted far", kind: .longPress, parameters: ["taps": 1],
             frames: { $0.down(1, 100, 100); $0.up(1, 146, 100, after: 20) }, cause: .movedTooFar, measured: 46, limit: 45),
        Path(name: "tap of one finger of two", kind: .longPress, parameters: ["taps": 1, "touches": 2],
             frames: { $0.down(1, 100, 100); $0.up(1, 100, 100, after: 20) }, cause: .tooFewTouches, measured: 1, limit: 2),
        Path(name: "tap cancelled", kind: .longPress, parameters: ["taps": 1],
             frames: { $0.down(1, 100, 100); $0.cancel(1, 100, 100, after: 20) }, cause: .touchCancelled),
        Path(name: "tap held", kind: .longPress, parameters: ["taps": 1],
             frames: { $0.down(1, 100, 100); $0.wait(1000) }, cause: .tooLong, measured: 0.75, limit: 0.75),
        Path(name: "press late", kind: .longPress, parameters: ["taps": 1],
             frames: { $0.down(1, 100, 100); $0.up(1, 100, 100, after: 100); $0.wait(1000) },
             cause: .nextTapTooLate, measured: 0.35, limit: 0.35),
        Path(name: "tap of two fingers", kind: .longPress, parameters: ["taps": 1],
             frames: { $0.down(1, 100, 100); $0.down(2, 200, 100, after: 10) }, cause: .tooManyTouches, measured: 2, limit: 1),
        Path(name: "second tap far", kind: .longPress, parameters: ["taps": 2],
             frames: { $0.down(1, 100, 100); $0.up(1, 100, 100, after: 100); $0.down(2, 146, 100, after: 100) },
             cause: .tapTooFarFromFirst, measured: 46, limit: 45),
        Path(name: "press far from the tap", kind: .longPress, parameters: ["taps": 1],
             frames: { $0.down(1, 100, 100); $0.up(1, 100, 100, after: 100); $0.down(2, 146, 100, after: 100) },
             cause: .tapTooFarFromFirst, measured: 46, limit: 45),
        Path(name: "lifted while landing", kind: .longPress, parameters: ["touches": 2],
             frames: { $0.down(1, 100, 100); $0.up(1, 100, 100, after: 20) }, cause: .tooFewTouches, measured: 1, limit: 2),
        Path(name: "cancelled while landing", kind: .longPress, parameters: ["touches": 2],
             frames: { $0.down(1, 100, 100); $0.cancel(1, 100, 100, after: 20) }, cause: .touchCancelled),
        Path(name: "moved", kind: .longPress, frames: { $0.down(1, 100, 100); $0.move(1, 100, 111, after: 20) },
             cause: .movedTooFar, measured: 11, limit: 10),
        Path(name: "extra finger", kind: .longPress, frames: { $0.down(1, 100, 100); $0.down(2, 200, 100, after: 20) },
             cause: .tooManyTouches, measured: 2, limit: 1),
        Path(name: "lifted early", kind: .longPress, frames: { $0.down(1, 100, 100); $0.up(1, 100, 100, after: 200) },
             cause: .liftedTooSoon, measured: 0.2, limit: 0.5),
        Path(name: "cancelled holding", kind: .longPress, frames: { $0.down(1, 100, 100); $0.cancel(1, 100, 100, after: 200) },
             cause: .touchCancelled),
        Path(name: "cancelled after it began", kind: .longPress,
             frames: { $0.down(1, 100, 100); $0.wait(600); $0.cancel(1, 100, 100) }, verdict: .cancelled, cause: .touchCancelled),
        // pan
        Path(name: "lifted within the slop", kind: .pan, frames: { $0.down(1, 100, 100); $0.up(1, 103, 104, after: 20) },
             cause: .liftedBeforeBegan, measured: 5, limit: 10),
        Path(name: "cancelled", kind: .pan, frames: { $0.down(1, 100, 100); $0.cancel(1, 100, 100, after: 20) },
             cause: .touchCancelled),
        Path(name: "cancelled after it began", kind: .pan,
             frames: { $0.down(1, 100, 100); $0.move(1, 150, 100, after: 20); $0.cancel(1, 150, 100, after: 20) },
             verdict: .cancelled, cause: .touchCancelled),
        // swipe
        Path(name: "lifted while landing", kind: .swipe, parameters: ["touches": 2],
             frames: { $0.down(1, 100, 100); $0.up(1, 100, 100, after: 20) }, cause: .tooFewTouches, measured: 1, limit: 2),
        Path(name: "cancelled", kind: .swipe, frames: { $0.down(1, 100, 100); $0.cancel(1, 100, 100, after: 20) },
             cause: .touchCancelled),
        Path(name: "too long", kind: .swipe, frames: { $0.down(1, 100, 100); $0.wait(600) }, cause: .tooLong, measured: 0.5, limit: 0.5),
        Path(name: "extra finger", kind: .swipe, frames: { $0.down(1, 100, 100); $0.down(2, 200, 100, after: 10) },
             cause: .tooManyTouches, measured: 2, limit: 1),
        Path(name: "left, not right", kind: .swipe, frames: { $0.down(1, 200, 100); $0.move(1, 140, 100, after: 50) },
             cause: .wrongDirection),
        Path(name: "fingers disagree", kind: .swipe, parameters: ["touches": 2, "direction": ["left", "right"]],
             frames: { $0.frame(.down(1, 200, 100), .down(2, 400, 100)); $0.frame(after: 50, .move(1, 140, 100), .move(2, 460, 100)) },
             cause: .wrongDirection),
        Path(name: "slow", kind: .swipe, frames: { $0.down(1, 100, 100); $0.move(1, 160, 100, after: 400) },
             cause: .tooSlow, measured: 150, limit: 200),
        Path(name: "short", kind: .swipe, frames: { $0.down(1, 100, 100); $0.up(1, 120, 100, after: 50) },
             cause: .tooShort, measured: 20, limit: 50),
        // pinch, rotation
        Path(name: "one finger lifted", kind: .pinch, frames: { $0.down(1, 100, 100); $0.up(1, 100, 100, after: 20) },
             cause: .liftedBeforeBegan),
        Path(name: "one finger cancelled", kind: .pinch, frames: { $0.down(1, 100, 100); $0.cancel(1, 100, 100, after: 20) },
             cause: .touchCancelled),
        Path(name: "a finger of the pair cancelled", kind: .rotation,
             frames: { $0.frame(.down(1, 100, 100), .down(2, 200, 100)); $0.cancel(2, 200, 100, after: 20) }, cause: .touchCancelled),
        Path(name: "cancelled after it began", kind: .pinch,
             frames: { $0.frame(.down(1, 100, 100), .down(2, 200, 100)); $0.move(2, 300, 100, after: 20); $0.cancel(2, 300, 100, after: 20) },
             verdict: .cancelled, cause: .touchCancelled),
        // edgePan
        Path(name: "landed inside", kind: .edgePan, frames: { $0.down(1, 500, 400) }, cause: .outsideEdge, measured: 500, limit: 20),
        Path(name: "lifted within the slop", kind: .edgePan, frames: { $0.down(1, 5, 400); $0.up(1, 8, 404, after: 20) },
             cause: .liftedBeforeBegan, measured: 5, limit: 10),
        // transform
        Path(name: "lifted within the thresholds", kind: .transform,
             frames: { $0.down(1, 100, 100); $0.up(1, 103, 104, after: 20) }, cause: .liftedBeforeBegan, measured: 5, limit: 10),
        Path(name: "cancelled", kind: .transform, frames: { $0.down(1, 100, 100); $0.cancel(1, 100, 100, after: 20) },
             cause: .touchCancelled),
        Path(name: "cancelled after it began", kind: .transform,
             frames: { $0.down(1, 100, 100); $0.move(1, 150, 100, after: 20); $0.cancel(1, 150, 100, after: 20) },
             verdict: .cancelled, cause: .touchCancelled),
    ]

    @Test(arguments: paths)
    func eachFailPathOfEachKindGivesItsReason(_ path: Path) throws {
        var script = RecognizerScript(path.kind, path.parameters)
        path.frames(&script)
        let last = try #require(script.log.last, "the path must end the recognizer")
        #expect(last.hasSuffix(" \(path.verdict)"), "\(script.log)")
        let failure = try #require(script.recognizer.failure)
        #expect(failure.cause == path.cause)
        #expect(failure.by == nil, "a kind never names another recognizer")
        #expect(close(failure.measured, path.measured) && close(failure.limit, path.limit),
                "measured \(String(describing: failure.measured)), limit \(String(describing: failure.limit))")
    }

    /// Both nil, or both set and within 1e-9.
    private func close(_ a: Double?, _ b: Double?) -> Bool {
        switch (a, b) {
        case (nil, nil): true
        case (let a?, let b?): abs(a - b) <= 1e-9
        default: false
        }
    }

    // MARK: - The arena's reasons

    /// A root with one 400 x 400 view "Photo" at (100, 100) carrying `recognizers`.
    private func photo(_ recognizers: [RecognizerSpec], subviews: [ViewSpec] = []) -> ViewSpec {
        view("Root", 0, 0, 800, 800, [view("Photo", 100, 100, 400, 400, subviews) { $0.recognizers = recognizers }])
    }

    @Test func aRivalThatBeganExcludesTheOthers() {
        var s = TouchScript(photo([recognizer("tap", .tap), recognizer("pan", .pan)]), tracing: true)
        s.down(1, 200, 200)
        s.wait(20)
        s.move(1, 220, 200)
        #expect(s.reasons == ["tap failed excluded by pan"])
    }

    @Test func aRecognizerThatAsksLateIsExcludedByTheOneThatHasTheTouch() {
        var s = TouchScript(photo([recognizer("pan", .pan), recognizer("press", .longPress) { $0.parameters["allowableMovement"] = 100 }]),
                            tracing: true)
        s.down(1, 200, 200)
        s.wait(20)
        s.move(1, 220, 200)
        #expect(s.reasons == ["press failed excluded by pan"])
    }

    @Test func aRequirementThatRecognizedFailsTheOneWaiting() {
        // The tap holds another touch than the pan: it is no rival of the pan, and fails only
        // because the pan it requires to fail began.
        let root = view("Root", 0, 0, 800, 800, [view("Photo", 100, 100, 300, 300) { $0.recognizers = [recognizer("pan", .pan)] },
                                                 view("Other", 450, 100, 300, 300) {
                                                     $0.recognizers = [recognizer("tap", .tap, requireToFail: ["pan"])]
                                                 }])
        var s = TouchScript(root, tracing: true)
        s.down(1, 500, 200)
        s.wait(20)
        s.down(2, 200, 200)
        s.wait(20)
        s.move(2, 240, 200)
        #expect(s.reasons == ["tap failed requirementRecognized by pan"])
    }

    @Test func aRequirementAlreadyRecognizedFailsTheOneAsking() {
        var s = TouchScript(photo([recognizer("pan", .pan),
                                   recognizer("other", .pan, requireToFail: ["pan"], simultaneousWith: ["pan"]) {
                                       $0.parameters["slop"] = 30
                                   }]), tracing: true)
        s.down(1, 200, 200)
        s.wait(20)
        s.move(1, 215, 200)
        s.wait(20)
        s.move(1, 240, 200)
        #expect(s.reasons == ["other failed requirementRecognized by pan"])
    }

    @Test func aSingleTapGivesWayToTheControlUnderItsFinger() {
        var s = TouchScript(photo([recognizer("tap", .tap)], subviews: [control("Button", 50, 50, 100, 60)]), tracing: true)
        s.down(1, 200, 200)
        s.wait(50)
        s.up(1)
        #expect(s.reasons == ["tap failed yieldedToControl"])
    }

    @Test func aLayoutThatDisablesARecognizerFailsOrCancelsIt() throws {
        let enabled = photo([recognizer("tap", .tap), recognizer("pan", .pan) { $0.parameters["minimumTouches"] = 2 }])
        var s = TouchScript(enabled, tracing: true)
        s.down(1, 200, 200)
        s.wait(20)
        let disabled = photo([recognizer("tap", .tap) { $0.enabled = false },
                              recognizer("pan", .pan) { $0.parameters["minimumTouches"] = 2 }])
        s.replaceLayout(try ViewTree(root: disabled))
        #expect(s.reasons == ["tap failed disabled"])

        var t = TouchScript(photo([recognizer("pan", .pan)]), tracing: true)
        t.down(1, 200, 200)
        t.wait(20)
        t.move(1, 240, 200)
        t.replaceLayout(try ViewTree(root: photo([recognizer("pan", .pan) { $0.enabled = false }])))
        #expect(t.reasons == ["pan cancelled disabled"])
    }

    @Test func aGestureThatEndsWhileWaitingFails() {
        var s = TouchScript(photo([recognizer("double", .tap) { $0.parameters["taps"] = 2 },
                                   recognizer("pan", .pan, requireToFail: ["double"])]), tracing: true)
        s.down(1, 200, 200)
        s.wait(20)
        s.move(1, 220, 200)
        s.wait(20)
        s.up(1)
        #expect(s.reasons.first == "pan failed endedWhileWaiting")
    }

    @Test func aCancelledGestureSaysWhyWithoutTracing() {
        var s = TouchScript(photo([recognizer("pan", .pan)]))
        s.down(1, 200, 200)
        s.wait(20)
        s.move(1, 240, 200)
        s.wait(20)
        s.cancel(1)
        #expect(s.reasons == ["pan cancelled touchCancelled"])
    }

    /// Every cause but `unexplained` has a site that the paths above reach.
    @Test func everyCauseHasAPath() {
        let arena: Set<FailureCause> = [.excluded, .requirementRecognized, .yieldedToControl, .disabled, .endedWhileWaiting]
        let kinds = Set(Self.paths.map(\.cause))
        #expect(kinds.union(arena) == Set(FailureCause.allCases).subtracting([.unexplained]))
        #expect(Set(Self.paths.map(\.kind)) == Set(RecognizerKind.allCases), "every kind has fail paths here")
    }
}
