import Testing
@testable import GestureConfig
import GestureCore

/// Every view key (SPEC 3) with wrong types and out-of-range values: the key path and the
/// sentence that says what to change.
struct ViewKeyTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var members: String
        var problems: [String]
        init(_ members: String, _ problems: String...) {
            self.members = members
            self.problems = problems
        }
        var testDescription: String { members }
    }

    static let cases: [Case] = [
        Case("id: 5", "layout.id: expected a string (the view's unique name), found a number"),
        Case("id: \"\"", "layout.id: the id is empty; give the view a name that is unique in the layout"),
        Case("frame: [1, 2, 3]", "layout.frame: expected an array of 4 numbers [x, y, width, height], found an array of 3 elements"),
        Case("frame: { x: 0 }", "layout.frame: expected an array of 4 numbers [x, y, width, height], found an object"),
        Case("frame: [0, 0, \"wide\", 1]", "layout.frame[2]: expected a number (width), found a string"),
        Case("frame: [0, NaN, 10, 10]", "layout.frame[1]: the y is NaN; use a finite number from -1000000 to 1000000 points"),
        Case("frame: [0, 0, Infinity, 10]", "layout.frame[2]: the width is Infinity; use a finite number from 0 to 1000000 points"),
        Case("frame: [0, 0, -1, -2]",
             "layout.frame[2]: the width is -1; make it from 0 to 1000000 points (frames grow right and down from x, y)",
             "layout.frame[3]: the height is -2; make it from 0 to 1000000 points (frames grow right and down from x, y)"),
        Case("subviews: {}", "layout.subviews: expected an array of views [{ id, frame, … }], found an object"),
        Case("subviews: [5]", "layout.subviews[0]: expected a view object { id, frame, … }, found a number"),
        Case("subviews: [{ id: \"a\" }]", "layout.subviews[0].frame: missing; add frame: [x, y, width, height] in the superview's coordinates"),
        Case("subviews: [{ frame: [0, 0, 1, 1] }]", "layout.subviews[0].id: missing; add id: \"…\", a name that is unique in the layout"),
        Case("hidden: 1", "layout.hidden: expected true or false, found a number"),
        Case("hidden: null", "layout.hidden: expected true or false, found null; remove the key to use the default"),
        Case("alpha: \"1\"", "layout.alpha: expected a number from 0 to 1, found a string"),
        Case("alpha: 1.5", "layout.alpha: 1.5 is outside 0…1; use a value from 0 (transparent) to 1 (opaque)"),
        Case("alpha: -0.5", "layout.alpha: -0.5 is outside 0…1; use a value from 0 (transparent) to 1 (opaque)"),
        Case("alpha: NaN", "layout.alpha: NaN is outside 0…1; use a value from 0 (transparent) to 1 (opaque)"),
        Case("userInteractionEnabled: \"yes\"", "layout.userInteractionEnabled: expected true or false, found a string"),
        Case("hitOutset: \"10\"",
             "layout.hitOutset: expected a number or an array of 4 numbers [top, left, bottom, right], found a string"),
        Case("hitOutset: [1, 2]",
             "layout.hitOutset: expected a number or an array of 4 numbers [top, left, bottom, right], found an array of 2 elements"),
        Case("hitOutset: [1, 2, true, 4]", "layout.hitOutset[2]: expected a number (bottom), found a boolean"),
        Case("hitOutset: [1, 2, 3, Infinity]", "layout.hitOutset[3]: Infinity is not allowed here; use -1000000 to 1000000 points"),
        Case("hitOutset: -Infinity", "layout.hitOutset: -Infinity is not allowed here; use -1000000 to 1000000 points"),
        Case("hitTest: 3", "layout.hitTest: expected \"default\", \"none\", \"self\" or { redirect: \"<view id>\" }, found a number"),
        Case("hitTest: \"Self\"", "layout.hitTest: \"Self\" is not a hit-test override; did you mean \"self\"?"),
        Case("hitTest: \"redirect\"",
             "layout.hitTest: \"redirect\" is not a hit-test override; write { redirect: \"<view id>\" } to redirect"),
        Case("hitTest: \"everything\"",
             "layout.hitTest: \"everything\" is not a hit-test override; use \"default\", \"none\", \"self\" or { redirect: \"<view id>\" }"),
        Case("hitTest: {}", "layout.hitTest.redirect: missing; add redirect: \"<id of a descendant>\""),
        Case("hitTest: { redirect: 4 }", "layout.hitTest.redirect: expected a string (the id of a descendant view), found a number"),
        Case("hitTest: { redirect: \"child\", mode: 1 }, subviews: [{ id: \"child\", frame: [0, 0, 1, 1] }]",
             "layout.hitTest.mode: unknown key; remove it (a hit-test redirect takes redirect)"),
        Case("hitTest: { redirekt: \"child\" }",
             "layout.hitTest.redirect: missing; add redirect: \"<id of a descendant>\"",
             "layout.hitTest.redirekt: unknown key; did you mean \"redirect\"?"),
        Case("hitTest: { redirect: \"chlid\" }, subviews: [{ id: \"child\", frame: [0, 0, 1, 1] }]",
             "layout.hitTest.redirect: no view has the id \"chlid\"; did you mean \"child\"?"),
        Case("hitTest: { redirect: \"ghost\" }, subviews: [{ id: \"child\", frame: [0, 0, 1, 1] }]",
             "layout.hitTest.redirect: no view has the id \"ghost\"; name one of this view's descendants (\"child\")"),
        Case("hitTest: { redirect: \"ghost\" }",
             "layout.hitTest.redirect: no view has the id \"ghost\"; name one of this view's descendants "
                + "(this view has no subviews, so remove the redirect)"),
        Case("passThrough: \"true\"", "layout.passThrough: expected true or false, found a string"),
        Case("kind: \"controll\"", "layout.kind: \"controll\" is not a view kind; did you mean \"control\"?"),
        Case("kind: 1", "layout.kind: expected \"view\" or \"control\", found a number"),
        Case("handlesTouches: 0", "layout.handlesTouches: expected true or false, found a number"),
        Case("multipleTouchEnabled: []", "layout.multipleTouchEnabled: expected true or false, found an empty array"),
        Case("exclusiveTouch: {}", "layout.exclusiveTouch: expected true or false, found an object"),
        Case("kind: \"control\", trackingSlop: \"far\"", "layout.trackingSlop: expected a number of points, found a string"),
        Case("kind: \"control\", trackingSlop: -5", "layout.trackingSlop: -5 is negative; use 0 to 1000000 points"),
        Case("trackingSlop: 10",
             "layout.trackingSlop: only controls track their touches; remove trackingSlop or make the view a control with kind: \"control\""),
        Case("recognizers: {}", "layout.recognizers: expected an array of recognizers [{ id, type, … }], found an object"),
        Case("recognizers: [\"tap\"]", "layout.recognizers[0]: expected a recognizer object { id, type, … }, found a string"),
        // Unknown keys: a close one is suggested (typos, case, a truncated key), otherwise the keys are listed.
        Case("Hidden: true", "layout.Hidden: unknown key; did you mean \"hidden\"?"),
        Case("subview: []", "layout.subview: unknown key; did you mean \"subviews\"?"),
        Case("frmae: [0, 0, 1, 1]", "layout.frmae: unknown key; did you mean \"frame\"?"),
        Case("userInteraction: false", "layout.userInteraction: unknown key; did you mean \"userInteractionEnabled\"?"),
        Case("passthrough: true", "layout.passthrough: unknown key; did you mean \"passThrough\"?"),
        Case("\"my key\": 1",
             "layout[\"my key\"]: unknown key; remove it (a view takes id, frame, hidden, alpha, userInteractionEnabled, "
                + "hitOutset, hitTest, passThrough, kind, handlesTouches, multipleTouchEnabled, exclusiveTouch, trackingSlop, "
                + "routing, recognizers, subviews)"),
        // Valid values give no problems.
        Case("hidden: false, alpha: 0, userInteractionEnabled: true, hitOutset: [1, 2, 3, 4], hitTest: \"none\", "
             + "passThrough: true, kind: \"control\", handlesTouches: false, multipleTouchEnabled: true, exclusiveTouch: true, "
             + "trackingSlop: 0, recognizers: [], subviews: []"),
    ]

    @Test(arguments: cases)
    func reportsTheKeyPathAndWhatToChange(_ example: Case) {
        #expect(ProblemLines.view(example.members) == example.problems)
    }

    /// Problems come in pre-order: a view's own keys in schema order, its unknown keys sorted,
    /// then its subviews; semantic problems (duplicates, redirects) after all type problems.
    @Test func reportsEveryProblemInAFixedOrder() {
        let problems = ProblemLines.layout("""
            {
              zeta: 1, id: "root", alpha: 2, frame: [0, 0, 10, 10], beta: 2,
              hitTest: { redirect: "nowhere" },
              subviews: [
                { id: "a", frame: [0, 0, 1, "x"], hidden: 3 },
                { id: "a", frame: [0, 0, -1, 1] },
              ],
              hiden: true,
            }
            """)
        #expect(problems == [
            "layout.beta: unknown key; remove it (a view takes id, frame, hidden, alpha, userInteractionEnabled, hitOutset, "
                + "hitTest, passThrough, kind, handlesTouches, multipleTouchEnabled, exclusiveTouch, trackingSlop, routing, recognizers, subviews)",
            "layout.hiden: unknown key; did you mean \"hidden\"?",
            "layout.zeta: unknown key; remove it (a view takes id, frame, hidden, alpha, userInteractionEnabled, hitOutset, "
                + "hitTest, passThrough, kind, handlesTouches, multipleTouchEnabled, exclusiveTouch, trackingSlop, routing, recognizers, subviews)",
            "layout.subviews[0].frame[3]: expected a number (height), found a string",
            "layout.subviews[0].hidden: expected true or false, found a number",
            "layout.alpha: 2 is outside 0…1; use a value from 0 (transparent) to 1 (opaque)",
            "layout.subviews[1].id: the view id \"a\" is already used at layout.subviews[0]; give each view a unique id",
            "layout.subviews[1].frame[2]: the width is -1; make it from 0 to 1000000 points (frames grow right and down from x, y)",
            "layout.hitTest.redirect: no view has the id \"nowhere\"; name one of this view's descendants (\"a\")",
        ])
    }

    /// A value that could not be read is replaced by a placeholder; the validator must not
    /// then complain about the placeholder.
    @Test func placeholdersDoNotCauseFollowUpProblems() {
        #expect(ProblemLines.layout("{ frame: [0, 0, 10, 10], subviews: [{ id: 1, frame: [0, 0, 1, 1] }, { frame: 2 }] }") == [
            "layout.id: missing; add id: \"…\", a name that is unique in the layout",
            "layout.subviews[0].id: expected a string (the view's unique name), found a number",
            "layout.subviews[1].id: missing; add id: \"…\", a name that is unique in the layout",
            "layout.subviews[1].frame: expected an array of 4 numbers [x, y, width, height], found a number",
        ])
    }

    @Test func readsEveryKeyIntoTheViewSpec() throws {
        let layout = try ConfigurationLoader.parseLayout(text: """
            { id: "root", frame: [1, 2, 300, 400], hidden: true, alpha: 0.5, userInteractionEnabled: false,
              hitOutset: [1, 2, 3, 4], hitTest: { redirect: "button" }, passThrough: true,
              subviews: [{ id: "button", kind: "control", frame: [0, 0, 10, 10], handlesTouches: false,
                           multipleTouchEnabled: true, exclusiveTouch: true, trackingSlop: 20, hitOutset: 8 }] }
            """, file: "t.json5")
        #expect(layout == ViewSpec(
            id: "root", frame: Rect(x: 1, y: 2, width: 300, height: 400),
            subviews: [ViewSpec(id: "button", frame: Rect(x: 0, y: 0, width: 10, height: 10), hitOutset: EdgeInsets(all: 8),
                                kind: .control, handlesTouches: false, multipleTouchEnabled: true, exclusiveTouch: true,
                                trackingSlop: 20)],
            hidden: true, alpha: 0.5, userInteractionEnabled: false,
            hitOutset: EdgeInsets(top: 1, left: 2, bottom: 3, right: 4), hitTest: .redirect("button"), passThrough: true))
    }

    @Test func defaultsApplyWhenKeysAreAbsent() throws {
        let layout = try ConfigurationLoader.parseLayout(text: "{ id: \"root\", frame: [0, 0, 10, 10] }", file: "t.json5")
        #expect(layout == ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 10, height: 10)))
        #expect(layout.handlesTouchesOverride == nil)
    }

    @Test func aLayoutMustBeAnObject() {
        #expect(ProblemLines.layout("[1]") == ["layout: expected a view object { id, frame, … }, found an array of 1 elements"])
    }
}
