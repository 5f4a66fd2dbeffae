import GestureCore
import Testing

/// ``LayoutHash``: the same layout gives the same hash, in any process (the value is pinned), and
/// any change a client can make to a layout gives another.
struct LayoutHashTests {
    static let layout = ViewSpec(id: "screen", frame: Rect(x: 0, y: 0, width: 1920, height: 1080), subviews: [
        ViewSpec(id: "left", frame: Rect(x: 0, y: 0, width: 960, height: 1080),
                 recognizers: [RecognizerSpec(id: "leftTap", kind: .tap, parameters: ["numberOfTapsRequired": 2, "maximumTapInterval": 0.3])]),
        ViewSpec(id: "rightButton", frame: Rect(x: 960, y: 0, width: 960, height: 1080), kind: .control),
    ])

    /// Pinned: FNV-1a 64 over the canonical encoding is the same on every machine and in every
    /// run (Swift's `Hasher` is not). A change of the encoding changes this value: say so in
    /// docs/protocol.md, since fleets compare the hashes of kiosks running different versions.
    @Test func theHashIsPinned() {
        #expect(LayoutHash(of: Self.layout).description == "703719eeada93bbd")
        #expect(LayoutHash(of: Self.layout).description.utf8.count == 16)
    }

    @Test func theDescriptionIsSixteenHexDigits() {
        #expect(LayoutHash(value: 0xcbf2_9ce4_8422_2325).description == "cbf29ce484222325")
        #expect(LayoutHash(value: 1).description == "0000000000000001")
    }

    /// Each change a client can make to a layout, by name.
    static func change(_ what: String, _ v: inout ViewSpec) {
        switch what {
        case "id": v.subviews[0].id = "Left"
        case "frame": v.subviews[1].frame.origin.x = 961
        case "hidden": v.subviews[0].hidden = true
        case "alpha": v.subviews[0].alpha = 0.5
        case "userInteractionEnabled": v.userInteractionEnabled = false
        case "hitOutset": v.subviews[1].hitOutset = EdgeInsets(top: 0, left: 0, bottom: 0, right: 1)
        case "hitTest": v.subviews[0].hitTest = .redirect("rightButton")
        case "passThrough": v.passThrough = true
        case "kind": v.subviews[0].kind = .control
        case "handlesTouches": v.subviews[0].handlesTouches = false
        case "multipleTouchEnabled": v.multipleTouchEnabled = true
        case "exclusiveTouch": v.subviews[1].exclusiveTouch = true
        case "trackingSlop": v.subviews[1].trackingSlop = 10
        case "routing": v.routing = .hold(HoldRule(seconds: 0.2, fingers: 2))
        case "recognizer enabled": v.subviews[0].recognizers[0].enabled = false
        case "recognizer parameter": v.subviews[0].recognizers[0].parameters = ["numberOfTapsRequired": 3, "maximumTapInterval": 0.3]
        case "recognizer kind": v.subviews[0].recognizers[0].kind = .longPress
        case "requireToFail": v.subviews[0].recognizers[0].requireToFail = ["other"]
        case "claims": v.subviews[0].recognizers[0].claims = true
        case "subview order": v.subviews.reverse()
        case "subview moved into its sibling":
            let moved = v.subviews.removeLast()
            v.subviews[0].subviews.append(moved)
        default: Issue.record("no change named \(what)")
        }
    }

    @Test(arguments: [
        "id",
        "frame",
        "hidden",
        "alpha",
        "userInteractionEnabled",
        "hitOutset",
        "hitTest",
        "passThrough",
        "kind",
        "handlesTouches",
        "multipleTouchEnabled",
        "exclusiveTouch",
        "trackingSlop",
        "routing",
        "recognizer enabled",
        "recognizer parameter",
        "recognizer kind",
        "requireToFail",
        "claims",
        "subview order",
        "subview moved into its sibling",
    ])
    func everyChangeChangesTheHash(_ what: String) {
        var changed = Self.layout
        Self.change(what, &changed)
        #expect(changed != Self.layout, "the change \(what) changes nothing")
        #expect(LayoutHash(of: changed) != LayoutHash(of: Self.layout), "\(what)")
    }

    @Test func equalLayoutsHashAlikeWhateverTheirParametersOrder() {
        var reordered = Self.layout
        reordered.subviews[0].recognizers[0].parameters = ["maximumTapInterval": 0.3, "numberOfTapsRequired": 2]
        #expect(LayoutHash(of: reordered) == LayoutHash(of: Self.layout))
        var negativeZero = Self.layout
        negativeZero.frame.origin.x = -0.0
        #expect(LayoutHash(of: negativeZero) == LayoutHash(of: Self.layout), "-0 and 0 are one position")
    }
}
