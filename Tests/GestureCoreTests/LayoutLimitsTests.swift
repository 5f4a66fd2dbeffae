import Testing
import GestureCore

/// Issue 12: values and structures a client or a file can send that used to crash or stall
/// the daemon. Each has a limit (``LayoutLimits``, docs/limits.md) answered by a problem with
/// the key path and the allowed range, checked without recursion.
struct LayoutLimitsTests {
    static func view(_ id: String, subviews: [ViewSpec] = [], recognizers: [RecognizerSpec] = []) -> ViewSpec {
        ViewSpec(id: id, frame: Rect(x: 0, y: 0, width: 10, height: 10), subviews: subviews, recognizers: recognizers)
    }

    static func lines(_ root: ViewSpec) -> [String] {
        LayoutValidator.problems(in: root).map(\.description)
    }

    /// A chain of views `depth` levels deep, built without recursion.
    static func chain(depth: Int) -> ViewSpec {
        var view = view("v\(depth - 1)")
        for level in stride(from: depth - 2, through: 0, by: -1) { view = Self.view("v\(level)", subviews: [view]) }
        return view
    }

    // MARK: Crashes 3, 4 and 9: values that passed validation and then trapped

    @Test(arguments: [
        (RecognizerParameters(["maxDuration": 9.3e12]), "layout.recognizers[0].maxDuration: 9300000000000 is too large; use 0 to 3600 seconds"),
        (RecognizerParameters(["maxInterval": 1e300]), "layout.recognizers[0].maxInterval: 1e+300 is too large; use 0 to 3600 seconds"),
        (RecognizerParameters(["touches": 1_000_000_000]),
         "layout.recognizers[0].touches: 1000000000 is too large; use a whole number of touches from 1 to 20"),
        (RecognizerParameters(["taps": 11]), "layout.recognizers[0].taps: 11 is too large; use a whole number of taps from 1 to 10"),
        (RecognizerParameters(["maxMovement": 2e6]), "layout.recognizers[0].maxMovement: 2000000 is too large; use 0 to 1000000 points"),
    ] as [(RecognizerParameters, String)])
    func tapValuesHaveRanges(_ parameters: RecognizerParameters, _ problem: String) {
        let root = Self.view("root", recognizers: [RecognizerSpec(id: "tap", kind: .tap, parameters: parameters)])
        #expect(Self.lines(root) == [problem])
    }

