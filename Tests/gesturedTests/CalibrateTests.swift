#if canImport(Glibc)
import Glibc
#endif
import Foundation
import Testing

/// `gestured calibrate --from-recording` end to end with the real binary: touches synthesised
/// (`gestured synth`) where a panel needing a known matrix reports them, calibrate fits the
/// matrix and writes the udev rule, and `gestured replay` with that matrix puts the touches on
/// the targets. The live panel is the kernel test `test_calibrate`.
@Suite(.serialized)
struct CalibrateTests {
    static func temporaryDirectory() -> String {
        var template = Array("/tmp/gestured-calibrate-XXXXXX".utf8CString)
        return template.withUnsafeMutableBufferPointer { String(cString: mkdtemp($0.baseAddress!)!) }
    }

    /// The targets of `--points 5` on 1920 × 1080: the corners inset by 1/8, then the centre.
    static let targets: [(Double, Double)] = [(240, 135), (1680, 135), (240, 945), (1680, 945), (960, 540)]

    /// A tap at (x, y) screen points, then a second's pause.
    static func tap(_ x: Double, _ y: Double) -> String { "down 1 \(x) \(y)\nwait 60ms\nup 1\nwait 1s\n" }

    /// The six numbers of the rule's `LIBINPUT_CALIBRATION_MATRIX`.
    static func matrix(inRule text: String) -> [Double]? {
        guard let start = text.range(of: "ENV{LIBINPUT_CALIBRATION_MATRIX}=\"") else { return nil }
        let rest = text[start.upperBound...]
        guard let end = rest.firstIndex(of: "\"") else { return nil }
        let values = rest[..<end].split(separator: " ").compactMap { Double($0) }
        return values.count == 6 ? values : nil
    }

    /// The views the touches of a replay began on.
    static func viewsTouched(_ output: String) -> [String] {
        output.split(separator: "\n").compactMap { line in
            guard let object = try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  object["type"] as? String == "touches", object["phase"] as? String == "began" else { return nil }
            return object["view"] as? String
        }
    }

    static let matrices: [(String, [Double])] = [
        ("rotated 90°", [0, -1, 1, 1, 0, 0]),
        ("rotated 180°", [-1, 0, 1, 0, -1, 1]),
        ("scale and offset", [1.08, 0, -0.04, 0, 0.93, 0.035]),
        ("skewed", [1.02, 0.015, -0.01, -0.012, 0.98, 0.02]),
    ]

    @Test(arguments: matrices)
    func aKnownMatrixIsRecoveredAndReplayPutsTheTouchesOnTheTargets(_ name: String, _ truth: [Double]) throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/calibration.touches", recording = directory + "/calibration.evemu"
        let rule = directory + "/62-gestured-calibration.rules", config = directory + "/kiosk.json5"
        // The finger as an installer's: a double tap on the first target, a wild touch for the
        // second (refused: off the top edge), then each target.
        var text = "screen 1920 1080 calibration \(truth.map { String($0) }.joined(separator: " "))\n"
        text += Self.tap(240, 135) + "down 1 242 136\nwait 30ms\nup 1\n"
        text += Self.tap(1680, 400)
        for (x, y) in Self.targets.dropFirst() { text += Self.tap(x, y) }
        try text.write(toFile: script, atomically: true, encoding: .utf8)
        let synth = try Gestured.run(["synth", script, "-o", recording])
        #expect(synth.status == 0, "\(synth.stderr)")

