import GestureConfig
import GestureCore
import GestureRuntime
import GestureServer
import Recordings

/// The bodies of the coverage-guided fuzz targets (`scripts/fuzz.sh`, docs/fuzzing.md): each
/// takes arbitrary bytes and runs them through what the daemon does with such input, so that
/// libFuzzer finds any input that traps, overflows the stack or stalls. A target is a
/// function here and one line in the script.
public enum FuzzTargets {
    /// Configuration text (JSON5), read and validated as `check-config`, `SIGHUP` and `reload`
    /// read it; a configuration that passes is then compiled and run through the engine with a
    /// few touches and every deadline, since an accepted configuration must never crash the
    /// daemon (issue 12: durations that trapped on the timeline, counts that exhausted memory).
    public static func configuration(_ bytes: UnsafeBufferPointer<UInt8>) {
        guard let text = String(validating: bytes, as: UTF8.self) else { return }
        guard let configuration = try? ConfigurationLoader.parse(text: text, file: "fuzz.json5") else { return }
        exercise(configuration.layout, settings: configuration.settings,
                 size: configuration.screen.size)
    }

    /// One socket line, decoded as the server decodes requests (strict JSON); the reply or
    /// error is encoded, and a layout it carries is validated, compiled and exercised as
    /// `layout.set` and `view.update` would apply it.
    public static func request(_ bytes: UnsafeBufferPointer<UInt8>) {
        let layout = ViewSpec(id: "root", frame: Rect(x: 0, y: 0, width: 800, height: 480),
                              subviews: [ViewSpec(id: "left", frame: Rect(x: 0, y: 0, width: 400, height: 480))])
        do {
            let (id, request) = try Request.parse(bytes)
            _ = ReplyEncoder.encode(.ok(id, .done))
            switch request {
            case .layoutSet(let value):
                if let applied = try? ConfigurationLoader.decodeLayout(value, file: "layout.set") {
                    exercise(applied, settings: GestureSettings(), size: Size(width: 800, height: 480))
                }
            case .viewUpdate(let view, let changes):
                if let updated = try? ConfigurationLoader.updateView(view, with: changes, in: layout, file: "view.update") {
                    exercise(updated, settings: GestureSettings(), size: Size(width: 800, height: 480))
                }
            case .hitTest(let x, let y):
                _ = Engine(tree: ViewTree(validated: layout)).hitTest(Point(x: x, y: y))
            case .screenSet(let rotation, let width, let height):
                let screen = ScreenGeometry(width: width ?? 800, height: height ?? 480, rotation: rotation)
                _ = ReplyEncoder.encode(.ok(id, .screen(screen)))
                var engine = Engine(tree: ViewTree(validated: layout))
                engine.reconfigure(settings: GestureSettings(), screen: screen.bounds)
            case .subscribe, .unsubscribe, .status, .reload:
                break
            }
        } catch {
            _ = ReplyEncoder.encode(.error(error))
        }
    }

    /// The web bridge's token gate as a parser differential (issue 25): the bytes are one
    /// WebSocket text message on a connection opened without the token. Whatever the gate
    /// forwards is framed as the daemon frames its socket (``BridgeGate/daemonLines(of:)``,
    /// the daemon's `LineFramer`) and each line parsed as the daemon parses requests; a line
    /// the daemon would accept as a request that changes it, or forwarded bytes that are not
    /// exactly one line, trap. A refusal must be one error line.
    public static func gate(_ bytes: UnsafeBufferPointer<UInt8>) {
        switch BridgeGate(mayChange: false).verdict(on: bytes) {
        case .forward(let forwarded):
            guard forwarded.last == 0x0A, forwarded.dropLast().allSatisfy({ $0 != 0x0A }),
                  let lines = BridgeGate.daemonLines(of: forwarded), lines.count == 1 else {
                fatalError("the gate forwarded bytes that are not one daemon line: \(forwarded)")
            }
            if let (_, request) = try? Request.parse(lines[0]), request.needsControl {
                fatalError("the gate let a changing request through without the token: \(forwarded)")
            }
        case .refuse(let reply):
            // The daemon's own error line (ReplyEncoder's), which may quote a NUL of the input
            // as \u0000: valid JSON that the project's own parser would refuse, so only its
            // shape is checked here.
            guard !reply.contains(0x0A), reply.starts(with: #"{"type":"error","#.utf8), reply.last == UInt8(ascii: "}") else {
                fatalError("the gate's refusal is not one error line: \(reply)")
            }
        case .nothing, .tooLong:
            break
        }
    }

    /// An evemu recording (`evemu-record`), replayed as `gestured replay` replays a file.
    public static func evemu(_ bytes: UnsafeBufferPointer<UInt8>) {
        replay(bytes, format: "# EVEMU 1.3\n", configuration: replayConfiguration)
    }