    @Test func everyKindHasRanges() {
        let root = Self.view("root", recognizers: [
            RecognizerSpec(id: "press", kind: .longPress, parameters: RecognizerParameters(["minimumDuration": 4000])),
            RecognizerSpec(id: "swipe", kind: .swipe, parameters: RecognizerParameters(["maxDuration": 1e13, "touches": 21, "minimumVelocity": 1e7])),
            RecognizerSpec(id: "pan", kind: .pan, parameters: RecognizerParameters(["minimumTouches": 1, "maximumTouches": 100])),
            RecognizerSpec(id: "turn", kind: .rotation, parameters: RecognizerParameters(["minimumRotation": 7])),
            RecognizerSpec(id: "pinch", kind: .pinch, parameters: RecognizerParameters(["minimumScaleChange": 11])),
        ])
        #expect(Self.lines(root) == [
            "layout.recognizers[0].minimumDuration: 4000 is too large; use 0 to 3600 seconds",
            "layout.recognizers[1].touches: 21 is too large; use a whole number of touches from 1 to 20",
            "layout.recognizers[1].minimumVelocity: 10000000 is too large; use 0 to 1000000 points per second",
            "layout.recognizers[1].maxDuration: 10000000000000 is too large; use 0 to 3600 seconds",
            "layout.recognizers[2].maximumTouches: 100 is too large; use a whole number of touches from 1 to 20",
            "layout.recognizers[3].minimumRotation: 7 is too large; use 0 to 6.283185307179586 radians (a full turn)",
            "layout.recognizers[4].minimumScaleChange: 11 is too large; use 0 to 10 (a ratio)",
        ])
    }

    @Test func framesAndOutsetsAreBounded() {
        var root = Self.view("root", subviews: [Self.view("a")])
        root.frame = Rect(x: -2e6, y: 0, width: 3e6, height: 10)
        root.subviews[0].hitOutset = EdgeInsets(top: 0, left: 5e6, bottom: 0, right: 0)
        #expect(Self.lines(root) == [
            "layout.frame[0]: the x is -2000000; use a number from -1000000 to 1000000 points",
            "layout.frame[2]: the width is 3000000; use a number from 0 to 1000000 points",
            "layout.subviews[0].hitOutset[1]: 5000000 is too large; use -1000000 to 1000000 points",
        ])
    }

    /// Every limit the validator accepts is one the engine can run: the largest values
    /// compile and convert to the timeline without trapping.
    @Test func theLargestAcceptedValuesAreUsable() {
        let parameters = RecognizerParameters(["taps": 10, "maxMovement": .number(LayoutLimits.points), "maxDuration": 3600, "maxInterval": 3600, "touches": 20])
        let root = Self.view("root", recognizers: [RecognizerSpec(id: "tap", kind: .tap, parameters: parameters)])
        #expect(Self.lines(root) == [])
        #expect(TimeSpan(seconds: LayoutLimits.seconds.upperBound).microseconds == 3_600_000_000)
        _ = ViewTree(validated: root)
    }

    // MARK: Structures

    /// Crash 2: a requireToFail chain of 29,000 recognizers overflowed the stack of the
    /// recursive cycle check. Now the layout is refused for its size before any check.
    @Test func aLayoutWithTooManyRecognizersIsRefusedFirst() {
        let count = 30_000
        let recognizers = (0..<count).map { index in
            RecognizerSpec(id: "r\(index)", kind: .tap, requireToFail: index + 1 < count ? ["r\(index + 1)"] : [])
        }
        #expect(Self.lines(Self.view("root", recognizers: recognizers)) == [
            "layout: the layout has more than 10000 recognizers; that is the limit (docs/limits.md)",
        ])
    }

    /// The cycle check itself walks the longest chain the limit allows with its own stack,
    /// and names a long cycle in a line of bounded length.
    @Test func theCycleCheckIsIterative() {
        let count = LayoutLimits.maximumRecognizers
        let recognizers = (0..<count).map { index in
            RecognizerSpec(id: "r\(index)", kind: .tap, requireToFail: ["r\((index + 1) % count)"])
        }
        let lines = Self.lines(Self.view("root", recognizers: recognizers))
        #expect(lines == [
            "layout.recognizers[9999].requireToFail[0]: requireToFail makes a cycle \"r0\" → \"r1\" → \"r2\" → \"r3\" → "
                + "\"r4\" → \"r5\" → \"r6\" → \"r7\" → … 9990 more … → \"r9998\" → \"r9999\" → \"r0\", so none of them "
                + "can ever recognize; remove one of these requirements",
        ])
    }

    @Test func tooManyViewsAreRefusedFirst() {
        let root = Self.view("root", subviews: (0..<LayoutLimits.maximumViews).map { Self.view("v\($0)") })
        #expect(Self.lines(root) == [
            "layout: the layout has more than 10000 views; that is the limit (docs/limits.md), so split the screen into fewer views",
        ])
    }

    /// Issue 12: a layout 254 levels deep took about 3 s to apply, roughly cubic in depth.
    /// Views nest at most 64 levels; the walks that remain are iterative and linear.
    @Test func deepLayoutsStopAtTheLimit() {
        #expect(Self.lines(Self.chain(depth: 64)) == [])
        let tree = ViewTree(validated: Self.chain(depth: 64))
        #expect(tree.count == 64)
        #expect(tree.ancestry(of: 63).count == 64)
        #expect(HitTester.hitTest(tree, at: Point(x: 5, y: 5)) == 63)

        let lines = Self.lines(Self.chain(depth: 254))
        #expect(lines.count == 1)
        #expect(lines.first == "layout" + String(repeating: ".subviews[0]", count: 64)
            + ": views nest more than 64 levels deep here; that is the limit (docs/limits.md), so flatten the layout")
        // Compiling does not check depth: it walks with its own stack whatever it is given.
        #expect(ViewTree(validated: Self.chain(depth: 1_000)).count == 1_000)
    }

    @Test func referenceListsAreBounded() {
        let ids = Array(repeating: "other", count: LayoutLimits.maximumReferences + 1)
        let root = Self.view("root", recognizers: [RecognizerSpec(id: "tap", kind: .tap, requireToFail: ids),
                                                   RecognizerSpec(id: "other", kind: .tap)])
        #expect(Self.lines(root) == [
            "layout.recognizers[0].requireToFail: 1001 entries; a recognizer may name at most 1000 (docs/limits.md)",
        ])
    }

    // MARK: Stall: quadratic "did you mean"

    /// 10,000 unknown names among 10,000 recognizers took over a minute (a 340 KB `layout.set`
    /// blocked the daemon for 42 s). Now at most 100 problems are listed, and the searches for
    /// suggestions share a bounded budget.
    @Test func unknownNamesAreListedAndSuggestedWithinBounds() {
        let count = 5_000
        let recognizers = (0..<count).map { index in
            RecognizerSpec(id: "recognizer\(index)", kind: .tap,
                           requireToFail: ["unknown\(index)a", "recognizer\(index)x"])
        }
        let problems = LayoutValidator.problems(in: Self.view("root", recognizers: recognizers))
        #expect(problems.count == LayoutLimits.maximumProblems + 1)
        #expect(problems.first?.description
            == "layout.recognizers[0].requireToFail[0]: no recognizer has the id \"unknown0a\"; name a recognizer of this layout or remove the entry")
        #expect(problems.last?.description
            == "layout: 9900 more problems are not listed (at most 100 are); fix these and check again")
    }

    @Test func suggestionsStopWhenTheBudgetIsSpent() {
        let candidates = (0..<10_000).map { "recognizer\($0)" }
        var budget = 1_000
        #expect(LayoutValidator.suggestion(for: "recognizer9999x", among: candidates, budget: &budget) == nil)
        #expect(budget <= 0)
        var plenty = Int.max
        #expect(LayoutValidator.suggestion(for: "recognizer9999x", among: candidates, budget: &plenty) == "recognizer9999")
    }
}
