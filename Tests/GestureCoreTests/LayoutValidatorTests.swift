import Testing
import GestureCore

/// The layout rules that span values (SPEC 3, 5.6), on layouts built in code: what
/// `layout.set`, `view.update` and configuration files all go through.
struct LayoutValidatorTests {
    static func view(_ id: String, _ frame: Rect = Rect(x: 0, y: 0, width: 10, height: 10), subviews: [ViewSpec] = [],
                     recognizers: [RecognizerSpec] = []) -> ViewSpec {
        ViewSpec(id: id, frame: frame, subviews: subviews, recognizers: recognizers)
    }

    static func tap(_ id: String, requireToFail: [String] = [], simultaneousWith: [String] = []) -> RecognizerSpec {
        RecognizerSpec(id: id, kind: .tap, requireToFail: requireToFail, simultaneousWith: simultaneousWith)
    }

    static func lines(_ root: ViewSpec) -> [String] {
        LayoutValidator.problems(in: root).map(\.description)
    }

    @Test func aValidLayoutHasNoProblems() {
        var root = Self.view("root", subviews: [Self.view("a", subviews: [Self.view("b")]), Self.view("c")],
                             recognizers: [Self.tap("single", requireToFail: ["double"]), Self.tap("double")])
        root.hitTest = .redirect("b")
        root.subviews[1].kind = .control
        root.subviews[1].trackingSlop = 0
        root.hitOutset = EdgeInsets(top: -2, left: 0, bottom: 4, right: 0)
        #expect(Self.lines(root) == [])
    }

