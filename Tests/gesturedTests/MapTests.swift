#if canImport(Glibc)
import Glibc
#endif
import EvdevInput
import Foundation
@testable import gestured
import GestureConfig
import GestureCore
import Testing

/// `gestured map`'s outputs (the configuration fragment and the udev rule), its screens, and
/// its command line. The reading of real panels is the kernel test `test_map_binds_two_panels`.
@Suite("gestured map")
struct MapTests {
    static let ports = PanelMatch(keys: .idPath("pci-0000:00:14.0-usb-0:3:1.0"),
                                  reason: "2 panels share 0eef:c000; ID_PATH (the port each is plugged into) tells them apart")
    static let physOnly = PanelMatch(keys: .phys("usb-0000:00:14.0-2/input0", vendor: "0eef", product: "c000", fromUdev: false),
                                     reason: "phys")

    // MARK: The fragment

    @Test func theFragmentNamesEachScreensPanelAndWhy() {
        let text = MapFragment.text([
            MapBinding(screen: MapScreen(id: "customer"), outcome: .bound(path: "/dev/input/event5", name: "eGalax", match: Self.ports)),
            MapBinding(screen: MapScreen(id: "clerk"), outcome: .unbound(reason: "no panel was touched within 30 s")),
        ])
        #expect(text == """
            // gestured map: the panel of each screen; merge into the configuration's screens (docs/configuration.md, "Binding panels to screens")
            screens: [
              {
                id: "customer",
                // "/dev/input/event5" "eGalax": 2 panels share 0eef:c000; ID_PATH (the port each is plugged into) tells them apart
                device: { idPath: "pci-0000:00:14.0-usb-0:3:1.0" },
              },
              {
                id: "clerk",
                // not bound: no panel was touched within 30 s
              },
            ],

            """)
    }

    /// Whatever a phys, serial or device name holds (uinput lets a program set any), the
    /// fragment reads back as JSON5 with the same values, and a comment never ends early. (No NUL:
    /// the kernel and udev hand over C strings, and the configuration refuses one even escaped.)
    @Test(arguments: ["plain", "a\"quote", "back\\slash", "new\nline", "bell\u{7}and\u{7f}", "line\u{2028}separator",
                      "*/ closing", "ünïcödé"])
    func everyValueReadsBackAsItself(_ value: String) throws {
        let match = PanelMatch(keys: .phys(value, vendor: "0eef", product: "c000", fromUdev: false), reason: "why")
        let serial = PanelMatch(keys: .serial(value, property: "ID_SERIAL", vendor: "0eef", product: "c000", fromUdev: true),
                                reason: "why")
        let text = MapFragment.text([
            MapBinding(screen: MapScreen(id: "a"), outcome: .bound(path: "/dev/input/event1", name: value, match: match)),
            MapBinding(screen: MapScreen(id: "b"), outcome: .bound(path: "/dev/input/event2", name: value, match: serial)),
        ])
        let document = try JSONParser.parse("{\n" + text + "}")
        guard case .object(let root) = document.value, case .array(let screens)? = root["screens"],
              screens.count == 2, case .object(let first) = screens[0], case .object(let second) = screens[1] else {
            Issue.record("not a screens array: \(text)")
            return
        }
        #expect(first["id"] == .string("a"))
        #expect(first["device"] == .object(["vendor": .string("0eef"), "product": .string("c000"), "phys": .string(value)]))
        #expect(second["device"] == .object(["serial": .string(value), "vendor": .string("0eef"), "product": .string("c000")]))
        #expect(root.count == 1)
    }

    // MARK: The udev rule

    @Test func theRuleMatchesTheSameKeysAndSetsTheScreensProperties() throws {
        let screen = MapScreen(id: "customer", output: "HDMI-A-1", calibration: [0, 1, 0, -1, 0, 1])
        #expect(try MapUdevRule.line(screen, Self.ports).get() == #"ACTION!="remove", SUBSYSTEM=="input", KERNEL=="event*", "#
            + #"ENV{ID_PATH}=="pci-0000:00:14.0-usb-0:3:1.0", ENV{GESTURED_SCREEN}="customer", ENV{WL_OUTPUT}="HDMI-A-1", "#
            + #"ENV{LIBINPUT_CALIBRATION_MATRIX}="0 1 0 -1 0 1""#)
        #expect(try MapUdevRule.line(MapScreen(id: "left"), Self.physOnly).get()
            == #"ACTION!="remove", SUBSYSTEM=="input", KERNEL=="event*", ATTRS{id/vendor}=="0eef", "#
            + #"ATTRS{id/product}=="c000", ATTRS{phys}=="usb-0000:00:14.0-2/input0", ENV{GESTURED_SCREEN}="left""#)
        let serial = PanelMatch(keys: .serial("A1B2", property: "ID_SERIAL_SHORT", vendor: "0eef", product: "c000",
                                              fromUdev: true), reason: "")
        #expect(try MapUdevRule.line(MapScreen(id: "s", calibration: [1.5, 0, -0.25, 0, 1, 0]), serial).get()
            == #"ACTION!="remove", SUBSYSTEM=="input", KERNEL=="event*", ENV{ID_SERIAL_SHORT}=="A1B2", "#
            + #"ENV{ID_VENDOR_ID}=="0eef", ENV{ID_MODEL_ID}=="c000", ENV{GESTURED_SCREEN}="s", "#
            + #"ENV{LIBINPUT_CALIBRATION_MATRIX}="1.5 0 -0.25 0 1 0""#)
    }

    /// udev reads `*?[]|` in a match as a pattern and has no escapes in `"…"`: such a value is
    /// left out of the rule with the reason, never written as a rule that matches other panels.
    @Test(arguments: ["usb-*/input0", "a?b", "x[1]", "a|b", "quote\"", "back\\slash", "new\nline",
                      String(repeating: "p", count: 257)])
    func aValueARuleCannotMatchExactlyIsLeftOut(_ phys: String) {
        let match = PanelMatch(keys: .phys(phys, vendor: "0eef", product: "c000", fromUdev: false), reason: "")
        let bound = MapBinding(screen: MapScreen(id: "left"), outcome: .bound(path: "/dev/input/event1", name: "", match: match))
        let rule = MapUdevRule.text([bound])
        #expect(rule.problems.map(\.screen) == ["left"])
        #expect(rule.problems.first?.message.hasPrefix("its phys ") == true)
        #expect(!rule.text.contains("GESTURED_SCREEN"))
        #expect(rule.text.contains("# screen \"left\": left out, its phys"))
        #expect(rule.text.split(separator: "\n").allSatisfy { $0.hasPrefix("#") })
    }

    /// udev substitutes `%k` and `$kernel` in what it assigns; doubled, they are themselves.
    @Test func percentAndDollarAreDoubledInAssignments() {
        #expect(MapUdevRule.assigned("a%k$b") == "a%%k$$b")
    }

    // MARK: Contacts

    /// A contact begins with a tracking id set (protocol B) or BTN_TOUCH pressed; a finger
    /// still down moves, and lifting or releasing begins nothing.
    static func events(_ triples: [[Int32]]) -> [RawEvent] {
        triples.map { RawEvent(time: Timestamp(microseconds: 0), type: UInt16($0[0]), code: UInt16($0[1]), value: $0[2]) }
    }

    static let contacts: [(events: [RawEvent], isNew: Bool)] = [
        (events([[3, 0x39, 7]]), true),
        (events([[3, 0x2f, 1], [3, 0x39, 0]]), true),
        (events([[1, 0x14a, 1]]), true),
        (events([[3, 0x35, 500], [3, 0x36, 400], [0, 0, 0]]), false),
        (events([[3, 0x39, -1], [1, 0x14a, 0]]), false),
        (events([[1, 0x110, 1]]), false),
        ([], false),
    ]

    @Test(arguments: contacts)
    func aNewContactIsATrackingIdOrBTNTouch(_ events: [RawEvent], _ isNew: Bool) {
        #expect(MapSession.hasNewContact(events) == isNew)
    }

    /// What keeps a grabbed panel held at the end: a finger down by its slot or by BTN_TOUCH,
    /// until its lift; two fingers until both lift.
    @Test func aPanelIsDownUntilEveryFingerLifts() {
        var panel = PanelContacts()
        #expect(!panel.isDown)
        panel.take(Self.events([[3, 0x2f, 0], [3, 0x39, 7], [1, 0x14a, 1], [0, 0, 0]]))
        #expect(panel.isDown)
        panel.take(Self.events([[3, 0x2f, 1], [3, 0x39, 8], [0, 0, 0]]))
        panel.take(Self.events([[3, 0x2f, 0], [3, 0x39, -1], [0, 0, 0]]))
        #expect(panel.isDown, "the second finger is still down")
        panel.take(Self.events([[3, 0x2f, 1], [3, 0x39, -1], [1, 0x14a, 0], [0, 0, 0]]))
        #expect(!panel.isDown)
        // A single-touch panel: BTN_TOUCH alone.
        panel.take(Self.events([[1, 0x14a, 1], [0, 0, 0]]))
        #expect(panel.isDown)
        panel.take(Self.events([[1, 0x14a, 0], [0, 0, 0]]))
        #expect(!panel.isDown)
        // A broken driver's endless slots are bounded.
        panel.take(Self.events((0..<1_000).flatMap { [[3, 0x2f, Int32($0)], [3, 0x39, Int32($0)]] }))
        #expect(panel.isDown)
    }

    // MARK: Screens

    @Test func theConfigurationsScreensGiveIdsOutputsAndCalibrations() throws {
        let document = try JSONParser.parse("""
            { screens: [
                { id: "customer", device: { idPath: "x" }, screen: { width: 1920, height: 1080, calibration: [1, 0, 0, 0, 1, 0] },
                  layout: "a.json5", output: "HDMI-A-1" },
                { id: "clerk", device: "auto" },
            ] }
            """)
        let screens = try MapScreen.parse(document.value, file: "k.json5").get()
        #expect(screens == [MapScreen(id: "customer", output: "HDMI-A-1", calibration: [1, 0, 0, 0, 1, 0]),
                            MapScreen(id: "clerk")])
    }

    @Test(arguments: [
        ("{ device: \"auto\", layout: \"a.json5\" }", "k.json5: screens: the configuration has no screens"),
        ("{ screens: [] }", "k.json5: screens: use an array of 1 to 8 screens"),
        ("{ screens: [{ id: \"a b\" }] }", "k.json5: screens[0].id: \"a b\" holds ' '"),
        ("{ screens: [{ id: \"a\" }, { id: \"a\" }] }", "k.json5: screens[1].id: \"a\" is the id of an earlier screen"),
        ("{ screens: [{ id: \"a\", output: \"HDMI\\\"1\" }] }", "k.json5: screens[0].output: \"HDMI\"1\" holds '\"'"),
        ("{ screens: [{ id: \"a\", screen: { calibration: [1, 0, 0] } }] }", "k.json5: screens[0].screen.calibration: use six"),
        ("{ screens: [{ id: \"a\", screen: { calibration: [0, 0, 0, 0, 0, 0] } }] }",
         "k.json5: screens[0].screen.calibration: the matrix maps the whole panel onto a line"),
        ("{ screens: [{}] }", "k.json5: screens[0].id: is missing"),
    ])
    func aConfigurationsScreenProblemNamesItsKey(_ text: String, _ expected: String) throws {
        let document = try JSONParser.parse(text)
        switch MapScreen.parse(document.value, file: "k.json5") {
        case .success(let screens): Issue.record("read \(screens)")
        case .failure(let problems): #expect(problems.lines.first?.hasPrefix(expected) == true, "\(problems.lines)")
        }
    }

    // MARK: Writing whole

    @Test func filesAreWrittenWholeOrNotAtAll() throws {
        let directory = NSTemporaryDirectory() + "gestured-map-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        try WholeFileWriter.writeWhole([(directory + "/screens.json5", "a"), (directory + "/61-s.rules", "b")])
        #expect(try String(contentsOfFile: directory + "/screens.json5", encoding: .utf8) == "a")
        #expect(try String(contentsOfFile: directory + "/61-s.rules", encoding: .utf8) == "b")
        // The second file's directory is missing: the first keeps its old text, no temporary stays.
        #expect(throws: (any Error).self) {
            try WholeFileWriter.writeWhole([(directory + "/screens.json5", "new"), (directory + "/missing/61-s.rules", "new")])
        }
        #expect(try String(contentsOfFile: directory + "/screens.json5", encoding: .utf8) == "a")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == ["61-s.rules", "screens.json5"])
    }

    // MARK: The command line

    @Test(arguments: [
        (["map"], "name the screens: --config FILE (its screens) or --screens left,right"),
        (["map", "--screens", "a", "--timeout", "0"], "--timeout is 0; use 1 to 3600 seconds per screen"),
        (["map", "--screens", "a", "--timeout", "3601"], "--timeout is 3601"),
        (["map", "--screens", "a,a"], "--screens names \"a\" twice"),
        (["map", "--screens", "a,,b"], "--screens: the screen id is empty"),
        (["map", "--screens", "a,b,c,d,e,f,g,h,i"], "--screens names 9 screens; gestured reads at most 8"),
        (["map", "--screens", "a/b"], "--screens: the screen id \"a/b\" holds '/'"),
        (["map", "--screens", "a", "--config", "x.json5"], "--config and --screens both name the screens"),
        (["map", "--screens", "a", "--udev-rule", "screens.txt"], "--udev-rule screens.txt: udev reads only files"),
        (["map", "--screens", "a", "--udev-rule", "x.rules", "--output", "x.rules"], "--udev-rule and --output name the same file"),
    ])
    func badArgumentsAreUsageErrors(_ arguments: [String], _ message: String) throws {
        let result = try Gestured.run(arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test func noPanelSaysSoAndWritesNothing() throws {
        let directory = NSTemporaryDirectory() + "gestured-map-empty-\(getpid())"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let result = try Gestured.run(["map", "--screens", "left,right", "--directory", directory,
                                       "--output", directory + "/screens.json5"])
        #expect(result.status == 1)
        #expect(result.stderr == "gestured map: no touch panel in \(directory); plug the panels in, and see "
            + "`gestured devices` for what there is\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).isEmpty)
    }

    @Test func aConfigurationsProblemsArePrintedEach() throws {
        let file = NSTemporaryDirectory() + "gestured-map-\(getpid()).json5"
        try "{ screens: [{ id: \"a b\" }, { id: \"c\", output: 3 }] }".write(toFile: file, atomically: true, encoding: .utf8)
        defer { unlink(file) }
        let result = try Gestured.run(["map", "--config", file])
        #expect(result.status == 1)
        #expect(result.stderr == """
            \(file): screens[0].id: "a b" holds ' '; use 1 to 32 of A–Z a–z 0–9 - _
            \(file): screens[1].output: use a string, the output's name (HDMI-A-1)

            """)
    }
}
