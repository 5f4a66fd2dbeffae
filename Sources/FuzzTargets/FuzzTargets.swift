import GestureConfig
import GestureCore
import GestureServer

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
