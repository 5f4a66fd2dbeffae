import Testing
@testable import GestureCore

@Suite("Hit testing: visibility, outsets, overrides")
struct HitTesterTests {
    /// A root with one panel (100,100,200,200) holding one button (50,50,100,100 in the panel).
    func layout(panel: (inout ViewSpec) -> Void = { _ in }, button: (inout ViewSpec) -> Void = { _ in }) -> ViewTree {
        try! ViewTree(root: view("Root", 0, 0, 400, 400, [
            view("Panel", 100, 100, 200, 200, [control("Button", 50, 50, 100, 100, configure: button)],
                 configure: panel),
        ]))
    }

    func hit(_ tree: ViewTree, _ x: Double, _ y: Double) -> (String, [String]) {
        var trace = HitTestTrace()
        let view = HitTester.hitTest(tree, at: Point(x: x, y: y), trace: &trace)
        return (view.map { tree.id(of: $0) } ?? "none", trace.lines(in: tree))
    }

    @Test func hiddenViewPrintsItsHitTestLineOnlyAndIsSkipped() {
        let (result, trace) = hit(layout(button: { $0.hidden = true }), 200, 200)
        #expect(result == "Panel")
        #expect(trace == ["Root hitTest", "Root point(inside): true", "Panel hitTest", "Panel point(inside): true",
                          "Button hitTest"])
    }

    @Test(arguments: [(0.01, "Panel"), (0.0, "Panel"), (0.0101, "Button"), (0.5, "Button")])
    func alphaAtOrBelowOneHundredthIsLikeHidden(alpha: Double, expected: String) {
        #expect(hit(layout(button: { $0.alpha = alpha }), 200, 200).0 == expected)
    }

    @Test func userInteractionDisabledOnAnAncestorSkipsTheWholeSubtree() {
        let (result, trace) = hit(layout(panel: { $0.userInteractionEnabled = false }), 200, 200)
        #expect(result == "Root")
        #expect(trace == ["Root hitTest", "Root point(inside): true", "Panel hitTest"])
    }

    @Test func edgesFollowCGRectContainment() {
        let tree = layout()
        // Button spans screen x 150..<250, y 150..<250.
        #expect(hit(tree, 150, 150).0 == "Button")
        #expect(hit(tree, 249.999, 249.999).0 == "Button")
        #expect(hit(tree, 250, 200).0 == "Panel")
        #expect(hit(tree, 200, 250).0 == "Panel")
        #expect(hit(tree, 149.999, 200).0 == "Panel")
    }

    @Test func hitOutsetEnlargesTheTouchArea() {
        let tree = layout(button: { $0.hitOutset = EdgeInsets(all: 20) })
        #expect(hit(tree, 135, 200).0 == "Button")
        #expect(hit(tree, 129, 200).0 == "Panel")
        let uneven = layout(button: { $0.hitOutset = EdgeInsets(top: 0, left: 30, bottom: 10, right: 0) })
        #expect(hit(uneven, 121, 200).0 == "Button")
        #expect(hit(uneven, 200, 145).0 == "Panel")
        #expect(hit(uneven, 200, 259).0 == "Button")
        #expect(hit(uneven, 251, 200).0 == "Panel")
    }

    @Test func hitOutsetReachingOutsideTheParentGetsNoTouchesThere() {
        // The button sits at the panel's left edge with a 40 pt outset: the part of the outset
        // that lies outside the panel is outside the panel's point(inside), so it never hits.
        let tree = try! ViewTree(root: view("Root", 0, 0, 400, 400, [
            view("Panel", 100, 100, 200, 200, [control("Button", 0, 50, 50, 50) { $0.hitOutset = EdgeInsets(all: 40) }]),
        ]))
        #expect(hit(tree, 110, 170).0 == "Button")
        #expect(hit(tree, 100, 170).0 == "Button")
        let (result, trace) = hit(tree, 90, 170)
        #expect(result == "Root")
        #expect(trace == ["Root hitTest", "Root point(inside): true", "Panel hitTest", "Panel point(inside): false"])
    }

    @Test func hitOutsetOnTheParentLetsTheSubviewReachOutside() {
        // Enlarging the parent too is how a kiosk makes such a button reachable.
        let tree = try! ViewTree(root: view("Root", 0, 0, 400, 400, [
            view("Panel", 100, 100, 200, 200, [control("Button", 0, 50, 50, 50) { $0.hitOutset = EdgeInsets(all: 40) }]) {
                $0.hitOutset = EdgeInsets(all: 40)
            },
        ]))
        #expect(hit(tree, 90, 170).0 == "Button")
    }

    @Test func nestedRedirects() {
        // Outer redirects to Middle, which redirects to Inner: a touch anywhere on Outer lands on Inner.
        let tree = try! ViewTree(root: view("Root", 0, 0, 400, 400, [
            view("Outer", 0, 0, 400, 400, [
                view("Middle", 100, 100, 200, 200, [view("Inner", 50, 50, 10, 10)]) { $0.hitTest = .redirect("Inner") },
                view("Sibling", 0, 0, 50, 50),
            ]) { $0.hitTest = .redirect("Middle") },
        ]))
        #expect(hit(tree, 350, 350).0 == "Middle", "Middle is not asked here, so only Outer's redirect applies")
        let (result, trace) = hit(tree, 200, 200)
        #expect(result == "Middle", "Outer's redirect replaces Middle's result (Inner) by Middle")
        #expect(trace == ["Root hitTest", "Root point(inside): true", "Outer hitTest", "Outer point(inside): true",
                          "Sibling hitTest", "Sibling point(inside): false", "Middle hitTest",
                          "Middle point(inside): true", "Inner hitTest", "Inner point(inside): false"])
        #expect(hit(tree, 20, 20).0 == "Middle", "a hit on Sibling is redirected too")
        let inner = try! ViewTree(root: view("Root", 0, 0, 400, 400, [
            view("Middle", 100, 100, 200, 200, [view("Inner", 50, 50, 10, 10)]) { $0.hitTest = .redirect("Inner") },
        ]))
        #expect(hit(inner, 150, 150).0 == "Inner")
        #expect(hit(inner, 50, 50).0 == "Root", "outside Middle no redirect happens")
    }

    @Test func passThroughWithAndWithoutASubviewUnderThePoint() {
        let tree = try! ViewTree(root: view("Root", 0, 0, 400, 400, [
            control("Behind", 0, 0, 400, 400),
            view("Overlay", 0, 0, 400, 400, [control("Dialog", 100, 100, 200, 200)]) { $0.passThrough = true },
        ]))
        #expect(hit(tree, 200, 200).0 == "Dialog")
        #expect(hit(tree, 20, 20).0 == "Behind")
        let (_, trace) = hit(tree, 20, 20)
        #expect(trace == ["Root hitTest", "Root point(inside): true", "Overlay hitTest", "Overlay point(inside): true",
                          "Dialog hitTest", "Dialog point(inside): false", "Behind hitTest",
                          "Behind point(inside): true"])
    }

    @Test func passThroughRootGivesNoView() {
        let tree = try! ViewTree(root: view("Root", 0, 0, 400, 400) { $0.passThrough = true })
        #expect(hit(tree, 20, 20).0 == "none")
    }

    @Test func pointOutsideTheRoot() {
        let (result, trace) = hit(layout(), 500, 20)
        #expect(result == "none")
        #expect(trace == ["Root hitTest", "Root point(inside): false"])
    }
}