    @Test func idsMustBeNonEmptyAndUnique() {
        let root = Self.view("root", subviews: [Self.view("a"), Self.view(""), Self.view("a", subviews: [Self.view("a")])])
        #expect(Self.lines(root) == [
            "layout.subviews[1].id: the id is empty; give the view a name that is unique in the layout",
            "layout.subviews[2].id: the view id \"a\" is already used at layout.subviews[0]; give each view a unique id",
            "layout.subviews[2].subviews[0].id: the view id \"a\" is already used at layout.subviews[0]; give each view a unique id",
        ])
    }

    @Test func framesHaveFiniteValuesAndNoNegativeSize() {
        let root = Self.view("root", subviews: [
            Self.view("a", Rect(x: -5, y: 0, width: -1, height: 0)),
            Self.view("b", Rect(x: .infinity, y: .nan, width: 1, height: -.infinity)),
        ])
        #expect(Self.lines(root) == [
            "layout.subviews[0].frame[2]: the width is -1; make it from 0 to 1000000 points (frames grow right and down from x, y)",
            "layout.subviews[1].frame[0]: the x is Infinity; use a finite number from -1000000 to 1000000 points",
            "layout.subviews[1].frame[1]: the y is NaN; use a finite number from -1000000 to 1000000 points",
            "layout.subviews[1].frame[3]: the height is -Infinity; use a finite number from 0 to 1000000 points",
        ])
    }

    @Test(arguments: [(-0.1, false), (0, true), (0.5, true), (1, true), (1.01, false), (.nan, false), (.infinity, false)])
    func alphaIsFromZeroToOne(_ alpha: Double, _ valid: Bool) {
        var root = Self.view("root")
        root.alpha = alpha
        let problems = LayoutValidator.problems(in: root)
        #expect(problems.map(\.path) == (valid ? [] : ["layout.alpha"]))
    }

    @Test func hitOutsetIsFinite() {
        var root = Self.view("root", subviews: [Self.view("a")])
        root.hitOutset = EdgeInsets(all: .infinity)
        root.subviews[0].hitOutset = EdgeInsets(top: 1, left: .nan, bottom: 1, right: 1)
        #expect(Self.lines(root) == [
            "layout.hitOutset: Infinity is not allowed here; use -1000000 to 1000000 points",
            "layout.subviews[0].hitOutset[1]: NaN is not allowed here; use -1000000 to 1000000 points",
        ])
    }

    @Test func trackingSlopIsForControlsAndAtLeastZero() {
        var root = Self.view("root", subviews: [Self.view("plain"), Self.view("negative"), Self.view("infinite")])
        root.subviews[0].trackingSlop = 10
        root.subviews[1].kind = .control
        root.subviews[1].trackingSlop = -1
        root.subviews[2].kind = .control
        root.subviews[2].trackingSlop = .infinity
        #expect(Self.lines(root) == [
            "layout.subviews[0].trackingSlop: only controls track their touches; remove trackingSlop or make the view a control with kind: \"control\"",
            "layout.subviews[1].trackingSlop: -1 is negative; use 0 to 1000000 points",
            "layout.subviews[2].trackingSlop: Infinity is not allowed here; use 0 to 1000000 points",
        ])
    }

    // MARK: Redirects

    static func redirecting(_ target: String) -> ViewSpec {
        var container = Self.view("container", subviews: [Self.view("list", subviews: [Self.view("row")])])
        container.hitTest = .redirect(target)
        return Self.view("root", subviews: [Self.view("sibling"), container])
    }

    @Test(arguments: [
        ("list", nil),
        ("row", nil),  // any descendant, not only a direct subview
        ("container", "\"container\" is this view itself; name one of its descendants, or use hitTest: \"default\""),
        ("sibling", "\"sibling\" is not inside \"container\"; a redirect must name one of this view's descendants (\"list\", \"row\")"),
        ("root", "\"root\" is not inside \"container\"; a redirect must name one of this view's descendants (\"list\", \"row\")"),
        ("lsit", "no view has the id \"lsit\"; did you mean \"list\"?"),
        ("carousel", "no view has the id \"carousel\"; name one of this view's descendants (\"list\", \"row\")"),
    ] as [(String, String?)])
    func redirectNamesADescendant(_ target: String, _ message: String?) {
        #expect(Self.lines(Self.redirecting(target)) == (message.map { ["layout.subviews[1].hitTest.redirect: \($0)"] } ?? []))
    }

    // MARK: Recognizers

    @Test func recognizerIdsAreNonEmptyAndUniqueAcrossViews() {
        let root = Self.view("root", subviews: [Self.view("a", recognizers: [Self.tap("tap"), Self.tap("")])],
                             recognizers: [Self.tap("tap")])
        #expect(Self.lines(root) == [
            "layout.subviews[0].recognizers[0].id: the recognizer id \"tap\" is already used at layout.recognizers[0]; give each recognizer a unique id",
            "layout.subviews[0].recognizers[1].id: the id is empty; give the recognizer a name that is unique in the layout",
        ])
    }

    @Test func viewsAndRecognizersHaveSeparateIds() {
        #expect(Self.lines(Self.view("tap", recognizers: [Self.tap("tap")])) == [])
    }

    @Test func referencesNameAnotherKnownRecognizer() {
        let root = Self.view("root", recognizers: [
            Self.tap("single", requireToFail: ["dubble", "single", "pan"], simultaneousWith: ["swipe", "single"]),
            Self.tap("double"),
        ])
        #expect(Self.lines(root) == [
            "layout.recognizers[0].requireToFail[0]: no recognizer has the id \"dubble\"; did you mean \"double\"?",
            "layout.recognizers[0].requireToFail[1]: \"single\" is this recognizer itself; name another recognizer or remove the entry",
            "layout.recognizers[0].requireToFail[2]: no recognizer has the id \"pan\"; name a recognizer of this layout or remove the entry",
            "layout.recognizers[0].simultaneousWith[0]: no recognizer has the id \"swipe\"; name a recognizer of this layout or remove the entry",
            "layout.recognizers[0].simultaneousWith[1]: \"single\" is this recognizer itself; name another recognizer or remove the entry",
        ])
    }

    // MARK: Cycles

    @Test func aTwoRecognizerCycleIsReportedOnceAtTheEdgeThatClosesIt() {
        let root = Self.view("root", recognizers: [Self.tap("a", requireToFail: ["b"]), Self.tap("b", requireToFail: ["a"])])
        #expect(Self.lines(root) == [
            "layout.recognizers[1].requireToFail[0]: requireToFail makes a cycle \"a\" → \"b\" → \"a\", so none of them can ever recognize; remove one of these requirements",
        ])
    }

    @Test func eachCycleIsReportedOnceAcrossViews() {
        let root = Self.view("root", subviews: [
            Self.view("left", recognizers: [Self.tap("a", requireToFail: ["b"]), Self.tap("b", requireToFail: ["c"])]),
            Self.view("right", recognizers: [Self.tap("c", requireToFail: ["a"]), Self.tap("x", requireToFail: ["y", "a"]),
                                             Self.tap("y", requireToFail: ["x"])]),
        ])
        #expect(Self.lines(root) == [
            "layout.subviews[1].recognizers[0].requireToFail[0]: requireToFail makes a cycle \"a\" → \"b\" → \"c\" → \"a\", so none of them can ever recognize; remove one of these requirements",
            "layout.subviews[1].recognizers[2].requireToFail[0]: requireToFail makes a cycle \"x\" → \"y\" → \"x\", so none of them can ever recognize; remove one of these requirements",
        ])
    }

    /// Waiting on two recognizers that both wait on a third is not a cycle.
    @Test func aDiamondIsNotACycle() {
        let root = Self.view("root", recognizers: [
            Self.tap("a", requireToFail: ["b", "c"]), Self.tap("b", requireToFail: ["d"]),
            Self.tap("c", requireToFail: ["d"]), Self.tap("d"),
        ])
        #expect(Self.lines(root) == [])
    }

    /// simultaneousWith is symmetric by nature; only requireToFail can deadlock.
    @Test func simultaneityIsNotACycle() {
        let root = Self.view("root", recognizers: [Self.tap("a", simultaneousWith: ["b"]), Self.tap("b", simultaneousWith: ["a"])])
        #expect(Self.lines(root) == [])
    }

    // MARK: Parameters

    @Test func parametersAreCheckedByTheirUnit() {
        let path = "gestures.tap"
        let tap = RecognizerParameters(["taps": 0, "maxMovement": -1, "maxDuration": .number(.infinity), "maxInterval": 0, "touches": -2])
        #expect(LayoutValidator.problems(in: tap, of: .tap, path: path).map(\.description) == [
            "gestures.tap.taps: 0 is too small; use a whole number of taps from 1 to 10",
            "gestures.tap.touches: -2 is too small; use a whole number of touches from 1 to 20",
            "gestures.tap.maxMovement: -1 is negative; use 0 to 1000000 points",
            "gestures.tap.maxDuration: Infinity is not allowed here; use 0 to 3600 seconds",
        ])
        let pan = RecognizerParameters(["minimumTouches": 3, "maximumTouches": 2, "slop": .number(.nan)])
        #expect(LayoutValidator.problems(in: pan, of: .pan, path: "p").map(\.description) == [
            "p.slop: NaN is not allowed here; use 0 to 1000000 points",
            "p.maximumTouches: maximumTouches (2) is less than minimumTouches (3); raise maximumTouches or lower minimumTouches",
        ])
        let swipe = RecognizerParameters(["direction": [], "minimumVelocity": -3])
        #expect(LayoutValidator.problems(in: swipe, of: .swipe, path: "s").map(\.description) == [
            "s.direction: the list is empty; list at least one of \"right\", \"left\", \"up\", \"down\"",
            "s.minimumVelocity: -3 is negative; use 0 to 1000000 points per second",
        ])
    }

    /// Values a type does not take are not its problem (the reader reports such keys).
    @Test func parametersOfOtherTypesAreIgnored() {
        #expect(LayoutValidator.problems(in: RecognizerParameters(["taps": 0]), of: .pan, path: "p") == [])
    }

    @Test func theDefaultsAreValid() {
        for kind in RecognizerKind.allCases {
            #expect(LayoutValidator.problems(in: GestureSettings.defaults(for: kind).values, of: kind, path: "d") == [], "\(kind)")
        }
    }

    @Test func recognizerParametersAreCheckedInTheLayout() {
        let root = Self.view("root", recognizers: [RecognizerSpec(id: "p", kind: .pan, parameters: RecognizerParameters(["slop": -1]))])
        #expect(Self.lines(root) == ["layout.recognizers[0].slop: -1 is negative; use 0 to 1000000 points"])
    }

    // MARK: Suggestions

    @Test(arguments: [
        ("hiden", "hidden"), ("Hidden", "hidden"), ("frmae", "frame"), ("userInteraction", "userInteractionEnabled"),
        ("maxTouches", "maximumTouches"), ("rotate", "rotation"), ("subview", "subviews"),
        ("colour", nil), ("z", nil), ("beta", nil), ("", nil),
    ] as [(String, String?)])
    func suggestsTheLikelyIntent(_ typed: String, _ suggestion: String?) {
        let known = ["id", "frame", "subviews", "hidden", "userInteractionEnabled", "maximumTouches", "rotation", "x", "y"]
        #expect(LayoutValidator.suggestion(for: typed, among: known) == suggestion)
    }

    /// Problems read in pre-order (a view, its recognizers, its subviews), then cycles.
    @Test func problemsComeInTreeOrderThenCycles() {
        var root = Self.view("root", subviews: [Self.view("a", Rect(x: 0, y: 0, width: -1, height: 1))],
                             recognizers: [Self.tap("r", requireToFail: ["r2"]), Self.tap("r2", requireToFail: ["r", "zz"])])
        root.alpha = 2
        #expect(LayoutValidator.problems(in: root, path: "custom").map(\.path) == [
            "custom.alpha",
            "custom.recognizers[1].requireToFail[1]",
            "custom.subviews[0].frame[2]",
            "custom.recognizers[1].requireToFail[0]",
        ])
    }
}
