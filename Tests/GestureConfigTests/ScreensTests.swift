import Testing
@testable import GestureConfig
import GestureCore

/// The configuration's `screens` (docs/configuration.md, "Screens"): several screens, each with
/// its panel (selected by its stable identity), geometry and layout; and today's single-screen
/// files read as one screen, "main".
struct ScreensTests {
    static let layoutA = "layout: { id: \"a\", frame: [0, 0, 800, 480] }"
    static let layoutB = "layout: { id: \"b\", frame: [0, 0, 1024, 600] }"

    static func twoScreens(_ first: String = "", _ second: String = "") -> String {
        """
        { screens: [
            { id: "customer", device: { idPath: "pci-0000:00:14.0-usb-0:3:1.0", vendor: "0EEF", product: "c000" }, \(layoutA)\(first) },
            { id: "clerk", device: { phys: "usb-0000:00:14.0-4/input0", vendor: "0eef", product: "c000" },
              screen: { width: 1024, height: 600, rotation: 90 }, \(layoutB)\(second) },
        ] }
        """
    }

    @Test func readsEachScreenWithItsPanelGeometryAndLayout() throws {
        let configuration = try ConfigurationLoader.parse(text: Self.twoScreens(", output: \"HDMI-A-1\""), file: "kiosk.json5")
        #expect(configuration.hasScreensSection)
        #expect(configuration.isMultiScreen)
        #expect(configuration.screens.map(\.id) == ["customer", "clerk"])
        let customer = try #require(configuration.screen(id: "customer"))
        #expect(customer.device == .identity(DeviceIdentity(idPath: "pci-0000:00:14.0-usb-0:3:1.0", vendor: 0x0eef,
                                                             product: 0xc000)))
        #expect(customer.output == "HDMI-A-1")
        #expect(customer.screen.size == Size(width: 800, height: 480))
        #expect(customer.layout.id == "a")
        let clerk = try #require(configuration.screen(id: "clerk"))
        #expect(clerk.device == .identity(DeviceIdentity(vendor: 0x0eef, product: 0xc000, phys: "usb-0000:00:14.0-4/input0")))
        #expect(clerk.screen.rotation == ScreenRotation(degrees: 90))
        #expect(clerk.layout.id == "b")
        #expect(configuration.summary.contains("2 screens: customer, clerk"))
        #expect(configuration.summary.contains("screen \"clerk\":"))
    }

    @Test func todaysFileIsOneScreenCalledMainWithoutTheScreenMember() throws {
        let configuration = try ConfigurationTests.configuration("device: { name: \"eGalax*\" }")
        #expect(!configuration.hasScreensSection)
        #expect(!configuration.isMultiScreen)
        #expect(configuration.screens.map(\.id) == [ScreenConfiguration.mainID])
        #expect(configuration.device == .name(pattern: "eGalax*"))
        #expect(configuration.layout.id == "root")
    }

    @Test func nameWithIdentityKeysNarrowsTheIdentity() throws {
        let configuration = try ConfigurationTests.configuration("device: { name: \"eGalax*\", serial: \"A1B2C3\" }")
        #expect(configuration.device == .identity(DeviceIdentity(serial: "A1B2C3", name: "eGalax*")))
    }

    @Test(arguments: [
        ConfigurationTests.Case("device: { path: \"/dev/input/event3\", idPath: \"pci-0\" }",
             "device.path: give path or the identity keys (idPath, serial, vendor, product, phys), not both: path names one "
                + "node; the identity keys find the panel wherever it is plugged in"),
        ConfigurationTests.Case("device: { vendor: \"eef\", product: 49152 }",
             "device.vendor: \"eef\" is not 4 hex digits; write the vendor id as lsusb and `gestured devices` show it, such "
                + "as \"0eef\"",
             "device.product: expected a string (product id), found a number"),
        ConfigurationTests.Case("device: { serial: \"\" }",
             "device.serial: the value has 0 bytes; give 1 to 255 (udev's ID_SERIAL_SHORT, as `gestured devices` shows it)"),
    ])
    func reportsIdentityProblems(_ example: ConfigurationTests.Case) {
        #expect(ConfigurationTests.problems(example.members) == example.problems)
    }

    @Test func screenProblemsNameTheKeyPath() {
        let text = """
            { device: "auto", layout: "x.json5", screens: [
                { id: "a b", device: "auto", \(Self.layoutA) },
                { device: "auto", \(Self.layoutA), colour: 1 },
                { id: "a", device: { phys: "p" }, \(Self.layoutA) },
                { id: "a", device: { phys: "p" }, \(Self.layoutA) },
            ] }
            """
        #expect(ProblemLines.configuration(text) == [
            "device: with screens, device belongs to a screen: move it into screens: [ { id: \"…\", device: … }, … ] (each "
                + "screen has its own device, screen and layout)",
            "layout: with screens, layout belongs to a screen: move it into screens: [ { id: \"…\", layout: … }, … ] (each "
                + "screen has its own device, screen and layout)",
            "screens[0].id: \"a b\" is not a screen id; use only A–Z a–z 0–9 - _",
            "screens[1].id: missing; add id: \"…\" (A–Z a–z 0–9 - _, such as \"customer\"): events, requests and `gestured "
                + "replay --screen` name the screen by it",
            "screens[1].colour: unknown key; remove it (a screen takes id, device, screen, layout, output)",
            "screens[3].id: \"a\" is the id of screens[2] too; give each screen its own id",
            "screens[0].device: auto picks the first touchscreen, which is only right with one screen; name this screen's "
                + "panel: { idPath: \"…\" } (or serial, vendor and product, phys), as `gestured devices` lists them",
            "screens[1].device: auto picks the first touchscreen, which is only right with one screen; name this screen's "
                + "panel: { idPath: \"…\" } (or serial, vendor and product, phys), as `gestured devices` lists them",
            "screens[3].device: screens[2] selects the same device; each screen needs its own panel",
        ])
    }

    @Test func screensHaveALimit() {
        let nine = (0..<9).map { "{ id: \"s\($0)\", device: { phys: \"p\($0)\" }, \(Self.layoutA) }" }
            .joined(separator: ", ")
        #expect(ProblemLines.configuration("{ screens: [\(nine)] }") == [
            "screens: 9 screens; give 1 to 8 (one per touch panel of the kiosk)",
        ])
        #expect(ProblemLines.configuration("{ screens: [] }") == [
            "screens: 0 screens; give 1 to 8 (one per touch panel of the kiosk)",
        ])
    }

    @Test func aScreenIDHasALengthLimit() {
        #expect(ConfigurationLimits.screenIDProblem(String(repeating: "x", count: 33))
            == "a screen id has 1 to 32 characters; \"\(String(repeating: "x", count: 33))\" has 33")
        #expect(ConfigurationLimits.screenIDProblem(String(repeating: "x", count: 32)) == nil)
    }
}
