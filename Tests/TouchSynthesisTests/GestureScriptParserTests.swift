import Foundation
import GestureCore
import TestSupport
import Testing
import TouchSynthesis

@Suite("Gesture script parser")
struct GestureScriptParserTests {
    @Test func readsEveryInstruction() throws {
        let script = try GestureScriptParser.parse("""
            # a comment line
            panel panel.desc   # trailing comment
            screen 1080 1920 rotation 90 calibration 1 0 0 0 1 0
            rate 120
            down 1 10 20 ; down 2 30 40
            wait 1.5s
            move 1 11 21 ; move 2 31.5 41 over 250ms
            units mm
            move 2 5 6
            units device
            up 1 ; move 2 100 200
            up 2
            """, file: "s.touches")
        let points = GestureScript.Units.points
        #expect(script.panel == "panel.desc")
        #expect(script.screen == ScreenGeometry(width: 1080, height: 1920, rotation: .clockwise90, calibration: .identity))
        #expect(script.rate == 120)
        #expect(script.framePeriod == 8333)
        #expect(script.steps == [
            .init(line: 5, action: .frame([.down(finger: 1, .init(x: 10, y: 20, units: points)),
                                           .down(finger: 2, .init(x: 30, y: 40, units: points))])),
            .init(line: 6, action: .wait(microseconds: 1_500_000)),
            .init(line: 7, action: .glide([.move(finger: 1, .init(x: 11, y: 21, units: points)),
                                           .move(finger: 2, .init(x: 31.5, y: 41, units: points))], microseconds: 250_000)),
            .init(line: 9, action: .frame([.move(finger: 2, .init(x: 5, y: 6, units: .mm))])),
            .init(line: 11, action: .frame([.up(finger: 1), .move(finger: 2, .init(x: 100, y: 200, units: .device))])),
            .init(line: 12, action: .frame([.up(finger: 2)])),
        ])
    }

    /// Without a `panel` line the script plays on gestured's virtual touchscreen, whose text is
    /// the project's panel description.
    @Test func withoutAPanelLineTheVirtualTouchscreenIsUsed() throws {
        let script = try GestureScriptParser.parse("screen 10 10\ndown 1 1 1\n", file: "s")
        #expect(script.panel == nil)
        let committed = try String(contentsOfFile: PackagePaths.recording("panel.desc"), encoding: .utf8)
        #expect(SyntheticPanel.description == committed)
    }

    @Test func cssPixelsAreMadePointsByThePage() throws {
        let script = try GestureScriptParser.parse("screen 1920 1080\npage origin 100 50\npage scale 1.5\nunits css\ndown 1 200 100\n",
                                                   file: "s")
        #expect(script.page == GestureScript.PageMapping(originX: 100, originY: 50, scale: 1.5))
        let point = script.page.point(x: 200, y: 100)
        #expect(point.x == 400 && point.y == 200)
        let viewport = try GestureScriptParser.parse("screen 1920 1080\npage viewport 1280 720\n", file: "s")
        #expect(viewport.page.scale == 1.5)
    }

    @Test func defaults() throws {
        let script = try GestureScriptParser.parse("panel p.desc\nunits device\ndown 0 1 2\n", file: "s")
        #expect(script.rate == 100)
        #expect(script.framePeriod == 10_000)
        #expect(script.screen == nil)
    }

    /// Each mistake is named with its line and what to write instead.
    @Test(arguments: [
        ("screen 10 10\npage scale 30", "s.touches:2: `page scale` is 30.0; screen points per CSS pixel from 0.05 to 20.0"),
        ("screen 10 10\nunits css\ndown 1 1 1\npage scale 2", "s.touches:4: `page` must come before the first step"),
        ("panel p\npanel q", "s.touches:2: a second `panel` line; a script plays on one panel"),
        ("panel p\nunits device\ndown 1 1 1\npanel q", "s.touches:4: a second `panel` line; a script plays on one panel"),
        ("panel p\nscreen 10", "s.touches:2: expected `screen WIDTH HEIGHT [rotation 0|90|180|270] [calibration A B C D E F]`"),
        ("panel p\nscreen 0 10", "s.touches:2: the screen's width and height must be from 1 to 100000 points"),
        ("panel p\nscreen 10 10 rotation 45", "s.touches:2: expected `rotation` 0, 90, 180 or 270 (degrees clockwise, as in the configuration)"),
        ("panel p\nscreen 10 10 calibration 1 0 0 2 0 0", "s.touches:2: this calibration cannot be inverted (a*e - b*d is 0): no panel position gives these points"),
        ("panel p\nscreen 10 10 tilt 3", "s.touches:2: expected `screen WIDTH HEIGHT [rotation 0|90|180|270] [calibration A B C D E F]`; found `tilt`"),
        ("panel p\nrate 0", "s.touches:2: expected `rate HZ` with HZ a whole number of frames per second from 1 to 1000"),
        ("panel p\nunits inches", "s.touches:2: expected `units points`, `units mm`, `units device` or `units css`"),
        ("panel p\nwait 80", "s.touches:2: expected a duration such as `80ms` or `1.5s`, found `80`"),
        ("panel p\nwait 0ms", "s.touches:2: a wait must be longer than 0"),
        ("panel p\nwait 2h", "s.touches:2: expected a duration such as `80ms` or `1.5s`, found `2h`"),
        ("panel p\nwait 3601s", "s.touches:2: a duration may be at most an hour, found `3601s`"),
        ("panel p\ndown 1 5 5", "s.touches:2: positions in points need a `screen WIDTH HEIGHT` line first (or `units mm` / `units device`)"),
        ("panel p\nunits device\ndown 1 5", "s.touches:3: expected `down FINGER X Y`, found `down 1 5`"),
        ("panel p\nunits device\ndown one 5 5", "s.touches:3: expected a finger number from 0 to 999 in `down FINGER X Y`, found `one`"),
        ("panel p\nunits device\nmove 1 5 x", "s.touches:3: expected numbers for X and Y in `move FINGER X Y`, found `5 x`"),
        ("panel p\nunits device\nup 1 2", "s.touches:3: expected `up FINGER`, found `up 1 2`"),
        ("panel p\nunits device\ndown 1 5 5 ; up 1", "s.touches:3: finger 1 changes twice in one frame; put the second change on the next line"),
        ("panel p\nunits device\ndown 1 5 5 ;", "s.touches:3: expected a step between the semicolons, found an empty one"),
        ("panel p\nunits device\ndown 1 5 5 ; wait 1s", "s.touches:3: expected down, move or up after `;`, found `wait`"),
        ("panel p\nunits device\nwait 1s ; down 1 5 5", "s.touches:3: `wait` stands on a line of its own; only down, move and up share a line"),
        ("panel p\nunits device\ndown 1 5 5 over 1s", "s.touches:3: `over` glides moves only; put down and up on lines of their own"),
        ("panel p\nunits device\nmove 1 5 5 over 0s", "s.touches:3: `over` needs a duration longer than 0"),
        ("panel p\nunits device\ntap 1 5 5", "s.touches:3: expected panel, screen, page, rate, units, wait, down, move or up, found `tap`"),
        ("panel p\nunits device\nup 1\nrate 50", "s.touches:4: `rate` must come before the first step"),
    ])
    func namesTheLineAndWhatToChange(_ text: String, _ message: String) {
        #expect(parseError(text) == message)
    }
}

/// The error text (`file:line: message`) of parsing `text` as `s.touches`; nil when it parses.
func parseError(_ text: String) -> String? {
    do {
        _ = try GestureScriptParser.parse(text, file: "s.touches")
        return nil
    } catch {
        return error.description
    }
}