        let calibrate = try Gestured.run(["calibrate", "--size", "1920x1080", "--points", "5", "--from-recording", recording,
                                          "--write-rule", rule])
        #expect(calibrate.status == 0, "\(calibrate.stderr)")
        #expect(calibrate.stderr.contains("ignored: a double tap on target 1"), "\(calibrate.stderr)")
        #expect(calibrate.stderr.contains("target 2: misclick refused"), "\(calibrate.stderr)")
        #expect(calibrate.stderr.contains("RMS: "))
        #expect(calibrate.stderr.contains("udevadm control --reload"))
        let ruleText = try String(contentsOfFile: rule, encoding: .utf8)
        #expect(ruleText.contains(#"ACTION!="remove", SUBSYSTEM=="input", KERNEL=="event*", ATTRS{id/vendor}=="#), "\(ruleText)")
        #expect(!ruleText.contains("GESTURED_SCREEN"))
        let fitted = try #require(Self.matrix(inRule: ruleText), "\(ruleText)")
        // The stated error: device values are whole numbers of a 0…4095 (or so) axis, so each
        // touch is off by up to half a unit; the matrix comes back within 0.002.
        for (value, expected) in zip(fitted, truth) { #expect(abs(value - expected) < 0.002, "\(name): \(fitted)") }

        // Replayed with that matrix, each accepted touch lands on its target's 20-point view.
        var views = Self.targets.enumerated().map { index, target in
            "{ id: \"t\(index + 1)\", frame: [\(target.0 - 10), \(target.1 - 10), 20, 20] }"
        }
        views.append("{ id: \"wild\", frame: [1670, 390, 20, 20] }")
        try """
            { screen: { width: 1920, height: 1080, calibration: [\(fitted.map { String($0) }.joined(separator: ", "))] },
              layout: { id: "screen", frame: [0, 0, 1920, 1080], subviews: [\(views.joined(separator: ", "))] } }
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let replay = try Gestured.run(["replay", "--config", config, recording])
        #expect(replay.status == 0, "\(replay.stderr)")
        #expect(Self.viewsTouched(replay.stdout) == ["t1", "t1", "wild", "t2", "t3", "t4", "t5"], "\(name)")
    }

    @Test func theRuleOfAConfigurationsScreenSetsItsIdAndSaysWhatToFix() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/c.touches", recording = directory + "/c.evemu", config = directory + "/kiosk.json5"
        try ("screen 1280 800 calibration 1.05 0 -0.02 0 1.05 -0.02\n"
            + [(160.0, 100.0), (1120, 100), (160, 700), (1120, 700)].map { Self.tap($0.0, $0.1) }.joined())
            .write(toFile: script, atomically: true, encoding: .utf8)
        #expect(try Gestured.run(["synth", script, "-o", recording]).status == 0)
        try """
            { screens: [
                { id: "clerk", device: { idPath: "pci-0000:00:14.0-usb-0:3:1.0" }, screen: { width: 1280, height: 800, rotation: 90, calibration: [1, 0, 0, 0, 1, 0] },
                  layout: { id: "root", frame: [0, 0, 1280, 800] } },
                { id: "customer", device: { name: "other*" }, screen: { width: 1920, height: 1080 },
                  layout: { id: "root", frame: [0, 0, 1920, 1080] } } ] }
            """.write(toFile: config, atomically: true, encoding: .utf8)
        let unnamed = try Gestured.run(["calibrate", "--config", config, "--from-recording", recording])
        #expect(unnamed.status == 1)
        #expect(unnamed.stderr.contains("2 screens; name one with --screen (clerk, customer)"), "\(unnamed.stderr)")
        let result = try Gestured.run(["calibrate", "--config", config, "--screen", "clerk", "--from-recording", recording, "--print"])
        #expect(result.status == 0, "\(result.stderr)")
        #expect(result.stdout.contains(#"ENV{GESTURED_SCREEN}="clerk", ENV{LIBINPUT_CALIBRATION_MATRIX}=""#), "\(result.stdout)")
        let fitted = try #require(Self.matrix(inRule: result.stdout))
        for (value, expected) in zip(fitted, [1.05, 0, -0.02, 0, 1.05, -0.02]) { #expect(abs(value - expected) < 0.002) }
        #expect(result.stderr.contains("takes precedence over udev's in gestured: replace it with calibration: ["),
                "\(result.stderr)")
        #expect(result.stderr.contains("set rotation: 0"), "\(result.stderr)")
    }

    @Test func touchesOnOneLineAreRefusedAndNothingIsWritten() throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let script = directory + "/line.touches", recording = directory + "/line.evemu", rule = directory + "/x.rules"
        // Every target touched on the top edge: the fourth is refused as a misclick again and
        // again, and the recording ends before every target is answered.
        try ("screen 1920 1080\n" + [(240.0, 135.0), (1680, 135), (960, 135), (600, 135), (1300, 135)]
            .map { Self.tap($0.0, $0.1) }.joined()).write(toFile: script, atomically: true, encoding: .utf8)
        #expect(try Gestured.run(["synth", script, "-o", recording]).status == 0)
        let result = try Gestured.run(["calibrate", "--size", "1920x1080", "--from-recording", recording, "--write-rule", rule])
        #expect(result.status == 1)
        #expect(result.stderr.contains("of 4 targets were touched; nothing was written"), "\(result.stderr)")
        #expect(!FileManager.default.fileExists(atPath: rule))
    }

    /// A recording that cannot be read, or that has no description (Android getevent): the
    /// reason, status 1.
    @Test(arguments: [
        ("", "gestured calibrate: "),
        ("[    1.000000] /dev/input/event2: 0003 0039 00000001\n[    1.000000] /dev/input/event2: 0003 0035 000001f4\n"
            + "[    1.000000] /dev/input/event2: 0000 0000 00000000\n", "the recording has no device description"),
    ])
    func aRecordingThatCannotBeUsedIsSaidSo(_ text: String, _ message: String) throws {
        let directory = Self.temporaryDirectory()
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let recording = directory + "/getevent.txt"
        // No text: no file at all.
        if !text.isEmpty { try text.write(toFile: recording, atomically: true, encoding: .utf8) }
        let result = try Gestured.run(["calibrate", "--size", "1920x1080", "--from-recording", recording])
        #expect(result.status == 1)
        #expect(result.stderr.contains(message), "\(result.stderr)")
        #expect(result.stdout.isEmpty)
    }

    @Test(arguments: [
        (["--size", "1920x1080", "--points", "3"], "--points is 3; use 4 to 9 targets"),
        (["--size", "1920x1080", "--misclick", "0"], "--misclick is 0; use 5 to 500 pixels"),
        (["--size", "0x1080"], "--size 0x1080: use WIDTHxHEIGHT in pixels"),
        ([], "give the screen: --config FILE"),
        (["--size", "800x600", "--write-rule", "/tmp/x.conf"], "udev reads only files whose names end in .rules"),
        (["--size", "800x600", "--write-rule", "/tmp/x.rules", "--print"], "give one of them"),
    ])
    func badArgumentsSayWhatIsAllowed(_ arguments: [String], _ message: String) throws {
        let result = try Gestured.run(["calibrate"] + arguments)
        #expect(result.status == 64)
        #expect(result.stderr.contains(message), "\(result.stderr)")
    }
}
