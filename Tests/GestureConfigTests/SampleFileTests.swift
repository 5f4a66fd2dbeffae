import Testing
@testable import GestureConfig
import GestureCore

/// The samples in config/ are documentation users copy: each must load, validate, compile,
/// and hit-test as its comments say (SPEC 4.1 for the scenarios).
struct SampleFileTests {
    static let samples = PackageRoot.json5Files(in: "config") + PackageRoot.json5Files(in: "config/layouts")

    @Test func theSamplesAreThere() {
        #expect(Self.samples == [
            "config/gallery.json5", "config/lobby.json5", "config/map.json5", "config/photo-wall.json5",
            "config/scenario-a-passthrough.json5", "config/scenario-a.json5", "config/scenario-b-none.json5",
            "config/scenario-b-redirect.json5", "config/scenario-b-self.json5", "config/scenario-b.json5",
            "config/layouts/gallery.json5", "config/layouts/lobby.json5", "config/layouts/map.json5",
            "config/layouts/photo-wall.json5",
        ])
    }

    @Test(arguments: samples)
    func loadsValidatesAndCompiles(_ sample: String) throws {
        let configuration = try ConfigurationLoader.load(path: PackageRoot.file(sample))
        #expect(LayoutValidator.problems(in: configuration.layout).isEmpty)
        _ = try ViewTree(root: configuration.layout)
    }

    static func load(_ sample: String) throws -> Configuration {
        try ConfigurationLoader.load(path: PackageRoot.file(sample))
    }

    /// The id of the view that takes a touch at (x, y), or "none".
    static func hit(_ layout: ViewSpec, _ x: Double, _ y: Double) throws -> String {
        let tree = try ViewTree(root: layout)
        return HitTester.hitTest(tree, at: Point(x: x, y: y)).map(tree.id(of:)) ?? "none"
    }

    // MARK: Scenario A

    static let scenarioA = ViewSpec(id: "RootView", frame: Rect(x: 0, y: 0, width: 400, height: 800), subviews: [
        ViewSpec(id: "BackButton", frame: Rect(x: 40, y: 600, width: 120, height: 60), kind: .control),
        ViewSpec(id: "BlackView", frame: Rect(x: 0, y: 300, width: 400, height: 400), subviews: [
            ViewSpec(id: "FrontButton", frame: Rect(x: 100, y: 50, width: 200, height: 80), kind: .control),
        ]),
    ])

    @Test func scenarioAIsTheLayoutOfSpec41() throws {
        let configuration = try Self.load("config/scenario-a.json5")
        #expect(configuration.isBareLayout)
        #expect(configuration.layout == Self.scenarioA)
        #expect(configuration.screen == ScreenGeometry(width: 400, height: 800))
    }

    @Test func scenarioAPassThroughDiffersOnlyInBlackView() throws {
        var expected = Self.scenarioA
        expected.subviews[1].passThrough = true
        #expect(try Self.load("config/scenario-a-passthrough.json5").layout == expected)
    }

    @Test(arguments: [("config/scenario-a.json5", 20.0, 320.0, "BlackView"), ("config/scenario-a.json5", 150, 380, "FrontButton"),
                      ("config/scenario-a.json5", 300, 100, "RootView"), ("config/scenario-a.json5", 60, 620, "BlackView"),
                      ("config/scenario-a-passthrough.json5", 60, 620, "BackButton"),
                      ("config/scenario-a-passthrough.json5", 150, 380, "FrontButton"),
                      ("config/scenario-b.json5", 150, 300, "Container1"), ("config/scenario-b.json5", 150, 100, "View2"),
                      ("config/scenario-b-none.json5", 150, 300, "none"), ("config/scenario-b-none.json5", 50, 500, "none"),
                      ("config/scenario-b-self.json5", 50, 500, "Container1"),
                      ("config/scenario-b-redirect.json5", 150, 300, "Container3"),
                      ("config/scenario-b-redirect.json5", 50, 50, "Container3")])
    func scenariosHitTestAsSpec41Says(_ sample: String, _ x: Double, _ y: Double, _ view: String) throws {
        #expect(try Self.hit(Self.load(sample).layout, x, y) == view)
    }

    // MARK: Scenario B

    @Test(arguments: [("config/scenario-b-none.json5", HitTestOverride.none), ("config/scenario-b-self.json5", .`self`),
                      ("config/scenario-b-redirect.json5", .redirect("Container3"))])
    func scenarioBVariantsDifferOnlyInContainer1sHitTest(_ sample: String, _ hitTest: HitTestOverride) throws {
        var expected = try Self.load("config/scenario-b.json5").layout
        expected.hitTest = hitTest
        #expect(try Self.load(sample).layout == expected)
    }

    @Test func scenarioBHasTheViewsOfSpec41() throws {
        let layout = try Self.load("config/scenario-b.json5").layout
        #expect(layout.frame == Rect(x: 0, y: 0, width: 300, height: 600))
        #expect(layout.subviews.map(\.id) == ["Container2", "Container3"])
        #expect(layout.subviews.map(\.frame) == [Rect(x: 0, y: 0, width: 300, height: 200), Rect(x: 0, y: 400, width: 300, height: 200)])
        #expect(layout.subviews.map { $0.subviews.map(\.id) } == [["View1", "View2", "View3"], ["View4", "View5", "View6"]])
        for container in layout.subviews {
            #expect(container.subviews.map(\.frame) == [0.0, 100, 200].map { Rect(x: $0, y: 0, width: 100, height: 200) })
        }
    }

    // MARK: Lobby

    @Test func lobbyConfiguration() throws {
        let configuration = try Self.load("config/lobby.json5")
        #expect(!configuration.isBareLayout)
        #expect(configuration.device == .auto)
        #expect(configuration.grab)
        #expect(configuration.screen == ScreenGeometry(width: 1920, height: 1080))
        #expect(configuration.socket == SocketConfig(path: "/run/gestured/gestured.sock", group: "gestured",
                                                     controlGroup: "gestured-control", controlUsers: []))
        #expect(configuration.settings == GestureSettings(
            overrides: [.tap: RecognizerParameters(["maxInterval": 0.3]), .pan: RecognizerParameters(["slop": 12])],
            trackingSlop: 40, touchTapInterval: 0.3, touchTapDistance: 45))
        #expect(configuration.layoutSource == .file(path: PackageRoot.file("config/layouts/lobby.json5")))
        #expect(PackageRoot.relative(configuration.summary) == """
            config/lobby.json5: a valid configuration
            screen: 1920 × 1080 points
            device: auto (the first touchscreen), grabbed
            layout: config/layouts/lobby.json5: 21 views (8 controls), 2 recognizers
            socket: /run/gestured/gestured.sock
            """)
    }

    @Test(arguments: [
        (960.0, 60.0, "header"),
        (1834, 38, "languageClose"),      // 10 pt outside the 24 × 24 cross, inside its hitOutset
        (1700, 60, "language"),
        (50, 400, "carousel"),            // the band outside the carousel feeds it
        (400, 400, "carousel"),           // so does a photo inside it
        (900, 400, "welcomeDialog"),      // the dialog is in front of the carousel
        (190, 750, "checkIn"),            // through the overlay's empty area
        (730, 550, "welcomeStart"),       // the dialog's buttons take their touches
        (700, 320, "welcomeDialog"),
        (1600, 300, "carousel"),          // the hidden staff panel takes nothing
        (100, 1040, "lobby"),             // the disabled ticker is skipped
    ])
    func lobbyHitTestsAsItsCommentsSay(_ x: Double, _ y: Double, _ view: String) throws {
        #expect(try Self.hit(Self.load("config/lobby.json5").layout, x, y) == view)
    }

    /// The photo wall is the layout issue 15's live benchmark reads: at least 30 views, and a
    /// pan, a tap and a pinch.
    @Test func photoWallIsTheBenchmarkLayout() throws {
        let tree = try ViewTree(root: Self.load("config/photo-wall.json5").layout)
        #expect(tree.nodes.count == 37)
        #expect(Set(tree.recognizers.map(\.spec.kind)) == [.pan, .tap, .pinch])
    }

    @Test(arguments: [
        (100.0, 100.0, "photo1"), (1800, 900, "photo30"),
        (4, 4, "wall"),                   // the gap between photos is the wall's
        (100, 1040, "previous"), (1900, 1040, "toolbar"),
    ])
    func photoWallHitTestsAsItsCommentsSay(_ x: Double, _ y: Double, _ view: String) throws {
        #expect(try Self.hit(Self.load("config/photo-wall.json5").layout, x, y) == view)
    }

    @Test func bareLayoutSummary() throws {
        #expect(PackageRoot.relative(try Self.load("config/scenario-a.json5").summary) == """
            config/scenario-a.json5: a valid bare layout (every other setting is a default)
            screen: 400 × 800 points
            device: auto (the first touchscreen)
            layout: inline in config/scenario-a.json5: 4 views (2 controls), 0 recognizers
            socket: /run/gestured/gestured.sock
            """)
    }
}
