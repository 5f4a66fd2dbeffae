import Testing
@testable import GestureCore

/// The routing stage keeps nothing of a claimed touch but the values it leaves in its slot
/// (docs/routing.md): the kernel sends only values that changed, so the next contact in the
/// slot starts from them, and when that contact is forwarded the copy must get them. Each
/// test ends with a forwarded contact that inherits values from a claimed one, asserted event
/// by event on the copy.
@Suite("Routing: what claimed touches leave in their slots")
struct RoutingSlotValuesTests {
    /// How the slot's first contact came to be claimed.
    enum Claim: CaseIterable, CustomTestStringConvertible {
        /// At its down, on the claimed bar.
        case atDown
        /// Held on the map, then claimed when a second finger came down on the bar.
        case afterAHold
        /// Forwarded on the page, then taken by a claiming two-finger pan (a late claim).
        case late

        var testDescription: String {
            switch self {
            case .atDown: "claimed at its down"
            case .afterAHold: "claimed after a hold"
            case .late: "claimed late"
            }
        }
    }

    /// Slot 0's contact is claimed (`claim`), moves to x 530 with pressure 70, lifts, and every
    /// other finger lifts; then a forwarded contact lands in slot 0 sending only its tracking
    /// id and y: the copy gets the x and pressure the claimed contact left.
    @Test(arguments: Claim.allCases)
    func aForwardedContactStartsFromTheValuesAClaimedOneLeftInItsSlot(claim: Claim) throws {
        let root: ViewSpec = switch claim {
        case .atDown: RoutingTests.kiosk()
        case .afterAHold: RoutingTests.kiosk(hold: HoldRule(seconds: 0.15, fingers: 2))
        case .late: RoutingTests.kiosk(pageRecognizers: [RoutingTests.twoFingerPan(claims: true)])
        }
        var script = try RoutingScript(root, device: RoutingTests.fullPanel)
        let startY: Int32 = switch claim {
        case .atDown: 50       // the bar
        case .afterAHold: 800  // the map
        case .late: 300        // the page
        }
        script.frame([EventScript.slot(0), EventScript.id(1), EventScript.x(500), EventScript.y(startY),
                      EventScript.pressure(30)])
        switch claim {
        case .atDown:
            break
        case .afterAHold:
            // A second finger on the bar: two are down, the held touch is claimed.
            script.frame([EventScript.slot(1), EventScript.id(2), EventScript.x(900), EventScript.y(50)])
        case .late:
            script.frame([EventScript.slot(1), EventScript.id(2), EventScript.x(800), EventScript.y(300)])
            for step in 1...3 {
                script.frame([EventScript.slot(0), EventScript.y(300 + 40 * Int32(step)),
                              EventScript.slot(1), EventScript.y(300 + 40 * Int32(step))])
            }
        }
        script.frame([EventScript.slot(0), EventScript.x(530), EventScript.pressure(70)])
        script.frame([EventScript.slot(1), EventScript.id(-1), EventScript.slot(0), EventScript.id(-1)])
        let routes = script.takeRoutes()
        switch claim {
        case .atDown: #expect(routes == ["#1 began claimed"])
        case .afterAHold: #expect(routes == ["#1 began held", "#2 began claimed", "#1 claimed"])
        case .late: #expect(routes == ["#1 began forwarded", "#2 began forwarded", "#1 pilfered", "#2 pilfered"])
        }
        _ = script.takePanel()

        script.frame([EventScript.slot(0), EventScript.id(3), EventScript.y(400)])
        #expect(script.takeRoutes() == [claim == .atDown ? "#2 began forwarded" : "#3 began forwarded"])
        // After a late claim the copy's current slot is the last one cancelled (1); slot 0's
        // tool was given back with the cancel's lift, so the new contact needs none.
        let expected = (claim == .late ? ["ABS_MT_SLOT 0"] : [])
            + ["ABS_MT_TRACKING_ID 3", "ABS_MT_POSITION_X 530", "ABS_MT_POSITION_Y 400"]
            + ["ABS_MT_PRESSURE 70", "BTN_TOUCH 1", "BTN_TOOL_FINGER 1", "ABS_X 530", "ABS_Y 400", "ABS_PRESSURE 70", "SYN"]
        let time = "\(script.now) "
        #expect(script.takePanel() == expected.map { time + $0 })
    }

