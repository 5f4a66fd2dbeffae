import EvdevInput
import GestureCore
import Testing

/// Protocol A → protocol B through libmtdev, on frames transcribed by hand from
/// the corpus recording ntrig-dell-xt2.protoA.evemu (N-Trig on a Dell Latitude XT2).
@Suite struct ProtocolAConverterTests {
    /// The header, lines 62–92: P: 00, BTN_TOUCH, no ABS_MT_SLOT, no ABS_MT_TRACKING_ID.
    static let ntrig = DeviceDescription(
        name: "N-Trig-MultiTouch-Virtual-Device", bus: 0x03, vendor: 0x1b96, product: 0x0001, version: 0x0110,
        codes: [EventType.key: [KeyCode.btnTouch]],
        absInfo: [AbsCode.x: AbsInfo(minimum: 0, maximum: 9600, fuzz: 75),
                  AbsCode.y: AbsInfo(minimum: 0, maximum: 7200, fuzz: 78),
                  AbsCode.mtTouchMajor: AbsInfo(minimum: 0, maximum: 9600, fuzz: 200),
                  AbsCode.mtTouchMinor: AbsInfo(minimum: 0, maximum: 7200, fuzz: 150),
                  AbsCode.mtOrientation: AbsInfo(minimum: 0, maximum: 1),
                  AbsCode.mtPositionX: AbsInfo(minimum: 0, maximum: 9600, fuzz: 75),
                  AbsCode.mtPositionY: AbsInfo(minimum: 0, maximum: 7200, fuzz: 78)])

    /// One protocol A contact: position, orientation, touch major and minor, then SYN_MT_REPORT.
    typealias Contact = (x: Int32, y: Int32, orientation: Int32, major: Int32, minor: Int32)

    /// The events of one frame at `time` (µs): each contact closed by SYN_MT_REPORT, then the
    /// frame's other events, then SYN_REPORT. Sub-frame timestamps are flattened to the frame's.
    static func frame(_ time: Int64, _ contacts: [Contact], trailing: [(UInt16, UInt16, Int32)] = []) -> [RawEvent] {
        let at = Timestamp(microseconds: time)
        var events: [RawEvent] = []
        for contact in contacts {
            for (code, value) in [(AbsCode.mtPositionX, contact.x), (AbsCode.mtPositionY, contact.y),
                                  (AbsCode.mtOrientation, contact.orientation),
                                  (AbsCode.mtTouchMajor, contact.major), (AbsCode.mtTouchMinor, contact.minor)] {
                events.append(RawEvent(time: at, type: EventType.abs, code: code, value: value))
            }
            events.append(RawEvent(time: at, type: EventType.syn, code: SynCode.mtReport, value: 0))
        }
        for (type, code, value) in trailing {
            events.append(RawEvent(time: at, type: type, code: code, value: value))
        }
        events.append(RawEvent(time: at, type: EventType.syn, code: SynCode.report, value: 0))
        return events
    }

    static let t0: Int64 = 1_299_660_667_063_311

    /// Lines 93–114: three fingers land; BTN_TOUCH 1 and the legacy ABS_X/Y of the first.
    static let landing = frame(t0, [(7411, 4677, 1, 462, 360), (7361, 3291, 1, 462, 360), (5912, 1483, 0, 540, 462)],
                               trailing: [(EventType.key, KeyCode.btnTouch, 1),
                                          (EventType.abs, AbsCode.x, 7411), (EventType.abs, AbsCode.y, 4677)])
    /// Lines 115–133.
    static let second = frame(1_299_660_667_081_106,
                              [(7380, 4674, 1, 462, 360), (7401, 3263, 0, 360, 308), (5887, 1484, 0, 540, 308)])
    /// Lines 153–177: a fourth finger at (6837, 2669).
    static let fourth = frame(1_299_660_667_113_316,
                              [(7382, 4680, 0, 360, 308), (7399, 3253, 0, 360, 308), (5886, 1489, 1, 462, 360),
                               (6837, 2669, 1, 462, 360)])
    /// Lines 228–236: only the finger near (5897, 1513) is left.
    static let oneLeft = frame(1_299_660_667_169_074, [(5897, 1513, 0, 540, 308)],
                               trailing: [(EventType.abs, AbsCode.x, 5897), (EventType.abs, AbsCode.y, 1513)])
    /// Lines 237–238: BTN_TOUCH 0 and no contact at all.
    static let lift = frame(1_299_660_667_181_013, [], trailing: [(EventType.key, KeyCode.btnTouch, 0)])

    static func convert(_ converter: ProtocolAConverter, _ frames: [[RawEvent]]) -> [RawEvent] {
        var output: [RawEvent] = []
        for event in frames.joined() { converter.convert(event, into: &output) }
        return output
    }

    @Test func theConvertedDescriptionDeclaresSlotsAndTrackingIDs() throws {
        let converter = try ProtocolAConverter(description: Self.ntrig)
        let converted = converter.convertedDescription
        #expect(converted.absInfo[AbsCode.mtSlot] == AbsInfo(minimum: 0, maximum: 31))
        #expect(converted.absInfo[AbsCode.mtTrackingID] == AbsInfo(minimum: 0, maximum: 65535))
        #expect(DeviceClassification(Self.ntrig).contactProtocol == .protocolA)
        #expect(DeviceClassification(converted).contactProtocol == .slots(count: 32))
    }

