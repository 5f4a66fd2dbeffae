import Testing
@testable import GestureCore

/// Routing (docs/routing.md): which touches reach the virtual panel, when, and as which events,
/// asserted event by event with their times, beside the engine's route decisions.
@Suite("Routing")
struct RoutingTests {
    static func view(_ id: String, _ frame: Rect, routing: RoutingRule? = nil, recognizers: [RecognizerSpec] = [],
                     subviews: [ViewSpec] = []) -> ViewSpec {
        ViewSpec(id: id, frame: frame, subviews: subviews, recognizers: recognizers, routing: routing)
    }

    /// A claimed bar at the top, a forwarded page below it, and inside the page a map that
    /// holds (150 ms, or until `fingers` are down).
    static func kiosk(hold: HoldRule = HoldRule(seconds: 0.15, fingers: 3), pageRecognizers: [RecognizerSpec] = [],
                      mapRecognizers: [RecognizerSpec] = []) -> ViewSpec {
        view("root", Rect(x: 0, y: 0, width: 1000, height: 1000), subviews: [
            view("bar", Rect(x: 0, y: 0, width: 1000, height: 100), routing: .claim),
            view("page", Rect(x: 0, y: 100, width: 1000, height: 900), routing: .forward, recognizers: pageRecognizers,
                 subviews: [view("map", Rect(x: 0, y: 500, width: 1000, height: 400), routing: .hold(hold),
                                 recognizers: mapRecognizers)]),
        ])
    }

    static func twoFingerPan(claims: Bool) -> RecognizerSpec {
        RecognizerSpec(id: "twoFingerPan", kind: .pan, parameters: RecognizerParameters(["minimumTouches": 2]),
                       claims: claims)
    }

