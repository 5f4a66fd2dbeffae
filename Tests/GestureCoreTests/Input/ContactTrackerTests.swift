import GestureCore
import Testing

/// Raw events → frames. The test panel runs 0 ... 1023 on a 1024 x 1024 screen, so a device
/// value is also its screen point, and frames can be written out exactly.
@Suite struct ContactTrackerTests {
    typealias S = EventScript

    static let grid = AbsInfo(minimum: 0, maximum: 1023)

    static func tracker(slots: Int = 4) -> ContactTracker {
        let description = DeviceDescription(
            name: "test panel",
            absInfo: [AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: Int32(slots - 1)),
                      AbsCode.mtPositionX: grid, AbsCode.mtPositionY: grid,
                      AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535)],
            properties: [InputProperty.direct])
        let mapping = try! DeviceMapping(description: description, screen: ScreenGeometry(width: 1024, height: 1024))
        return ContactTracker(description: description, mapping: mapping)
    }

    static func at(_ milliseconds: Int64) -> Timestamp { S.time(milliseconds) }
    static func c(_ id: Int) -> ContactID { ContactID(id) }
    static func p(_ x: Double, _ y: Double) -> Point { Point(x: x, y: y) }

    // MARK: Protocol B

    @Test func protocolBDownMoveUpOverSeveralSlots() {
        var script = S()
        script.frame(0, [S.slot(0), S.id(10), S.x(100), S.y(200)])
        script.frame(10, [S.slot(1), S.id(11), S.x(300), S.y(400)])
        script.frame(20, [S.slot(0), S.x(110), S.slot(1), S.y(410)])
        script.frame(30, [S.slot(0), S.id(-1)])
        script.frame(40, [S.slot(1), S.x(320), S.id(-1)])  // position and lift in one frame: up wins
        var tracker = Self.tracker()
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(10), Self.p(100, 200))]),
            TouchFrame(time: Self.at(10), changes: [.down(Self.c(11), Self.p(300, 400))]),
            TouchFrame(time: Self.at(20), changes: [.move(Self.c(10), Self.p(110, 200)),
                                                    .move(Self.c(11), Self.p(300, 410))]),
            TouchFrame(time: Self.at(30), changes: [.up(Self.c(10))]),
            TouchFrame(time: Self.at(40), changes: [.up(Self.c(11))]),
        ])
        #expect(tracker.anomalyCount == 0)
        #expect(tracker.activeContacts.isEmpty)
    }

    @Test func changesAreInSlotOrderWhateverTheEventOrder() {
        var script = S()
        // Slot 2 first, then slot 0; the tracking id after the position.
        script.frame(0, [S.slot(2), S.x(30), S.y(30), S.id(7), S.slot(0), S.x(10), S.y(10), S.id(8)])
        var tracker = Self.tracker()
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(8), Self.p(10, 10)), .down(Self.c(7), Self.p(30, 30))]),
        ])
    }

    @Test func aNewTrackingIDWithoutALiftEndsTheOldContactAndBeginsANewOne() {
        var script = S()
        script.frame(0, [S.id(1), S.x(100), S.y(100)])
        script.frame(10, [S.id(2), S.x(500)])
        var tracker = Self.tracker()
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(1), Self.p(100, 100))]),
            TouchFrame(time: Self.at(10), changes: [.up(Self.c(1)), .down(Self.c(2), Self.p(500, 100))]),
        ])
    }

    @Test func trackingIDsMayBeReusedAfterALift() {
        var script = S()
        script.frame(0, [S.slot(0), S.id(5), S.x(1), S.y(1)])
        script.frame(10, [S.slot(0), S.id(-1)])
        script.frame(20, [S.slot(1), S.id(5), S.x(2), S.y(2)])
        var tracker = Self.tracker()
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(5), Self.p(1, 1))]),
            TouchFrame(time: Self.at(10), changes: [.up(Self.c(5))]),
            TouchFrame(time: Self.at(20), changes: [.down(Self.c(5), Self.p(2, 2))]),
        ])
        #expect(tracker.anomalyCount == 0)
    }

    @Test func aContactWithoutAPositionUsesItsSlotsLastKnownOne() {
        // The kernel sends only changed values: a finger landing where the last one lifted
        // brings a tracking id and nothing else.
        var script = S()
        script.frame(0, [S.id(1), S.x(100), S.y(200)])
        script.frame(10, [S.id(-1)])
        script.frame(20, [S.id(2)])
        var tracker = Self.tracker()
        #expect(script.run(&tracker).last == TouchFrame(time: Self.at(20), changes: [.down(Self.c(2), Self.p(100, 200))]))
    }

    @Test func aFreshSlotStartsAtTheKernelsInitialZero() throws {
        // hidrec-egalax-7224.2f.evemu lines 89–100: the first finger lands on the top edge and
        // sends no ABS_MT_POSITION_Y, because the kernel's slot value was already 0.
        let description = DeviceFixtures.egalax
        let mapping = try DeviceMapping(description: description, screen: ScreenGeometry(width: 32768, height: 32768))
        var tracker = ContactTracker(description: description, mapping: mapping)
        var script = S()
        script.frame(0, [S.id(0), S.x(32752), S.touch(1), S.absX(32752)])
        script.frame(44, [S.x(32704), S.absX(32704)])
        script.frame(51, [S.x(32656), S.y(64), S.absX(32656), S.absY(64)])
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(0), Self.p(32752, 0))]),
            TouchFrame(time: Self.at(44), changes: [.move(Self.c(0), Self.p(32704, 0))]),
            TouchFrame(time: Self.at(51), changes: [.move(Self.c(0), Self.p(32656, 64))]),
        ])
        #expect(tracker.anomalyCount == 0)
    }

    @Test func radiusAndForceTravelWithTheContact() throws {
        let description = DeviceFixtures.nexus4
        let mapping = try DeviceMapping(description: description, screen: ScreenGeometry(width: 768, height: 1280))
        var tracker = ContactTracker(description: description, mapping: mapping)
        var script = S()
        script.frame(0, [S.id(1), S.x(0), S.y(0), S.major(10), S.pressure(51)])
        script.frame(10, [S.pressure(255)])
        // X: 1536 units on 768 points → 2 units a point; major 10 → radius 2.5 points.
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(1), .zero, majorRadius: 2.5, force: 0.2)]),
            TouchFrame(time: Self.at(10), changes: [.move(Self.c(1), .zero, majorRadius: 2.5, force: 1)]),
        ])
    }

    @Test func framesThatChangeNoContactYieldNothing() {
        var tracker = Self.tracker()
        let report = RawEvent(time: Self.at(0), type: EventType.syn, code: SynCode.report, value: 0)
        let scan = RawEvent(time: Self.at(0), type: EventType.msc, code: 4, value: 0x90001)
        #expect(tracker.process(scan) == nil)
        #expect(tracker.process(report) == nil)
        var script = S()
        script.frame(10, [S.id(1), S.x(1), S.y(1)])
        script.frame(20, [S.x(1)])  // the same value again
        #expect(script.run(&tracker).count == 1)
    }

    @Test func framesReuseTheTrackersChangeBufferOnceTheCallerLetsGo() {
        // The per-frame path allocates nothing: the second frame's changes live where the
        // first frame's did, because the caller dropped the first frame before the next event.
        var script = S()
        script.frame(0, [S.id(1), S.x(1), S.y(1)])
        script.frame(10, [S.x(2)])
        var tracker = Self.tracker()
        var addresses: [UnsafeRawPointer?] = []
        for event in script.events {
            if let frame = tracker.process(event) {
                addresses.append(frame.changes.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) })
            }
        }
        #expect(addresses.count == 2)
        #expect(addresses[0] == addresses[1])
    }

    // MARK: Frames written in place

    /// Moves are written into the tracker's change buffer in place; a frame the caller still
    /// holds keeps its own changes (copy on write), even when the next frame has as many.
    @Test func aFrameTheCallerKeepsIsNotOverwrittenByTheNext() {
        var script = S()
        script.frame(0, [S.slot(0), S.id(1), S.x(1), S.y(1), S.slot(1), S.id(2), S.x(5), S.y(5)])
        script.frame(10, [S.slot(0), S.x(2), S.slot(1), S.x(6)])
        script.frame(20, [S.slot(0), S.x(3), S.slot(1), S.x(7)])
        var tracker = Self.tracker()
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(1), Self.p(1, 1)), .down(Self.c(2), Self.p(5, 5))]),
            TouchFrame(time: Self.at(10), changes: [.move(Self.c(1), Self.p(2, 1)), .move(Self.c(2), Self.p(6, 5))]),
            TouchFrame(time: Self.at(20), changes: [.move(Self.c(1), Self.p(3, 1)), .move(Self.c(2), Self.p(7, 5))]),
        ])
    }

    /// Contacts that keep moving are committed by the fast path up to the first slot whose
    /// contact begins or ends, the rest through the whole table: one frame, slot order.
    @Test func aFrameMixingMovesWithContactsThatBeginAndEndKeepsSlotOrder() {
        var script = S()
        script.frame(0, [S.slot(0), S.id(1), S.x(1), S.y(1), S.slot(1), S.id(2), S.x(2), S.y(2),
                         S.slot(3), S.id(4), S.x(4), S.y(4)])
        // Slot 0 moves, slot 1 lifts, slot 2 begins, slot 3 moves (events in another order).
        script.frame(10, [S.slot(3), S.x(40), S.slot(2), S.id(3), S.x(3), S.y(3), S.slot(1), S.id(-1),
                          S.slot(0), S.x(10)])
        // Slot 0 lifts, slot 2 moves, slot 3 is sent its y again unchanged.
        script.frame(20, [S.slot(0), S.id(-1), S.slot(2), S.x(30), S.slot(3), S.y(4)])
        var tracker = Self.tracker()
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(1), Self.p(1, 1)), .down(Self.c(2), Self.p(2, 2)),
                                                   .down(Self.c(4), Self.p(4, 4))]),
            TouchFrame(time: Self.at(10), changes: [.move(Self.c(1), Self.p(10, 1)), .up(Self.c(2)),
                                                    .down(Self.c(3), Self.p(3, 3)), .move(Self.c(4), Self.p(40, 4))]),
            TouchFrame(time: Self.at(20), changes: [.up(Self.c(1)), .move(Self.c(3), Self.p(30, 3))]),
        ])
        #expect(tracker.activeContacts == [Self.c(3), Self.c(4)])
        #expect(tracker.anomalyCount == 0)
    }

    /// A slot sent values it already had changes nothing, between slots that move.
    @Test func slotsSentTheirOwnValuesAgainAddNothingBetweenMoves() {
        var script = S()
        script.frame(0, [S.slot(0), S.id(1), S.x(1), S.y(1), S.slot(1), S.id(2), S.x(2), S.y(2),
                         S.slot(2), S.id(3), S.x(3), S.y(3)])
        script.frame(10, [S.slot(0), S.x(1), S.slot(1), S.x(20), S.slot(2), S.y(3)])
        script.frame(20, [S.slot(0), S.x(1), S.slot(2), S.y(3)])
        script.frame(30, [S.slot(0), S.x(10), S.slot(1), S.x(2), S.slot(2), S.x(30)])
        var tracker = Self.tracker()
        let frames = script.run(&tracker)
        #expect(frames.dropFirst() == [
            TouchFrame(time: Self.at(10), changes: [.move(Self.c(2), Self.p(20, 2))]),
            TouchFrame(time: Self.at(30), changes: [.move(Self.c(1), Self.p(10, 1)), .move(Self.c(2), Self.p(2, 2)),
                                                    .move(Self.c(3), Self.p(30, 3))]),
        ])
    }

    /// After a screen change, a contact that began before moves on its own screen and one that
    /// began after on the new one, in the same frame, whichever slot comes first.
    @Test func contactsOnTheOldAndTheNewScreenMoveInOneFrame() {
        var tracker = Self.tracker()
        var before = S()
        before.frame(0, [S.slot(1), S.id(1), S.x(100), S.y(100)])
        #expect(before.run(&tracker) == [TouchFrame(time: Self.at(0), changes: [.down(Self.c(1), Self.p(100, 100))])])
        tracker.mapping.screen = ScreenGeometry(width: 1024, height: 1024, rotation: .clockwise180)
        var after = S()
        after.frame(10, [S.slot(0), S.id(2), S.x(100), S.y(100)])
        after.frame(20, [S.slot(0), S.x(200), S.slot(1), S.x(200)])
        after.frame(30, [S.slot(1), S.y(200)])
        after.frame(40, [S.slot(0), S.y(200)])
        #expect(after.run(&tracker) == [
            // 180°: (1 - u, 1 - v) of the screen.
            TouchFrame(time: Self.at(10), changes: [.down(Self.c(2), Self.p(924, 924))]),
            TouchFrame(time: Self.at(20), changes: [.move(Self.c(2), Self.p(824, 924)), .move(Self.c(1), Self.p(200, 100))]),
            TouchFrame(time: Self.at(30), changes: [.move(Self.c(1), Self.p(200, 200))]),
            TouchFrame(time: Self.at(40), changes: [.move(Self.c(2), Self.p(824, 824))]),
        ])
    }

    // MARK: Limits (issue 12)

    /// A device (or recording) declaring `ABS_MT_SLOT` up to 2^31 - 1 made the tracker
    /// allocate 51 GB and abort. It keeps `maximumSlots` slots; a contact beyond them is an
    /// anomaly, the ones within are tracked as usual.
    @Test func aHugeSlotCountKeepsTheFirst64Slots() {
        var tracker = Self.tracker(slots: Int(Int32.max) + 1)
        var script = S()
        script.frame(0, [S.slot(63), S.id(1), S.x(10), S.y(20)])
        script.frame(10, [S.slot(64), S.id(2), S.x(30), S.y(40)])
        script.frame(20, [S.slot(Int32.max), S.id(3)])
        #expect(script.run(&tracker) == [TouchFrame(time: Self.at(0), changes: [.down(Self.c(1), Self.p(10, 20))])])
        #expect(tracker.takeAnomalies() == [
            .slotOutOfRange(time: Self.at(10), slot: 64, slotCount: 64),
            .slotOutOfRange(time: Self.at(20), slot: Int32.max, slotCount: 64),
        ])
    }

    /// The pipeline says so once, naming the device, right after it is added.
    @Test func aDeviceWithTooManySlotsIsAnnounced() throws {
        let description = DeviceDescription(
            name: "huge table",
            absInfo: [AbsCode.mtSlot: AbsInfo(minimum: 0, maximum: Int32.max),
                      AbsCode.mtPositionX: Self.grid, AbsCode.mtPositionY: Self.grid,
                      AbsCode.mtTrackingID: AbsInfo(minimum: 0, maximum: 65535)],
            properties: [InputProperty.direct])
        let screen = ScreenGeometry(width: 1024, height: 1024)
        var pipeline = GesturePipeline(setup: PipelineSetup(tree: ViewTree(validated: ViewSpec(
            id: "root", frame: Rect(x: 0, y: 0, width: 1024, height: 1024))), settings: GestureSettings(), screen: screen))
        try pipeline.addDevice(description, message: "test", at: Self.at(0))
        var sink = JSONLinesSink(writesRoutes: false)
        sink.consume(pipeline.records)
        let lines = String(decoding: sink.batch.bytes, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 2)
        let expected: String = #"{"type":"warning","seq":2,"time":0,"message":"device \"huge table\" declares 2147483648 "#
            + #"contact slots (ABS_MT_SLOT up to 2147483647); gestured tracks the first 64, so contacts in the slots "#
            + #"above are ignored"}"#
        #expect(lines.last.map(String.init) == expected)
    }

    // MARK: Real streams

    @Test func slotZeroIsCurrentWithoutAnySlotEvent() throws {
        // quanta-optical.events lines 1–12: 10 slots declared, no ABS_MT_SLOT ever, legacy
        // BTN_TOUCH and ABS_X/Y alongside (ignored on a multitouch device).
        let description = DeviceFixtures.quanta
        let mapping = try DeviceMapping(description: description, screen: ScreenGeometry(width: 1920, height: 1080))
        var tracker = ContactTracker(description: description, mapping: mapping)
        var script = S()
        script.frame(0, [S.id(35), S.x(513), S.y(320), S.touch(1), S.absX(513), S.absY(320)])
        script.frame(104, [S.x(519), S.y(328), S.absX(519), S.absY(328)])
        script.frame(112, [S.x(518), S.absX(518)])
        // X 0 ... 1920 is 1921 units on 1920 points.
        func point(_ x: Double, _ y: Double) -> Point { Point(x: x / 1921 * 1920, y: y / 1081 * 1080) }
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(35), point(513, 320))]),
            TouchFrame(time: Self.at(104), changes: [.move(Self.c(35), point(519, 328))]),
            TouchFrame(time: Self.at(112), changes: [.move(Self.c(35), point(518, 328))]),
        ])
    }

    @Test func multitouchOnlyDevice() throws {
        // nexus4-touch_dev.events lines 1–10 and 420–432: no BTN_TOUCH, no ABS_X/Y. Slot 0's
        // second contact sends no TOUCH_MAJOR: it is still 5 from the first.
        let description = DeviceFixtures.nexus4
        let mapping = try DeviceMapping(description: description, screen: ScreenGeometry(width: 1536, height: 2560))
        var tracker = ContactTracker(description: description, mapping: mapping)
        var script = S()
        script.frame(0, [S.id(5), S.x(890), S.y(576), S.pressure(55), S.major(5)])
        script.frame(10, [S.x(892), S.y(561), S.pressure(57)])
        script.frame(1265, [S.id(-1)])
        script.frame(1941, [S.id(6), S.x(494), S.y(640), S.pressure(53),
                            S.slot(1), S.id(7), S.x(1128), S.y(653), S.pressure(56), S.major(5)])
        let frames = script.run(&tracker)
        // 1536 x 2560 points for 1536 x 2560 units: points equal values; major 5 → 2.5.
        #expect(frames == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(5), Self.p(890, 576), majorRadius: 2.5, force: 55.0 / 255)]),
            TouchFrame(time: Self.at(10), changes: [.move(Self.c(5), Self.p(892, 561), majorRadius: 2.5, force: 57.0 / 255)]),
            TouchFrame(time: Self.at(1265), changes: [.up(Self.c(5))]),
            TouchFrame(time: Self.at(1941), changes: [
                .down(Self.c(6), Self.p(494, 640), majorRadius: 2.5, force: 53.0 / 255),
                .down(Self.c(7), Self.p(1128, 653), majorRadius: 2.5, force: 56.0 / 255),
            ]),
        ])
    }

    @Test func singleTouchDevice() throws {
        let description = DeviceFixtures.resistive
        let mapping = try DeviceMapping(description: description, screen: ScreenGeometry(width: 4096, height: 4096))
        var tracker = ContactTracker(description: description, mapping: mapping)
        #expect(tracker.mode == .singleTouch)
        var script = S()
        script.frame(0, [S.absX(100), S.absY(200), S.absPressure(255), S.touch(1)])
        script.frame(10, [S.absX(150)])
        script.frame(20, [S.touch(0), S.absPressure(0)])
        script.frame(30, [S.absX(10)])  // hovering resistive panels still report: not a touch
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(0), Self.p(100, 200), force: 1)]),
            TouchFrame(time: Self.at(10), changes: [.move(Self.c(0), Self.p(150, 200), force: 1)]),
            TouchFrame(time: Self.at(20), changes: [.up(Self.c(0))]),
        ])
    }

    // MARK: Palm

    @Test func aPalmCancelsItsContactAndTheSlotIsIgnoredUntilANewTrackingID() {
        var script = S()
        script.frame(0, [S.id(1), S.x(10), S.y(10)])
        script.frame(10, [S.tool(ToolType.palm), S.x(20)])
        script.frame(20, [S.x(30)])
        script.frame(30, [S.tool(ToolType.finger)])  // the same contact: still ignored
        script.frame(40, [S.id(-1)])
        script.frame(50, [S.id(2), S.x(40)])
        var tracker = Self.tracker()
        #expect(script.run(&tracker) == [
            TouchFrame(time: Self.at(0), changes: [.down(Self.c(1), Self.p(10, 10))]),
            TouchFrame(time: Self.at(10), changes: [.cancel(Self.c(1))]),
            TouchFrame(time: Self.at(50), changes: [.down(Self.c(2), Self.p(40, 10))]),
        ])
    }

    @Test func aContactThatBeginsAsAPalmNeverGoesDown() {
        var script = S()
        script.frame(0, [S.id(1), S.x(10), S.y(10), S.tool(ToolType.palm)])
        script.frame(10, [S.x(20)])
        script.frame(20, [S.id(-1)])
        var tracker = Self.tracker()
        #expect(script.run(&tracker).isEmpty)
    }

    // MARK: SYN_DROPPED

    @Test func eventsAfterSynDroppedAreDiscardedUpToTheNextReport() {
        var script = S()
        script.frame(0, [S.id(1), S.x(10), S.y(10)])
        script.frame(10, [S.x(20), S.dropped, S.x(30), S.slot(1), S.id(9), S.x(1), S.y(1)])
        var tracker = Self.tracker()
        #expect(script.run(&tracker) == [TouchFrame(time: Self.at(0), changes: [.down(Self.c(1), Self.p(10, 10))])])
        #expect(tracker.needsResync)
        // Without a reconcile (a recording), events go on applying to the state before the drop.
        var more = S()
        more.frame(20, [S.slot(0), S.x(40)])
        #expect(more.run(&tracker) == [TouchFrame(time: Self.at(20), changes: [.move(Self.c(1), Self.p(40, 10))])])
    }

    @Test func reconcileCancelsLostContactsAndContinuesSurvivors() {
        var script = S()
        script.frame(0, [S.slot(0), S.id(1), S.x(10), S.y(10),
                         S.slot(1), S.id(2), S.x(20), S.y(20),
                         S.slot(2), S.id(3), S.x(30), S.y(30)])
        script.frame(10, [S.dropped])
        var tracker = Self.tracker()
        _ = script.run(&tracker)
        #expect(tracker.needsResync)
        let snapshot = DeviceSnapshot(currentSlot: 3, slots: [
            SlotSnapshot(trackingID: 1, position: DevicePosition(x: 15, y: 10)),  // survived, moved
            SlotSnapshot(trackingID: 4, position: DevicePosition(x: 25, y: 25)),  // 2 lifted, 4 landed
            .empty,                                                               // 3 lifted
            SlotSnapshot(trackingID: 5, position: DevicePosition(x: 50, y: 60)),  // landed
        ])
        #expect(tracker.reconcile(with: snapshot, at: Self.at(15)) == TouchFrame(time: Self.at(15), changes: [
            .move(Self.c(1), Self.p(15, 10)),
            .cancel(Self.c(2)), .down(Self.c(4), Self.p(25, 25)),
            .cancel(Self.c(3)),
            .down(Self.c(5), Self.p(50, 60)),
        ]))
        #expect(!tracker.needsResync)
        #expect(tracker.activeContacts == [Self.c(1), Self.c(4), Self.c(5)])
        // Slot 3 is current now, as the snapshot said.
        var more = S()
        more.frame(20, [S.x(55)])
        #expect(more.run(&tracker) == [TouchFrame(time: Self.at(20), changes: [.move(Self.c(5), Self.p(55, 60))])])
    }

    @Test func reconcileWithUnchangedStateYieldsNothing() {
        var script = S()
        script.frame(0, [S.id(1), S.x(10), S.y(10)])
        var tracker = Self.tracker()
        _ = script.run(&tracker)
        let snapshot = DeviceSnapshot(slots: [SlotSnapshot(trackingID: 1, position: DevicePosition(x: 10, y: 10))])
        #expect(tracker.reconcile(with: snapshot, at: Self.at(5)) == nil)
        #expect(tracker.activeContacts == [Self.c(1)])
    }

    // MARK: End of input

    @Test func finishCancelsEveryContactStillDown() {
        var script = S()
        script.frame(0, [S.slot(3), S.id(30), S.x(3), S.y(3), S.slot(1), S.id(10), S.x(1), S.y(1)])
        var tracker = Self.tracker()
        _ = script.run(&tracker)
        #expect(tracker.finish(at: Self.at(100)) == TouchFrame(time: Self.at(100), changes: [.cancel(Self.c(10)), .cancel(Self.c(30))]))
        #expect(tracker.activeContacts.isEmpty)
        #expect(tracker.finish(at: Self.at(200)) == nil)
        #expect(tracker.anomalyCount == 0)
    }

    @Test func aTrailingPartialFrameIsDiscardedNeverHalfApplied() {
        var script = S()
        script.frame(0, [S.id(1), S.x(10), S.y(10)])
        script.frame(10, [S.id(-1), S.slot(1), S.id(2), S.x(5), S.y(5)], partial: true)
        var tracker = Self.tracker()
        #expect(script.run(&tracker).count == 1)
        // Contact 1 never saw its lift (it was in the cut frame) and contact 2 never began.
        #expect(tracker.finish(at: Self.at(20)) == TouchFrame(time: Self.at(20), changes: [.cancel(Self.c(1))]))
        #expect(tracker.takeAnomalies() == [.partialFrameDiscarded(time: Self.at(10), events: 5)])
    }

    // MARK: Anomalies

    @Test func aSlotBeyondTheDeclaredRangeIsIgnoredAndCounted() {
        var script = S()
        script.frame(0, [S.slot(12), S.id(1), S.x(10), S.y(10), S.slot(0), S.id(2), S.x(1), S.y(1)])
        var tracker = Self.tracker()
        #expect(script.run(&tracker) == [TouchFrame(time: Self.at(0), changes: [.down(Self.c(2), Self.p(1, 1))])])
        #expect(tracker.anomalyCount == 1)
        let anomalies = tracker.takeAnomalies()
        #expect(anomalies == [.slotOutOfRange(time: Self.at(0), slot: 12, slotCount: 4)])
        #expect(anomalies.first?.description.hasPrefix("kernel bug: ABS_MT_SLOT 12") == true)
        #expect(tracker.takeAnomalies().isEmpty)
    }

    @Test func aMoveInAnEmptySlotIsAKernelBug() {
        var script = S()
        script.frame(0, [S.slot(2), S.x(10)])
        var tracker = Self.tracker()
        #expect(script.run(&tracker).isEmpty)
        #expect(tracker.takeAnomalies() == [.valuesWithoutContact(time: Self.at(0), slot: 2)])
    }

    @Test func aDuplicateTrackingIDIsIgnored() {
        var script = S()
        script.frame(0, [S.slot(0), S.id(7), S.x(1), S.y(1)])
        script.frame(10, [S.slot(1), S.id(7), S.x(2), S.y(2)])
        script.frame(20, [S.x(3)])
        var tracker = Self.tracker()
        #expect(script.run(&tracker) == [TouchFrame(time: Self.at(0), changes: [.down(Self.c(7), Self.p(1, 1))])])
        #expect(tracker.takeAnomalies() == [.duplicateTrackingID(time: Self.at(10), slot: 1, trackingID: 7, otherSlot: 0)])
    }

    @Test func protocolAEventsAreAClientBug() {
        var script = S()
        script.frame(0, [S.x(1), S.y(1), S.mtReport])
        var tracker = Self.tracker()
        _ = script.run(&tracker)
        let anomalies = tracker.takeAnomalies()
        #expect(anomalies.contains(.protocolAEvent(time: Self.at(0))))
        #expect(anomalies.first?.description.hasPrefix("client bug:") == true)
    }

    @Test func anomaliesBeyondTheLimitAreCountedNotKept() {
        var script = S()
        for frame in 0..<100 { script.frame(Int64(frame), [S.slot(99)]) }
        var tracker = Self.tracker()
        _ = script.run(&tracker)
        #expect(tracker.anomalyCount == 100)
        #expect(tracker.anomalies.count == ContactTracker.anomalyLimit)
    }
}