    @Test func nothingComesOutBeforeTheFramesSynReport() throws {
        let converter = try ProtocolAConverter(description: Self.ntrig)
        for event in Self.landing.dropLast() {
            #expect(converter.convert(event).isEmpty)
        }
        let converted = converter.convert(Self.landing.last!)
        #expect(converted.last?.isFrameEnd == true)
        #expect(converted.last?.time == Timestamp(microseconds: Self.t0))
    }

    /// An EV_ABS code above ABS_MAX (0x70, from a fuzzed recording) made mtdev write past its
    /// buffers and crash; it is dropped, and the frame converts as without it.
    @Test(arguments: [AbsCode.max + 1, 0x70, 0xffff])
    func anAbsoluteCodeNoKernelSendsIsDropped(_ code: UInt16) throws {
        let converter = try ProtocolAConverter(description: Self.ntrig)
        var landing = Self.landing
        landing.insert(RawEvent(time: Timestamp(microseconds: Self.t0), type: EventType.abs, code: code, value: 6000),
                       at: 2)
        let converted = Self.convert(converter, [landing])
        #expect(converted == Self.convert(try ProtocolAConverter(description: Self.ntrig), [Self.landing]))
    }

    @Test func theLandingFrameBecomesThreeSlotsWithTrackingIDs() throws {
        let converter = try ProtocolAConverter(description: Self.ntrig)
        let converted = Self.convert(converter, [Self.landing])
        let mt = converted.filter { $0.type == EventType.abs }
        // mtdev starts in slot 0, so the first contact needs no ABS_MT_SLOT; ids count from 0.
        #expect(mt.filter { $0.code == AbsCode.mtSlot }.map(\.value) == [1, 2])
        #expect(mt.filter { $0.code == AbsCode.mtTrackingID }.map(\.value) == [0, 1, 2])
        #expect(mt.filter { $0.code == AbsCode.mtPositionX }.map(\.value) == [7411, 7361, 5912])
        // The frame's other events pass through first (mtdev queues them while it parses the
        // contacts), the converted contacts follow, then the SYN_REPORT.
        #expect(converted.prefix(3).map(\.code) == [KeyCode.btnTouch, AbsCode.x, AbsCode.y])
        #expect(converted.last?.isFrameEnd == true)
        #expect(!converted.contains { $0.type == EventType.syn && $0.code == SynCode.mtReport })
    }

    @Test func theConvertedStreamDrivesTheTrackerThroughFourFingersAndTheirLift() throws {
        let converter = try ProtocolAConverter(description: Self.ntrig)
        // 9601 x 7201 points for 9601 x 7201 units: points equal device values.
        let mapping = try DeviceMapping(description: converter.convertedDescription,
                                        screen: ScreenGeometry(width: 9601, height: 7201))
        var tracker = ContactTracker(description: converter.convertedDescription, mapping: mapping)
        var frames: [TouchFrame] = []
        for event in Self.convert(converter, [Self.landing, Self.second, Self.fourth, Self.oneLeft, Self.lift]) {
            if let frame = tracker.process(event) { frames.append(frame) }
        }
        func c(_ id: Int) -> ContactID { ContactID(id) }
        #expect(frames.count == 5)
        // Lines 93–114: radius = touch major / 2 (462 → 231, 540 → 270).
        #expect(frames.first?.changes == [
            .down(c(0), Point(x: 7411, y: 4677), majorRadius: 231),
            .down(c(1), Point(x: 7361, y: 3291), majorRadius: 231),
            .down(c(2), Point(x: 5912, y: 1483), majorRadius: 270),
        ])
        // Lines 115–133 through mtdev's fuzz filter (X fuzz 75, Y 78, major 200):
        // contact 0 moved 31 < 75/2 in X and 3 in Y: unchanged. Contact 1: X 7361 → 7401 is
        // within 75, so (3 * 7361 + 7401) / 4 = 7371; Y 28 < 39: 3291; major 462 → 360 is
        // 102 > 100: (3 * 462 + 360) / 4 = 436 → radius 218. Contact 2: only its minor
        // axis changed, which the tracker does not use.
        #expect(frames.dropFirst().first?.changes == [.move(c(1), Point(x: 7371, y: 3291), majorRadius: 218)])
        // Lines 153–177: the fourth finger gets a fourth tracking id.
        let fourth = frames[2].changes
        #expect(fourth.last == .down(c(3), Point(x: 6837, y: 2669), majorRadius: 231))
        #expect(!fourth.contains { if case .up = $0 { true } else { false } })
        // Lines 228–236: the finger that was contact 2 stays (it moved less than the fuzz: 5897
        // is 15 from 5912, 1513 is 30 from 1483, so no move); the other three lifted.
        #expect(frames[3].changes == [.up(c(0)), .up(c(1)), .up(c(3))])
        // Lines 237–238: BTN_TOUCH 0 with no contact lifts the last one.
        #expect(frames[4].changes == [.up(c(2))])
        #expect(Set(frames.flatMap(\.changes).map(\.contact)) == [c(0), c(1), c(2), c(3)])
        #expect(tracker.activeContacts.isEmpty)
        #expect(tracker.anomalyCount == 0)
    }
}
