import Testing
@testable import GestureConfig
import GestureCore

/// The configuration file (SPEC 12): each section, the bare-layout rule, layout files relative
/// to the configuration, and the printed form of errors.
struct ConfigurationTests {
    static let layout = "layout: { id: \"root\", frame: [0, 0, 800, 480] }"

    /// The problems of a configuration with `members` and an inline layout.
    static func problems(_ members: String) -> [String] {
        ProblemLines.configuration("{ \(members), \(layout) }")
    }

    static func configuration(_ members: String) throws -> Configuration {
        try ConfigurationLoader.parse(text: "{ \(members), \(layout) }", file: "kiosk.json5")
    }

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
        Case("device: \"eGalax\"", "device: \"eGalax\" is neither \"auto\" nor a device path; write a path such as "
             + "\"/dev/input/by-id/…\", or { name: \"eGalax\" } to pick the device by name"),
        Case("device: 5", "device: expected \"auto\", a device path or { path | name, type, axes }, found a number"),
        Case("device: { name: \"\" }", "device.name: the pattern is empty; write the device name, with * for any characters"),
        Case("device: { nam: \"eGalax*\" }", "device.nam: unknown key; did you mean \"name\"?"),
        Case("grab: \"yes\"", "grab: expected true or false, found a string"),
        Case("screen: { height: 480 }",
             "screen.width: missing; add width: the screen's width in points, the unit of the layout's frames"),
        Case("screen: { width: 0, height: -1 }",
             "screen.width: 0 is not a usable width; use a number of points greater than 0 and at most 1000000",
             "screen.height: -1 is not a usable height; use a number of points greater than 0 and at most 1000000"),
        Case("screen: { width: 800, height: 480, rotation: 45 }",
             "screen.rotation: 45 is not a supported rotation; use 0, 90, 180 or 270 (degrees clockwise of the panel relative to the screen)"),
        Case("screen: { width: 800, height: 480, rotation: \"90\" }",
             "screen.rotation: expected 0, 90, 180 or 270, found a string"),
        Case("screen: { width: 800, height: 480, calibration: [1, 0, 0] }",
             "screen.calibration: expected an array of 6 numbers [a, b, c, d, e, f], found an array of 3 elements"),
        Case("screen: { width: 800, height: 480, calibration: [1, 0, 0, 0, 1, Infinity] }",
             "screen.calibration[5]: Infinity is not allowed here; use -100 to 100"),
        Case("screen: { width: 800, height: 480, rotate: 90 }", "screen.rotate: unknown key; did you mean \"rotation\"?"),
        Case("scren: { width: 800, height: 480 }", "scren: unknown key; did you mean \"screen\"?"),
        Case("socket: \"/run/g.sock\"",
             "socket: expected an object { path, group, controlGroup, controlUsers }, found a string"),
        Case("socket: { path: \"\", group: \"\", controlUsers: [\"\", 3] }",
             "socket.path: the path is empty; use an absolute path such as \"/run/gestured/gestured.sock\"",
             "socket.group: the group name is empty; name a group, or remove the key for none",
             "socket.controlUsers[0]: the user name is empty; name a user or remove the entry",
             "socket.controlUsers[1]: expected a string (a user name), found a number"),
        Case("socket: { controlGroup: 5, user: [] }",
             "socket.controlGroup: expected a group name (a string) or null, found a number",
             "socket.user: unknown key; remove it (socket takes path, group, controlGroup, controlUsers)"),
        Case("gestures: { tap: { maxInterval: -1, slop: 2 } }",
             "gestures.tap.slop: slop is not a parameter of tap recognizers; remove it (tap takes taps, touches, maxMovement, maxDuration, maxInterval)",
             "gestures.tap.maxInterval: -1 is negative; use 0 to 3600 seconds"),
        Case("gestures: { tapp: {}, pan: 3 }",
             "gestures.pan: expected an object of pan parameters, found a number",
             "gestures.tapp: unknown key; did you mean \"tap\"?"),
        Case("gestures: { pan: { id: \"x\" } }",
             "gestures.pan.id: unknown key; remove it (a pan recognizer takes minimumTouches, maximumTouches, slop)"),
        Case("gestures: { control: { trackingSlop: -1 }, touch: { tapInterval: \"x\", tapDist: 1 } }",
             "gestures.control.trackingSlop: -1 is negative; use 0 to 1000000 points",
             "gestures.touch.tapInterval: expected a number of seconds, found a string",
             "gestures.touch.tapDist: unknown key; did you mean \"tapDistance\"?"),
        Case("web: \"127.0.0.1:7300\"", "web: expected an object { listen, origins, token }, found a string"),
        Case("web: { listen: \"127.0.0.1\", origins: \"http://a\", tokn: 1 }",
             "web.listen: \"127.0.0.1\": no port; write HOST:PORT, such as \"127.0.0.1:7300\"",
             "web.origins: expected an array of page origins [\"http://kiosk.local:8080\", …], or \"*\" for any page, found a string",
             "web.tokn: unknown key; did you mean \"token\"?"),
        Case("web: { listen: \"::1:7300\" }", "web.listen: \"::1:7300\": an IPv6 address needs brackets; write it as \"[::1]:7300\""),
        Case("web: { listen: \"localhost:70000\" }",
             "web.listen: \"localhost:70000\": \"70000\" is not a port; use a whole number from 1 to 65535"),
        Case("web: { listen: \":7300\" }",
             "web.listen: \":7300\": no host; write HOST:PORT, such as \"127.0.0.1:7300\" (\"0.0.0.0:7300\" for every interface)"),
        Case("web: { origins: [\"http://a/b\", \"ftp://a\", 3, \"https://a:0\"] }",
             "web.origins[0]: \"http://a/b\" is not an origin; write scheme://host or scheme://host:port (http or https, no path, port * for any), \"null\" for file:// pages, or \"*\" for any page",
             "web.origins[1]: \"ftp://a\" is not an origin; write scheme://host or scheme://host:port (http or https, no path, port * for any), \"null\" for file:// pages, or \"*\" for any page",
             "web.origins[2]: expected a string (an origin such as \"http://localhost:8080\"), found a number",
             "web.origins[3]: \"https://a:0\" is not an origin; write scheme://host or scheme://host:port (http or https, no path, port * for any), \"null\" for file:// pages, or \"*\" for any page"),
        Case("web: { token: \"short\" }",
             "web.token: the token has 5 characters; use 16 to 512, such as the output of `openssl rand -hex 16`"),
        Case("web: { token: \"0123456789abcdef 0123\" }",
             "web.token: the token may only have letters, digits and - . _ ~ (it travels in a URL); use the output of `openssl rand -hex 16`, for example"),
        Case("web: { token: 12 }", "web.token: expected a string (the token) or null, found a number"),
    ]

    @Test(arguments: cases)
    func reportsTheKeyPathAndWhatToChange(_ example: Case) {
        #expect(Self.problems(example.members) == example.problems)
    }

    @Test func readsEverySection() throws {
        let configuration = try Self.configuration("""
            device: { name: "eGalax*", type: "touchscreen",
                      axes: { x: { code: "ABS_Z", min: 0, max: 4095, resolution: 12 }, y: { code: 3, min: -100, max: 100 } } },
            grab: true,
            screen: { width: 1920, height: 1080, rotation: 90, calibration: [1, 0, 0.01, 0, 1, -0.02] },
            socket: { path: "/tmp/g.sock", group: "gestured", controlGroup: null, controlUsers: ["signage"] },
            gestures: { tap: { maxInterval: 0.3, taps: 2 }, swipe: { direction: ["up"] }, pan: { slop: { mm: 2.5 } },
                        control: { trackingSlop: 40 }, touch: { tapInterval: 0.25, tapDistance: { mm: 9 } } }
            """)
        #expect(configuration.device == .name(pattern: "eGalax*"))
        #expect(configuration.grab)
        #expect(configuration.deviceOverrides == DeviceOverrides(type: .touchscreen, axes: AxisOverrides(
            x: AxisOverride(code: AbsCode.z, range: 0...4095, resolution: 12),
            y: AxisOverride(code: AbsCode.rx, range: -100...100))))
        #expect(configuration.screen == ScreenGeometry(width: 1920, height: 1080, rotation: .clockwise90,
                                                     calibration: CalibrationMatrix([1, 0, 0.01, 0, 1, -0.02])!))
        #expect(configuration.socket == SocketConfig(path: "/tmp/g.sock", group: "gestured", controlUsers: ["signage"]))
        #expect(configuration.settings == GestureSettings(
            overrides: [.tap: RecognizerParameters(["taps": 2, "maxInterval": 0.3]), .swipe: RecognizerParameters(["direction": ["up"]]),
                        .pan: RecognizerParameters()],
            trackingSlop: 40, touchTapInterval: 0.25,
            millimetres: MillimetreThresholds([
                .init(key: "gestures.pan.slop", target: .recognizer(.pan, parameter: "slop"), millimetres: 2.5),
                .init(key: "gestures.touch.tapDistance", target: .touchTapDistance, millimetres: 9),
            ])))
        #expect(!configuration.isBareLayout)
        #expect(configuration.layoutSource == .inline(file: "kiosk.json5"))
        #expect(configuration.web == nil)
    }

    @Test func readsTheWebSection() throws {
        let web = try #require(try Self.configuration("""
            web: { listen: "[::1]:8000", origins: ["http://Kiosk.local:8080", "https://signage.example", "http://localhost:*", "null"],
                   token: "0123456789abcdef-._~" }
            """).web)
        #expect(web.listen == ListenAddress(host: "::1", port: 8000))
        #expect(web.listen.description == "[::1]:8000")
        #expect(web.token == "0123456789abcdef-._~")
        // Origins compare as browsers serialise them: lowercase host, default port left out.
        #expect(web.allows(origin: "http://kiosk.local:8080"))
        #expect(!web.allows(origin: "http://kiosk.local"))
        #expect(web.allows(origin: "https://signage.example") && web.allows(origin: "https://signage.example:443"))
        #expect(!web.allows(origin: "http://signage.example"))
        #expect(web.allows(origin: "http://localhost:1234") && web.allows(origin: "http://localhost"))
        #expect(!web.allows(origin: "http://localhost.evil.example:1234"))
        #expect(web.allows(origin: "null"))
        #expect(web.allows(origin: nil), "a request without Origin is no web page")
    }

    @Test func webDefaultsAllowOnlyLoopbackPages() throws {
        let web = try #require(try Self.configuration("web: {}").web)
        #expect(web.listen == ListenAddress(host: "127.0.0.1", port: 7300))
        #expect(web.token == nil)
        #expect(web.allows(origin: "http://127.0.0.1:8080") && web.allows(origin: "http://[::1]:9") && web.allows(origin: "http://localhost"))
        #expect(!web.allows(origin: "http://192.168.1.2:8080") && !web.allows(origin: "null") && !web.allows(origin: "https://localhost"))
        #expect(try #require(try Self.configuration("web: { origins: \"*\" }").web).allows(origin: "https://anywhere.example"))
        #expect(!(try #require(try Self.configuration("web: { origins: [] }").web).allows(origin: "http://localhost")))
    }

    @Test func defaultsForAMinimalConfiguration() throws {
        let configuration = try ConfigurationLoader.parse(text: "{ \(Self.layout) }", file: "kiosk.json5")
        #expect(configuration == Configuration(
            file: "kiosk.json5", screen: ScreenGeometry(width: 800, height: 480),
            layout: ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 800, height: 480)),
            layoutSource: .inline(file: "kiosk.json5")))
        #expect(configuration.socket.path == "/run/gestured/gestured.sock")
        #expect(configuration.socket.group == nil && configuration.socket.controlGroup == nil)
    }

    @Test(arguments: [("\"auto\"", DeviceSelector.auto), ("\"/dev/input/event3\"", .path("/dev/input/event3")),
                      ("\"/dev/input/by-path/pci-0000:00:14.0-usb-0:1:1.0-event\"",
                       .path("/dev/input/by-path/pci-0000:00:14.0-usb-0:1:1.0-event")),
                      ("{ name: \"ILITEK*\" }", .name(pattern: "ILITEK*"))])
    func readsDeviceSelectors(_ text: String, _ device: DeviceSelector) throws {
        #expect(try Self.configuration("device: \(text)").device == device)
    }

    // MARK: Bare layout or configuration

    @Test func aViewAtTheTopIsABareLayout() throws {
        let configuration = try ConfigurationLoader.parse(text: "{ id: \"root\", frame: [0, 0, 640, 400] }", file: "bare.json5")
        #expect(configuration.isBareLayout)
        #expect(configuration.screen == ScreenGeometry(width: 640, height: 400))
        #expect(configuration.layoutSource == .inline(file: "bare.json5"))
        #expect(configuration.settings == GestureSettings())
    }

    @Test func aBareLayoutUsesTheLayoutPrefix() {
        #expect(ProblemLines.configuration("{ id: \"root\", frame: [0, 0, 640, 400], hiden: true }") == [
            "layout.hiden: unknown key; did you mean \"hidden\"?",
        ])
        #expect(ProblemLines.configuration("{ frame: [0, 0, 640, 400] }") == [
            "layout.id: missing; add id: \"…\", a name that is unique in the layout",
        ])
    }

    @Test func viewKeysInAConfigurationSayHowToFixTheFile() {
        #expect(ProblemLines.configuration("{ screen: { width: 640, height: 400 }, id: \"root\", frame: [0, 0, 640, 400] }") == [
            "layout: missing; add layout: \"layouts/….json5\" (a path relative to this file) or the root view inline",
            "frame: frame is a view key, but this file is a configuration; move the root view under layout: { … }, "
                + "or remove the configuration keys to make the file a bare layout",
            "id: id is a view key, but this file is a configuration; move the root view under layout: { … }, "
                + "or remove the configuration keys to make the file a bare layout",
        ])
    }

    @Test func anEmptyObjectIsAConfigurationWithoutALayout() {
        #expect(ProblemLines.configuration("{}") == [
            "layout: missing; add layout: \"layouts/….json5\" (a path relative to this file) or the root view inline",
        ])
    }

    @Test func theTopLevelMustBeAnObject() {
        #expect(ProblemLines.configuration("[]") == [
            "the file holds an empty array, not an object; write a configuration { screen, layout, … } or a bare layout { id, frame, … }",
        ])
    }

    @Test func inlineLayoutProblemsUseTheLayoutPrefix() {
        #expect(ProblemLines.configuration("{ grab: 1, layout: { id: \"root\", frame: [0, 0, 1, 1], alpha: 3 } }") == [
            "grab: expected true or false, found a number",
            "layout.alpha: 3 is outside 0…1; use a value from 0 (transparent) to 1 (opaque)",
        ])
        #expect(ProblemLines.configuration("{ layout: 5 }") == [
            "layout: expected a path to a layout file (a string) or the root view { id, frame, … }, found a number",
        ])
        #expect(ProblemLines.configuration("{ layout: \"\" }") == [
            "layout: the path is empty; name the layout file, relative to this file",
        ])
    }

    // MARK: Layout files

    @Test(arguments: [
        ("layouts/lobby.json5", "config/lobby.json5", "config/layouts/lobby.json5"),
        ("lobby.json5", "gestured.json5", "lobby.json5"),
        ("/srv/kiosk/lobby.json5", "config/gestured.json5", "/srv/kiosk/lobby.json5"),
        ("../kiosks/lobby.json5", "/etc/gestured/gestured.json5", "/etc/gestured/../kiosks/lobby.json5"),
        ("lobby.json5", "/gestured.json5", "/lobby.json5"),
    ])
    func resolvesLayoutPathsAgainstTheConfigurationsDirectory(_ path: String, _ file: String, _ resolved: String) {
        #expect(ConfigurationLoader.resolve(path, relativeTo: file) == resolved)
    }

    static let relative = "Tests/Fixtures/config/relative"

    @Test func loadsALayoutFileNextToTheConfiguration() throws {
        let configuration = try ConfigurationLoader.load(path: PackageRoot.file("\(Self.relative)/kiosk.json5"))
        #expect(configuration.layoutSource == .file(path: PackageRoot.file("\(Self.relative)/layouts/panel.json5")))
        #expect(configuration.layout.id == "panel")
        #expect(configuration.layout.subviews.map(\.id) == ["ok"])
        #expect(configuration.screen == ScreenGeometry(width: 800, height: 480))
    }

    /// Problems in the layout file name that file; the configuration's own problems come first.
    @Test func problemsInTheLayoutFileNameThatFile() throws {
        let path = PackageRoot.file("\(Self.relative)/layout-syntax-error.json5")
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: path) }
        #expect(PackageRoot.relative(error.description) == """
            \(Self.relative)/layout-syntax-error.json5:3:13: screen.width: 0 is not a usable width; use a number of points greater than 0 and at most 1000000
            \(Self.relative)/layouts/syntax-error.json5:3:26: missing "," between the value of "frame" and "subviews"; add a comma
            """)
    }

    @Test func keyPathsInALayoutFileStartWithLayout() throws {
        let path = PackageRoot.file("\(Self.relative)/layout-key-problems.json5")
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: path) }
        #expect(PackageRoot.relative(error.description) == """
            \(Self.relative)/layouts/key-problems.json5:4:71: layout.subviews[0].trackingSlop: expected a number of points, found a string
            \(Self.relative)/layouts/key-problems.json5:4:93: layout.subviews[0].colr: unknown key; remove it (a view takes id, frame, hidden, alpha, userInteractionEnabled, hitOutset, hitTest, passThrough, kind, handlesTouches, multipleTouchEnabled, exclusiveTouch, trackingSlop, routing, recognizers, subviews)
            """)
    }

    @Test func aMissingLayoutFileIsReportedAtTheLayoutKey() throws {
        let path = PackageRoot.file("\(Self.relative)/missing-layout.json5")
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: path) }
        #expect(PackageRoot.relative(error.description) == """
            \(Self.relative)/missing-layout.json5:3:3: layout: cannot read "\(Self.relative)/layouts/nowhere.json5" (no such file); \
            check the path, remembering that it is relative to the directory of this file
            """)
    }

    @Test func aMissingConfigurationFileSaysSo() {
        #expect(throws: ConfigurationError(file: "/nonexistent/gestured.json5", problems: [
            ConfigurationProblem(file: "/nonexistent/gestured.json5", location: .file,
                                 message: "cannot read the file (no such file); check the path"),
        ])) {
            try ConfigurationLoader.load(path: "/nonexistent/gestured.json5")
        }
    }

    @Test func aDirectoryIsNotAConfiguration() throws {
        let error = try #require(throws: ConfigurationError.self) { try ConfigurationLoader.load(path: PackageRoot.file("config")) }
        #expect(error.problems.map(\.message) == ["cannot read the file (it is a directory); name a file"])
    }

    // MARK: Printing

    @Test func printsOneProblemPerLine() {
        let error = ConfigurationError(file: "kiosk.json5", problems: [
            ConfigurationProblem(file: "kiosk.json5", location: .keyPath("screen.width"), message: "missing; add width"),
            ConfigurationProblem(file: "layouts/a.json5", location: .position(line: 3, column: 7), message: "unterminated string"),
            ConfigurationProblem(file: "kiosk.json5", location: .file, message: "cannot read the file"),
        ])
        #expect(error.description == """
            kiosk.json5: screen.width: missing; add width
            layouts/a.json5:3:7: unterminated string
            kiosk.json5: cannot read the file
            """)
        #expect(error.layoutProblems == [
            LayoutProblem(path: "screen.width", message: "missing; add width"),
            LayoutProblem(path: "layouts/a.json5:3:7", message: "unterminated string"),
            LayoutProblem(path: "kiosk.json5", message: "cannot read the file"),
        ])
    }
}