    /// A claimed contact's values in a frame cut by `SYN_DROPPED` are forgotten as the contact
    /// tracker forgets them: the next forwarded contact in the slot starts from the values of
    /// the last whole frame.
    @Test func aClaimedContactsFrameCutBySynDroppedLeavesNothingInItsSlot() throws {
        var script = try RoutingScript(RoutingTests.kiosk(), device: RoutingTests.fullPanel)
        script.frame([EventScript.slot(0), EventScript.id(1), EventScript.x(520), EventScript.y(60), EventScript.pressure(30)])
        script.frame([EventScript.x(540), EventScript.pressure(90), EventScript.dropped, EventScript.y(900)])
        script.frame([EventScript.id(-1)])
        script.frame([EventScript.id(2), EventScript.y(300)])
        #expect(script.takeRoutes() == ["#1 began claimed", "#2 began forwarded"])
        #expect(script.takePanel() == [
            "40 ABS_MT_TRACKING_ID 2", "40 ABS_MT_POSITION_X 520", "40 ABS_MT_POSITION_Y 300", "40 ABS_MT_PRESSURE 30",
            "40 BTN_TOUCH 1", "40 BTN_TOOL_FINGER 1", "40 ABS_X 520", "40 ABS_Y 300", "40 ABS_PRESSURE 30", "40 SYN",
        ])
    }

    /// Values addressed to a slot the panel does not have (`ABS_MT_SLOT` 12 on a 10-slot
    /// panel) reach no slot, until `ABS_MT_SLOT` names one again.
    @Test func valuesForASlotOutOfRangeReachNoSlot() throws {
        var script = try RoutingScript(RoutingTests.kiosk())
        script.down(slot: 0, id: 1, 300, 300)   // forwarded
        _ = script.takePanel()
        script.frame([EventScript.slot(12), EventScript.x(999), EventScript.slot(0), EventScript.y(310)])
        script.frame([EventScript.slot(12), EventScript.x(998)])
        script.frame([EventScript.y(997)])
        script.frame([EventScript.slot(0), EventScript.x(330)])
        #expect(script.takePanel() == ["20 ABS_MT_POSITION_Y 310", "20 SYN", "50 ABS_MT_POSITION_X 330", "50 SYN"])
    }

    /// The router keeps only touches that may still reach the copy: with every touch claimed it
    /// keeps none, whatever they do (what makes a claimed touch cost only its values' stores).
    @Test func theRouterKeepsNoClaimedTouch() throws {
        var script = try RoutingScript(RoutingTests.kiosk(hold: HoldRule(seconds: 0.15, fingers: 2),
                                                          pageRecognizers: [RoutingTests.twoFingerPan(claims: true)]))
        script.down(slot: 0, id: 1, 500, 50)    // the bar: claimed
        #expect(script.pipeline.routedTouchCount == 0)
        script.down(slot: 1, id: 2, 500, 800)   // the map: held, and claimed at once (two fingers down)
        #expect(script.pipeline.routedTouchCount == 0)
        script.up(slot: 0)
        script.up(slot: 1)
        script.down(slot: 0, id: 3, 300, 300)   // the page: forwarded
        #expect(script.pipeline.routedTouchCount == 1)
        script.down(slot: 1, id: 4, 600, 300)
        for step in 1...3 {
            script.frame([EventScript.slot(0), EventScript.y(300 + 40 * Int32(step)),
                          EventScript.slot(1), EventScript.y(300 + 40 * Int32(step))])
        }
        #expect(script.takeRoutes().suffix(2) == ["#3 pilfered", "#4 pilfered"])
        #expect(script.pipeline.routedTouchCount == 0)
    }

    /// ``RoutingTests/fullPanel`` with two per-slot codes the contact tracker does not use for
    /// itself (orientation, width): the routing stage still needs them for the copy.
    static let panelWithShapes: DeviceDescription = {
        var panel = RoutingTests.fullPanel
        panel.absInfo[AbsCode.mtOrientation] = AbsInfo(minimum: -90, maximum: 90)
        panel.absInfo[AbsCode.mtWidthMajor] = AbsInfo(minimum: 0, maximum: 255)
        panel.codes[EventType.abs, default: []].formUnion([AbsCode.mtOrientation, AbsCode.mtWidthMajor])
        return panel
    }()

    static func orientation(_ value: Int32) -> EventScript.Event { (EventType.abs, AbsCode.mtOrientation, value) }
    static func width(_ value: Int32) -> EventScript.Event { (EventType.abs, AbsCode.mtWidthMajor, value) }

    /// Codes the tracker does not use itself reach the copy as the panel sent them: inherited
    /// from a claimed contact by a forwarded one, changed alone in a frame (which moves no
    /// contact), with the frame's `MSC_TIMESTAMP`, and forgotten with a frame cut by
    /// `SYN_DROPPED`.
    @Test func codesTheTrackerDoesNotUseReachTheCopy() throws {
        var script = try RoutingScript(RoutingTests.kiosk(), device: Self.panelWithShapes)
        script.frame([EventScript.slot(0), EventScript.id(1), EventScript.x(500), EventScript.y(50),
                      Self.orientation(7), Self.width(12)])               // 10: the bar, claimed
        script.frame([EventScript.slot(0), EventScript.id(-1)])           // 20
        script.frame([EventScript.slot(0), EventScript.id(2), EventScript.y(300)]) // 30: the page, forwarded
        script.frame([Self.orientation(-4), RoutingTests.msc(4000)])      // 40: only the shape
        script.frame([Self.width(30), EventScript.dropped, Self.orientation(9)])   // 50: cut, never copied
        script.frame([EventScript.x(510)])                                // 60
        #expect(script.takeRoutes() == ["#1 began claimed", "#2 began forwarded"])
        #expect(script.takePanel() == [
            "30 ABS_MT_TRACKING_ID 2", "30 ABS_MT_WIDTH_MAJOR 12", "30 ABS_MT_ORIENTATION 7",
            "30 ABS_MT_POSITION_X 500", "30 ABS_MT_POSITION_Y 300",
            "30 BTN_TOUCH 1", "30 BTN_TOOL_FINGER 1", "30 ABS_X 500", "30 ABS_Y 300", "30 SYN",
            "40 ABS_MT_ORIENTATION -4", "40 MSC_TIMESTAMP 4000", "40 SYN",
            "60 ABS_MT_POSITION_X 510", "60 ABS_X 510", "60 SYN",
        ])
    }

    /// A panel whose `device.axes` rewrite its events (here its multitouch axes swapped) is
    /// copied as it sends them: the copy carries the panel's codes and values, not the ones
    /// gestured reads, and a forwarded contact still starts from what a claimed one left.
    @Test func aPanelWhoseAxesAreRewrittenIsCopiedAsRead() throws {
        let swapped = DeviceOverrides(axes: AxisOverrides(x: AxisOverride(code: AbsCode.mtPositionY),
                                                          y: AxisOverride(code: AbsCode.mtPositionX)))
        var script = try RoutingScript(RoutingTests.kiosk(), device: Self.panelWithShapes, overrides: swapped)
        // Read swapped, (x 50, y 500) is on the bar at (500, 50): claimed.
        script.frame([EventScript.slot(0), EventScript.id(1), EventScript.x(50), EventScript.y(500), Self.width(12)])
        script.frame([EventScript.slot(0), EventScript.id(-1)])
        // (x 300, y 500) is on the page: forwarded, as sent.
        script.frame([EventScript.slot(0), EventScript.id(2), EventScript.x(300)])
        #expect(script.takeRoutes() == ["#1 began claimed", "#2 began forwarded"])
        #expect(script.takePanel() == [
            "30 ABS_MT_TRACKING_ID 2", "30 ABS_MT_WIDTH_MAJOR 12", "30 ABS_MT_POSITION_X 300", "30 ABS_MT_POSITION_Y 500",
            "30 BTN_TOUCH 1", "30 BTN_TOOL_FINGER 1", "30 ABS_X 300", "30 ABS_Y 500", "30 SYN",
        ])
    }
}