    @Test func aClaimedTouchNeverReachesTheCopyAndAForwardedOneDoesWithItsSlotAndTimes() throws {
        var script = try RoutingScript(Self.kiosk())
        script.down(slot: 0, id: 10, 500, 50)       // bar: claimed
        script.down(slot: 1, id: 11, 500, 300)      // page: forwarded, at the same time
        script.move(slot: 0, 520, 60)
        script.move(slot: 1, 510, 320)
        script.up(slot: 1)
        script.up(slot: 0)
        #expect(script.takeRoutes() == ["#1 began claimed", "#2 began forwarded"])
        #expect(script.takePanel() == [
            "20 ABS_MT_SLOT 1", "20 ABS_MT_TRACKING_ID 11", "20 ABS_MT_POSITION_X 500", "20 ABS_MT_POSITION_Y 300",
            "20 BTN_TOUCH 1", "20 SYN",
            "40 ABS_MT_POSITION_X 510", "40 ABS_MT_POSITION_Y 320", "40 SYN",
            "50 ABS_MT_TRACKING_ID -1", "50 BTN_TOUCH 0", "50 SYN",
        ])
    }

    @Test func deliveriesSayEachTouchsRoute() throws {
        var script = try RoutingScript(Self.kiosk(hold: HoldRule(seconds: 0.15, fingers: 4)))
        script.down(slot: 0, id: 10, 500, 50)
        script.down(slot: 1, id: 11, 500, 300)
        script.down(slot: 2, id: 12, 500, 800)
        #expect(script.takeDeliveries() == ["began bar #1 claimed", "began page #2 forwarded", "began map #3 held"])
        #expect(script.pipeline.touchCount(route: .claimed) == 1)
        #expect(script.pipeline.touchCount(route: .forwarded) == 1)
        #expect(script.pipeline.touchCount(route: .held) == 1)
    }

    @Test func theRouteFieldIsInTheJSONOnlyWithRouting() throws {
        let root = Self.kiosk()
        var routed = GesturePipeline(setup: PipelineSetup(tree: try ViewTree(root: root), settings: GestureSettings(),
                                                          screen: ScreenGeometry(width: 1000, height: 1000),
                                                          routing: RoutingConfiguration(defaultRule: .claim)))
        var plain = GesturePipeline(setup: PipelineSetup(tree: try ViewTree(root: root), settings: GestureSettings(),
                                                         screen: ScreenGeometry(width: 1000, height: 1000)))
        try routed.addDevice(DeviceFixtures.square, message: "test", at: .zero)
        try plain.addDevice(DeviceFixtures.square, message: "test", at: .zero)
        var script = EventScript()
        // A forwarded touch on the page, and a claimed one on the bar, which says nothing: a
        // claimed touch is gestured's alone, as every touch is without routing.
        script.frame(10, [EventScript.slot(0), EventScript.id(5), EventScript.x(500), EventScript.y(300)])
        script.frame(20, [EventScript.slot(1), EventScript.id(6), EventScript.x(500), EventScript.y(50)])
        for event in script.events {
            routed.feed(event)
            plain.feed(event)
        }
        var routedLines = JSONLinesSink(writesRoutes: routed.routing != nil)
        var plainLines = JSONLinesSink(writesRoutes: plain.routing != nil)
        routedLines.consume(routed.records)
        plainLines.consume(plain.records)
        let routedText = String(decoding: routedLines.batch.bytes, as: UTF8.self)
        let plainText = String(decoding: plainLines.batch.bytes, as: UTF8.self)
        #expect(routedText.contains(#""tapCount":1,"route":"forwarded"}"#))
        #expect(routedText.contains(#""view":"bar""#) && !routedText.contains(#""route":"claimed""#))
        #expect(!plainText.contains("route"))
        #expect(plain.records.panel.isEmpty)
        #expect(routedText.split(separator: #","route":"forwarded""#).joined() == plainText)
    }

    @Test func aTouchInheritsItsSuperviewsRuleAndATouchOnNoViewTakesTheDefault() throws {
        let root = Self.view("root", Rect(x: 0, y: 0, width: 1000, height: 800), subviews: [
            Self.view("page", Rect(x: 0, y: 0, width: 1000, height: 400), routing: .claim, subviews: [
                Self.view("button", Rect(x: 0, y: 0, width: 200, height: 200)),
            ]),
        ])
        var script = try RoutingScript(root, routing: .forward)
        script.down(slot: 0, id: 1, 100, 100)    // button: the page's claim
        script.down(slot: 1, id: 2, 500, 600)    // root: the default, forward
        script.down(slot: 2, id: 3, 500, 900)    // below the root: no view, the default
        #expect(script.takeRoutes() == ["#1 began claimed", "#2 began forwarded", "#3 began forwarded"])
    }

    @Test func aLateClaimCancelsEveryForwardedFingerAsAPalmThenALift() throws {
        var script = try RoutingScript(Self.kiosk(pageRecognizers: [Self.twoFingerPan(claims: true)]))
        script.down(slot: 0, id: 20, 300, 300)
        script.down(slot: 1, id: 21, 600, 300)
        script.move(slot: 0, 300, 310)
        _ = script.takePanel()
        script.frame([EventScript.slot(0), EventScript.y(340), EventScript.slot(1), EventScript.y(340)])
        script.frame([EventScript.slot(0), EventScript.y(380), EventScript.slot(1), EventScript.y(380)])
        script.up(slot: 0)
        script.up(slot: 1)
        #expect(script.takeRoutes() == ["#1 began forwarded", "#2 began forwarded", "#1 pilfered", "#2 pilfered"])
        // The pan begins in the frame at 40 ms: each finger's tool becomes a palm, then it
        // lifts with its tool given back (a finger); nothing of either reaches the copy
        // afterwards.
        #expect(script.takePanel() == [
            "40 ABS_MT_TOOL_TYPE 2", "40 SYN",
            "40 ABS_MT_TOOL_TYPE 0", "40 ABS_MT_TRACKING_ID -1", "40 SYN",
            "40 ABS_MT_SLOT 1", "40 ABS_MT_TOOL_TYPE 2", "40 SYN",
            "40 ABS_MT_TOOL_TYPE 0", "40 ABS_MT_TRACKING_ID -1", "40 BTN_TOUCH 0", "40 SYN",
        ])
    }

    /// libinput takes a new contact in a slot whose tool is still a palm as its tracking id is
    /// read for a palm, and ignores it to its end (`fallback_process_touch`): after a late
    /// claim, the next touch in each of its slots must begin on the copy with a finger's tool
    /// already there, whichever way it reaches the copy (forwarded at once, or held then
    /// forwarded).
    @Test(arguments: [(Int32(300), "forwarded at once"), (Int32(700), "held, then forwarded")])
    func aTouchAfterALateClaimBeginsInItsSlotAsAFinger(y: Int32, _ how: String) throws {
        var script = try RoutingScript(Self.kiosk(hold: HoldRule(seconds: 0.05),
                                                  pageRecognizers: [Self.twoFingerPan(claims: true)]))
        script.down(slot: 0, id: 20, 300, 300)
        script.down(slot: 1, id: 21, 600, 300)
        script.frame([EventScript.slot(0), EventScript.y(340), EventScript.slot(1), EventScript.y(340)])
        script.frame([EventScript.slot(0), EventScript.y(380), EventScript.slot(1), EventScript.y(380)])
        script.up(slot: 0)
        script.up(slot: 1)
        #expect(script.takeRoutes().suffix(2) == ["#1 pilfered", "#2 pilfered"])
        _ = script.takePanel()
        script.down(slot: 1, id: 22, 500, y)
        script.wait(100)
        script.up(slot: 1)
        let panel = script.takePanel()
        #expect(panel.contains { $0.hasSuffix(" ABS_MT_TRACKING_ID 22") }, "\(how): the touch reached the copy")
        #expect(!panel.contains { $0.contains("ABS_MT_TOOL_TYPE") }, "\(how): \(panel)")
        #expect(panel.contains { $0.hasSuffix(" ABS_MT_TRACKING_ID -1") }, "\(how): the touch lifted on the copy")
    }

    @Test func aRecognizerThatDoesNotClaimLeavesForwardedTouchesForwarded() throws {
        var script = try RoutingScript(Self.kiosk(pageRecognizers: [Self.twoFingerPan(claims: false)]))
        script.down(slot: 0, id: 20, 300, 300)
        script.down(slot: 1, id: 21, 600, 300)
        script.frame([EventScript.slot(0), EventScript.y(340), EventScript.slot(1), EventScript.y(340)])
        #expect(script.takeRoutes() == ["#1 began forwarded", "#2 began forwarded"])
        #expect(script.takePanel().suffix(5) == ["30 ABS_MT_SLOT 0", "30 ABS_MT_POSITION_Y 340", "30 ABS_MT_SLOT 1",
                                                 "30 ABS_MT_POSITION_Y 340", "30 SYN"])
    }

    @Test func aHeldTouchIsClaimedWhenFingersAreDownWhereverTheOthersLanded() throws {
        // `fingers` counts every touch down on the panel: a third finger on the bar claims too.
        var script = try RoutingScript(Self.kiosk())
        script.down(slot: 0, id: 1, 500, 800)
        script.down(slot: 1, id: 2, 500, 300)
        script.down(slot: 2, id: 3, 500, 50)
        #expect(script.takeRoutes() == ["#1 began held", "#2 began forwarded", "#3 began claimed", "#1 claimed"])
        #expect(script.takePanel().first == "20 ABS_MT_SLOT 1")
    }

    @Test func heldTouchesAreClaimedWhenTheirFingersAreDown() throws {
        var script = try RoutingScript(Self.kiosk())
        script.down(slot: 0, id: 1, 300, 700)
        script.down(slot: 1, id: 2, 500, 700)
        script.down(slot: 2, id: 3, 700, 700)
        script.move(slot: 0, 300, 800)
        script.wait(500)
        script.up(slot: 0)
        script.up(slot: 1)
        script.up(slot: 2)
        #expect(script.takeRoutes() == ["#1 began held", "#2 began held", "#3 began held",
                                        "#1 claimed", "#2 claimed", "#3 claimed"])
        #expect(script.takePanel() == [])
    }

    @Test func aHeldTouchIsForwardedWhenItsHoldRunsOutWithItsFramesAtTheirTimes() throws {
        var script = try RoutingScript(Self.kiosk())
        script.down(slot: 0, id: 1, 300, 700)        // 10 ms
        script.move(slot: 0, 302, 701, after: 50)    // 60 ms
        #expect(script.takePanel() == [])
        script.wait(150)                             // the hold ends at 160 ms
        #expect(script.takeRoutes() == ["#1 began held", "#1 forwarded"])
        #expect(script.takePanel() == [
            "10 ABS_MT_TRACKING_ID 1", "10 ABS_MT_POSITION_X 300", "10 ABS_MT_POSITION_Y 700", "10 BTN_TOUCH 1", "10 SYN",
            "60 ABS_MT_POSITION_X 302", "60 ABS_MT_POSITION_Y 701", "60 SYN",
        ])
        script.move(slot: 0, 310, 701)
        script.up(slot: 0)
        #expect(script.takePanel() == ["220 ABS_MT_POSITION_X 310", "220 SYN",
                                       "230 ABS_MT_TRACKING_ID -1", "230 BTN_TOUCH 0", "230 SYN"])
    }

    @Test func aHeldTouchIsForwardedWhenItMovesItsDistance() throws {
        var script = try RoutingScript(Self.kiosk(hold: HoldRule(seconds: 1, fingers: 3, distance: .points(50))))
        script.down(slot: 0, id: 1, 300, 700)
        script.move(slot: 0, 320, 700)
        #expect(script.takePanel() == [])
        script.move(slot: 0, 360, 700)
        #expect(script.takeRoutes() == ["#1 began held", "#1 forwarded"])
        #expect(script.takePanel() == [
            "10 ABS_MT_TRACKING_ID 1", "10 ABS_MT_POSITION_X 300", "10 ABS_MT_POSITION_Y 700", "10 BTN_TOUCH 1", "10 SYN",
            "20 ABS_MT_POSITION_X 320", "20 SYN",
            "30 ABS_MT_POSITION_X 360", "30 SYN",
        ])
    }

    @Test func aHeldTouchThatLiftsIsForwardedWholeAtTheLift() throws {
        var script = try RoutingScript(Self.kiosk())
        script.down(slot: 0, id: 1, 300, 700)
        script.up(slot: 0, after: 40)
        #expect(script.takeRoutes() == ["#1 began held", "#1 forwarded"])
        #expect(script.takePanel() == [
            "10 ABS_MT_TRACKING_ID 1", "10 ABS_MT_POSITION_X 300", "10 ABS_MT_POSITION_Y 700", "10 BTN_TOUCH 1", "10 SYN",
            "50 ABS_MT_TRACKING_ID -1", "50 BTN_TOUCH 0", "50 SYN",
        ])
        #expect(script.pipeline.nextDeadline == nil)
    }

    @Test func twoHeldTouchesForwardedTogetherKeepTheOrderTheyWereReadIn() throws {
        var script = try RoutingScript(Self.kiosk())
        script.down(slot: 0, id: 1, 300, 700)
        script.down(slot: 1, id: 2, 500, 700)
        script.move(slot: 0, 305, 700)
        script.wait(200)
        #expect(script.takeRoutes() == ["#1 began held", "#2 began held", "#1 forwarded", "#2 forwarded"])
        #expect(script.takePanel() == [
            "10 ABS_MT_TRACKING_ID 1", "10 ABS_MT_POSITION_X 300", "10 ABS_MT_POSITION_Y 700", "10 BTN_TOUCH 1", "10 SYN",
            "20 ABS_MT_SLOT 1", "20 ABS_MT_TRACKING_ID 2", "20 ABS_MT_POSITION_X 500", "20 ABS_MT_POSITION_Y 700", "20 SYN",
            "30 ABS_MT_SLOT 0", "30 ABS_MT_POSITION_X 305", "30 SYN",
        ])
    }

    @Test func aHeldTouchNothingCanClaimIsForwardedAtOnce() throws {
        var script = try RoutingScript(Self.kiosk(hold: HoldRule(seconds: 0.5)))
        script.down(slot: 0, id: 1, 300, 700)
        #expect(script.takeRoutes() == ["#1 began held", "#1 forwarded"])
        #expect(script.takePanel() == [
            "10 ABS_MT_TRACKING_ID 1", "10 ABS_MT_POSITION_X 300", "10 ABS_MT_POSITION_Y 700", "10 BTN_TOUCH 1", "10 SYN",
        ])
    }

    @Test func aClaimingRecognizerThatRecognizesClaimsAHeldTouchAndOneThatFailsForwardsIt() throws {
        let press = RecognizerSpec(id: "press", kind: .longPress,
                                   parameters: RecognizerParameters(["minimumDuration": 0.2, "allowableMovement": 10]),
                                   claims: true)
        var script = try RoutingScript(Self.kiosk(hold: HoldRule(seconds: 0.5), mapRecognizers: [press]))
        script.down(slot: 0, id: 1, 300, 700)
        script.wait(300)
        script.up(slot: 0)
        #expect(script.takeRoutes() == ["#1 began held", "#1 claimed"])
        #expect(script.takePanel() == [])

        // Moving past the long press's allowable movement fails it: nothing can claim the touch.
        script.down(slot: 0, id: 2, 300, 700)
        script.move(slot: 0, 360, 700)
        #expect(script.takeRoutes() == ["#2 began held", "#2 forwarded"])
        #expect(script.takePanel() == [
            "330 ABS_MT_TRACKING_ID 2", "330 ABS_MT_POSITION_X 300", "330 ABS_MT_POSITION_Y 700", "330 BTN_TOUCH 1", "330 SYN",
            "340 ABS_MT_POSITION_X 360", "340 SYN",
        ])
    }

    @Test func aResynchronisationLiftsLostForwardedTouchesAndDropsHeldOnes() throws {
        var script = try RoutingScript(Self.kiosk(hold: HoldRule(seconds: 0.15, fingers: 4)))
        script.down(slot: 0, id: 1, 300, 300)   // forwarded
        script.down(slot: 1, id: 2, 500, 700)   // held
        script.down(slot: 2, id: 3, 700, 300)   // forwarded, survives
        _ = script.takePanel()
        let snapshot = DeviceSnapshot(currentSlot: 2, slots: [
            .empty, .empty, SlotSnapshot(trackingID: 3, position: DevicePosition(x: 710, y: 300)),
        ])
        script.resynchronise(snapshot)
        #expect(script.takeRoutes() == ["#1 began forwarded", "#2 began held", "#3 began forwarded", "#2 dropped"])
        #expect(script.takePanel() == [
            "40 ABS_MT_SLOT 0", "40 ABS_MT_TRACKING_ID -1", "40 ABS_MT_SLOT 2", "40 ABS_MT_POSITION_X 710", "40 SYN",
        ])
    }

    /// Found by the kernel test test_routing_syn_dropped_lifts_vanished_fingers: a slot whose
    /// forwarded contact vanished while another landed in it went from one tracking id to the
    /// next on the copy, which libevdev calls a device bug and libinput reads as the old touch
    /// moving. The old contact lifts in a frame of its own first, whatever replaced it.
    @Test(arguments: [true, false])
    func aForwardedContactReplacedInItsSlotLiftsInAFrameOfItsOwnFirst(byResync: Bool) throws {
        var script = try RoutingScript(Self.kiosk())
        script.down(slot: 0, id: 1, 300, 300)   // forwarded, survives
        script.down(slot: 1, id: 2, 500, 300)   // forwarded, replaced by 3 in its slot
        _ = script.takePanel()
        if byResync {
            script.resynchronise(DeviceSnapshot(currentSlot: 1, slots: [
                SlotSnapshot(trackingID: 1, position: DevicePosition(x: 300, y: 300)),
                SlotSnapshot(trackingID: 3, position: DevicePosition(x: 600, y: 400)),
            ]))
        } else {
            script.frame([EventScript.slot(1), EventScript.id(3), EventScript.x(600), EventScript.y(400)])
        }
        #expect(script.takeRoutes() == ["#1 began forwarded", "#2 began forwarded", "#3 began forwarded"])
        #expect(script.takePanel() == [
            "30 ABS_MT_TRACKING_ID -1", "30 SYN",
            "30 ABS_MT_TRACKING_ID 3", "30 ABS_MT_POSITION_X 600", "30 ABS_MT_POSITION_Y 400", "30 SYN",
        ])
    }

    @Test func aRemovedDeviceLiftsItsForwardedTouchesOnTheCopy() throws {
        var script = try RoutingScript(Self.kiosk())
        script.down(slot: 0, id: 1, 300, 300)   // forwarded
        script.down(slot: 1, id: 2, 500, 700)   // held
        _ = script.takePanel()
        script.removeDevice()
        #expect(script.takeRoutes() == ["#1 began forwarded", "#2 began held", "#2 dropped"])
        #expect(script.takePanel() == ["30 ABS_MT_TRACKING_ID -1", "30 BTN_TOUCH 0", "30 SYN"])
    }

    @Test func withoutRoutingTheEngineRecordsNothingAndThePanelStaysEmpty() throws {
        var pipeline = GesturePipeline(setup: PipelineSetup(tree: try ViewTree(root: Self.kiosk()), settings: GestureSettings(),
                                                            screen: ScreenGeometry(width: 1000, height: 1000)))
        try pipeline.addDevice(DeviceFixtures.square, message: "test", at: .zero)
        var script = EventScript()
        script.frame(10, [EventScript.slot(0), EventScript.id(5), EventScript.x(500), EventScript.y(800)])
        script.frame(400, [EventScript.id(-1)])
        for event in script.events { pipeline.feed(event) }
        #expect(pipeline.records.panel.isEmpty)
        #expect(pipeline.records.routeChanges.isEmpty)
        #expect(pipeline.copySource == nil)
        #expect(pipeline.touchCount(route: .held) == 0)
    }

    @Test func aHeldTouchKeepsAtMostTheBoundOfFramesAndItsLatestValues() throws {
        // 3,000 frames within a one-second hold: the first 1,999 are kept as read, the later
        // ones replace the last kept frame, so the copy gets 2,000 frames and the final place.
        var script = try RoutingScript(Self.kiosk(hold: HoldRule(seconds: 1, fingers: 3)))
        var events: [RawEvent] = []
        func add(_ microseconds: Int64, _ frame: [EventScript.Event]) {
            for event in frame + [(EventType.syn, SynCode.report, 0)] {
                events.append(RawEvent(time: Timestamp(microseconds: microseconds), type: event.type, code: event.code,
                                       value: event.value))
            }
        }
        add(10_000, [EventScript.slot(0), EventScript.id(1), EventScript.x(100), EventScript.y(700)])
        // 0.3 ms apart: all within the hold.
        for step in 1...3_000 { add(10_000 + Int64(step) * 300, [EventScript.x(Int32(100 + step % 500))]) }
        for event in events { script.pipeline.feed(event) }
        #expect(script.takePanel() == [])
        script.wait(1_100)
        let panel = script.takePanel()
        #expect(panel.filter { $0.hasSuffix("SYN") }.count == RoutingLimits.heldFrames)
        #expect(panel.suffix(2).first == "910 ABS_MT_POSITION_X 100")
    }

    @Test func aSingleTouchPanelIsNotRoutedAndSaysSo() throws {
        var pipeline = GesturePipeline(setup: PipelineSetup(tree: try ViewTree(root: Self.kiosk()), settings: GestureSettings(),
                                                            screen: ScreenGeometry(width: 1000, height: 1000),
                                                            routing: RoutingConfiguration(defaultRule: .forward)))
        try pipeline.addDevice(DeviceFixtures.resistive, message: "test", at: .zero)
        #expect(pipeline.copySource == nil)
        #expect(pipeline.takeNotices().contains { $0.contains("routing needs a multitouch panel") })
        var script = EventScript()
        script.frame(10, [EventScript.touch(1), EventScript.absX(2000), EventScript.absY(2000)])
        for event in script.events { pipeline.feed(event) }
        #expect(pipeline.records.panel.isEmpty)
    }

    @Test func aClaimingRecognizerWithoutRoutingKeepsNothing() throws {
        var engine = Engine(tree: try ViewTree(root: Self.kiosk(pageRecognizers: [Self.twoFingerPan(claims: true)])),
                            screen: Rect(x: 0, y: 0, width: 1000, height: 1000))
        var events: [EngineEvent] = []
        for round in 0..<50 {
            let base = Int64(round) * 1_000_000
            let a = ContactID(round * 2), b = ContactID(round * 2 + 1)
            engine.process(TouchFrame(time: Timestamp(microseconds: base), changes: [.down(a, Point(x: 300, y: 300)),
                                                                                    .down(b, Point(x: 600, y: 300))]),
                           into: &events)
            engine.process(TouchFrame(time: Timestamp(microseconds: base + 50_000),
                                      changes: [.move(a, Point(x: 300, y: 400)), .move(b, Point(x: 600, y: 400))]),
                           into: &events)
            engine.process(TouchFrame(time: Timestamp(microseconds: base + 100_000), changes: [.up(a), .up(b)]),
                           into: &events)
        }
        #expect(events.contains { if case .gesture(let g) = $0 { g.state == .began } else { false } })
        #expect(engine.routeChanges.isEmpty)
        #expect(engine.arenaClaimedTouchCount == 0)
    }

    /// A panel that declares what the kernel computes for single-touch readers: finger-count
    /// tools, ABS_X/ABS_Y/ABS_PRESSURE, and MSC_TIMESTAMP.
    static let fullPanel = DeviceDescription(
        name: "Full Test Panel",
        codes: [EventType.key: [KeyCode.btnTouch, KeyCode.btnToolFinger, KeyCode.btnToolDoubletap, KeyCode.btnToolTripletap],
                EventType.msc: [MscCode.timestamp]],
        absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 999), AbsCode.y: AbsInfo(minimum: 0, maximum: 999),
                  AbsCode.pressure: AbsInfo(minimum: 0, maximum: 255),
                  AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: 9), AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535),
                  AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 999), AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 999),
                  AbsCode.mtPressure: AbsInfo(minimum: 0, maximum: 255)],
        properties: [InputProperty.direct])

    static func msc(_ value: Int32) -> EventScript.Event { (EventType.msc, MscCode.timestamp, value) }

    @Test func deviceWideStateFollowsTheForwardedTouchesByTheKernelsRules() throws {
        var script = try RoutingScript(Self.kiosk(), device: Self.fullPanel)
        // The panel's own legacy events (BTN_TOUCH, ABS_X…) are not copied: the copy's are
        // computed over forwarded touches only. A claimed touch in slot 0 counts for nothing.
        script.frame([EventScript.slot(0), EventScript.id(1), EventScript.x(500), EventScript.y(50), EventScript.pressure(30),
                      EventScript.touch(1), EventScript.absX(500), EventScript.absY(50), Self.msc(1000)])
        script.frame([EventScript.slot(1), EventScript.id(2), EventScript.x(300), EventScript.y(300), EventScript.pressure(40),
                      EventScript.absPressure(40), Self.msc(2000)])
        script.frame([EventScript.slot(2), EventScript.id(3), EventScript.x(600), EventScript.y(400), EventScript.pressure(50),
                      Self.msc(3000)])
        script.frame([EventScript.slot(1), EventScript.id(-1), Self.msc(4000)])
        script.frame([EventScript.slot(0), EventScript.x(510), Self.msc(5000)])
        #expect(script.takePanel() == [
            "20 ABS_MT_SLOT 1", "20 ABS_MT_TRACKING_ID 2", "20 ABS_MT_POSITION_X 300", "20 ABS_MT_POSITION_Y 300",
            "20 ABS_MT_PRESSURE 40", "20 BTN_TOUCH 1", "20 BTN_TOOL_FINGER 1", "20 ABS_X 300", "20 ABS_Y 300",
            "20 ABS_PRESSURE 40", "20 MSC_TIMESTAMP 2000", "20 SYN",
            "30 ABS_MT_SLOT 2", "30 ABS_MT_TRACKING_ID 3", "30 ABS_MT_POSITION_X 600", "30 ABS_MT_POSITION_Y 400",
            "30 ABS_MT_PRESSURE 50", "30 BTN_TOOL_FINGER 0", "30 BTN_TOOL_DOUBLETAP 1", "30 MSC_TIMESTAMP 3000", "30 SYN",
            // The oldest contact lifts: the single-touch emulation follows the one left.
            "40 ABS_MT_SLOT 1", "40 ABS_MT_TRACKING_ID -1", "40 BTN_TOOL_FINGER 1", "40 BTN_TOOL_DOUBLETAP 0",
            "40 ABS_X 600", "40 ABS_Y 400", "40 ABS_PRESSURE 50", "40 MSC_TIMESTAMP 4000", "40 SYN",
        ])
    }

    @Test func aFrameCutBySynDroppedNeverReachesTheCopy() throws {
        var script = try RoutingScript(Self.kiosk())
        script.down(slot: 0, id: 1, 300, 300)
        _ = script.takePanel()
        // The kernel dropped events: what came before the next SYN_REPORT is incomplete.
        script.frame([EventScript.x(310), EventScript.dropped, EventScript.y(900)])
        #expect(script.takePanel() == [])
        script.move(slot: 0, 320, 300)
        #expect(script.takePanel() == ["30 ABS_MT_POSITION_X 320", "30 SYN"])
    }
}