    /// A `libinput record` YAML file, replayed as `gestured replay` replays a file.
    public static func libinputRecord(_ bytes: UnsafeBufferPointer<UInt8>) {
        replay(bytes, format: "# libinput record\n", configuration: replayConfiguration)
    }

    /// `evtest` output, replayed as `gestured replay` replays a file.
    public static func evtest(_ bytes: UnsafeBufferPointer<UInt8>) {
        replay(bytes, format: "Input driver version is 1.0.1\n", configuration: replayConfiguration)
    }

    /// Android `getevent -t` output (no description: the configuration's axes), replayed as
    /// `gestured replay` replays a file.
    public static func getevent(_ bytes: UnsafeBufferPointer<UInt8>) {
        replay(bytes, format: "add device 1: /dev/input/event1\n", configuration: axesConfiguration)
    }

    /// A layout with a recognizer of every kind, so a replay reaches every part of the engine.
    static let replayLayout = """
        screen: { width: 800, height: 480 },
        layout: {
          id: "root", frame: [0, 0, 800, 480],
          recognizers: [
            { id: "pan", type: "pan", maximumTouches: 3 },
            { id: "pinch", type: "pinch", simultaneousWith: ["rotate"] },
            { id: "rotate", type: "rotation" },
            { id: "edge", type: "edgePan", edges: ["left"] },
          ],
          subviews: [
            { id: "button", frame: [20, 20, 200, 100], kind: "control",
              recognizers: [{ id: "double", type: "tap", taps: 2 }, { id: "tap", type: "tap", requireToFail: ["double"] }] },
            { id: "list", frame: [300, 0, 500, 480],
              recognizers: [{ id: "hold", type: "longPress", minimumDuration: 0.3 }, { id: "swipe", type: "swipe" }] },
          ],
        },
        """
    /// The layout, with the recording's own axis ranges.
    static let replayConfiguration = try? ConfigurationLoader.parse(text: "{\n" + replayLayout + "\n}", file: "fuzz.json5")
    /// The layout with axis ranges, for a recording without a description (getevent).
    static let axesConfiguration = try? ConfigurationLoader.parse(
        text: "{\n device: { axes: { x: { min: 0, max: 4095 }, y: { min: 0, max: 4095 } } },\n" + replayLayout + "\n}",
        file: "fuzz.json5")

    /// The bytes as a recording file read by the reader, after a first line that makes the
    /// format detector pick `format`'s family; a recording that opens is replayed through the
    /// pipeline with tracing, to the end and its last deadline, as a touchpad would be with
    /// `--force`. Small chunks put chunk boundaries inside lines; a line limit of 4 KiB lets
    /// inputs of libFuzzer's size reach it.
    static func replay(_ bytes: UnsafeBufferPointer<UInt8>, format: StaticString, configuration: Configuration?) {
        guard let configuration else { fatalError("the fuzz replay configuration is invalid") }
        var text = Array(UnsafeBufferPointer(start: format.utf8Start, count: format.utf8CodeUnitCount))
        text.append(contentsOf: bytes)
        let source = RecordingSource(name: "fuzz.recording", bytes: text)
        guard let stream = try? RecordingReader.stream(source, chunkSize: 1024, maximumLineLength: 4096),
              var replayer = try? Replayer(stream: stream, setup: configuration.pipelineSetup,
                                           options: ReplayOptions(tracing: true, allowNonTouchscreen: true))
        else { return }
        replayer.run { _ in }
    }

    /// Compiles a validated layout and runs three touches over it: down in the middle of the
    /// screen, a move, an up, then time advanced past every deadline.
    static func exercise(_ layout: ViewSpec, settings: GestureSettings, size: Size) {
        var engine = Engine(tree: ViewTree(validated: layout), settings: settings)
        var events: [EngineEvent] = []
        let start = Timestamp(seconds: 1_000_000)
        let middle = Point(x: size.width / 2, y: size.height / 2)
        let fingers = (0..<3).map { ContactID($0) }
        engine.process(TouchFrame(time: start, changes: fingers.map { .down($0, middle) }), into: &events)
        engine.process(TouchFrame(time: start + TimeSpan(seconds: 0.05),
                                  changes: fingers.map { .move($0, middle + Point(x: 30, y: 5)) }), into: &events)
        engine.process(TouchFrame(time: start + TimeSpan(seconds: 0.1), changes: fingers.map { .up($0) }), into: &events)
        engine.advance(to: start + TimeSpan(seconds: LayoutLimits.seconds.upperBound * 2 + 1), into: &events)
        var encoder = EventEncoder()
        var output: [UInt8] = []
        for event in events { encoder.encode(event, into: &output) }
    }
}
