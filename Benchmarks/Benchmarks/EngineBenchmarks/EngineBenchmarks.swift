import Benchmark
#if canImport(Glibc)
import Glibc
#endif
import GestureCore
import GestureRuntime
import Recordings
import GestureConfig

let benchmarks: @Sendable () -> Void = {
    Benchmark.defaultConfiguration = .init(
        metrics: [.wallClock, .mallocCountTotal, .instructions],
        warmupIterations: 100,
        scalingFactor: .one,
        maxDuration: .seconds(2),
        maxIterations: 100_000)

    // Per-frame engine cost: fingers down on panels, then every iteration is one frame in
    // which all of them move (back and forth by 2 pt, so the pans stay in `changed`).
    let kiosk = BenchmarkLayouts.kiosk()
    for fingers in [1, 5, 10] {
        // The closure runs once per sample; the setup before startMeasurement() is not measured,
        // and each sample measures 1,000 frames (scalingFactor), reported per frame.
        Benchmark("Engine frame, \(fingers) finger(s) moving, 1001 views, 50 recognizers",
                  configuration: .init(scalingFactor: .kilo)) { benchmark in
            var engine = Engine(tree: kiosk)
            // The daemon's form: plain records, cleared for each frame (an [EngineEvent]
            // makes each event as a value, for tests and tools).
            var events = EngineEvents()
            var time: Int64 = 0
            let starts = (0..<fingers).map { Point(x: 100 + Double($0) * 190, y: 60 + Double($0 % 3) * 110) }
            engine.process(TouchFrame(time: Timestamp(microseconds: time),
                                      changes: starts.enumerated().map { .down(ContactID($0.offset), $0.element) }),
                           into: &events)
            var changes = starts.enumerated().map { TouchChange.move(ContactID($0.offset), $0.element) }
            var frame = TouchFrame(time: .zero, changes: changes)
            // Past the slop, so the pans begin before measuring.
            for step in 1...10 {
                time += 8000
                for (index, start) in starts.enumerated() {
                    changes[index] = .move(ContactID(index), Point(x: start.x + Double(step) * 3, y: start.y))
                }
                frame = TouchFrame(time: Timestamp(microseconds: time), changes: changes)
                events.removeAll()
                engine.process(frame, into: &events)
            }
            var step = 0
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                time += 8000
                step += 1
                let dx = step % 2 == 0 ? 32.0 : 30.0
                for index in 0..<fingers {
                    frame.changes[index] = .move(ContactID(index), Point(x: starts[index].x + dx, y: starts[index].y))
                }
                frame.time = Timestamp(microseconds: time)
                events.removeAll()
                engine.process(frame, into: &events)
                blackHole(events.count)
            }
        }
    }

    // The live benchmark's layout (config/photo-wall.json5: 37 views, a pinch, a pan and a tap
    // on the wall): ten fingers on ten photos, the pinch under way with its two fingers and the
    // other eight held aside, every finger moving every frame; each iteration is the engine's
    // frame and the JSON Lines of its events (what `gestured run` does per frame, without the
    // read and the write). Malloc must stay 0: a gesture's touch list was an array allocated
    // per event while a pinch held fingers aside.
    Benchmark("Engine and encoder frame, photo wall, 10 fingers, a pinch under way",
              configuration: .init(scalingFactor: .kilo)) { benchmark in
        let configuration = try ConfigurationLoader.load(path: BenchmarkPaths.root + "/config/photo-wall.json5")
        var engine = Engine(tree: try ViewTree(root: configuration.layout))
        var events = EngineEvents()
        var encoder = EventEncoder()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 16)
        // One finger on each of ten photos (304 x 184 at 320 x 200 pitch from (8, 8)).
        let starts = (0..<10).map { Point(x: 160 + Double($0 % 5) * 320, y: 100 + Double($0 / 5) * 400) }
        var time: Int64 = 0
        engine.process(TouchFrame(time: .zero, changes: starts.enumerated().map { .down(ContactID($0.offset), $0.element) }),
                       into: &events)
        var frame = TouchFrame(time: .zero, changes: starts.enumerated().map { .move(ContactID($0.offset), $0.element) })
        // The first two fingers spread until the pinch has begun.
        var began = false
        for step in 1...20 {
            time += 10_000
            frame.time = Timestamp(microseconds: time)
            frame.changes[0] = .move(ContactID(0), Point(x: starts[0].x - Double(step) * 4, y: starts[0].y))
            frame.changes[1] = .move(ContactID(1), Point(x: starts[1].x + Double(step) * 4, y: starts[1].y))
            events.removeAll()
            engine.process(frame, into: &events)
            for event in events {
                if case .gesture(let gesture) = event, gesture.kind == .pinch, gesture.state == .began { began = true }
            }
        }
        precondition(began, "the pinch did not begin")
        var step = 0
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            time += 10_000
            step += 1
            let d = step % 2 == 0 ? 84.0 : 86.0
            frame.time = Timestamp(microseconds: time)
            for index in 0..<10 {
                let spread = index == 0 ? -d : index == 1 ? d : (step % 2 == 0 ? 1.0 : -1.0)
                frame.changes[index] = .move(ContactID(index), Point(x: starts[index].x + spread, y: starts[index].y + 1))
            }
            events.removeAll()
            engine.process(frame, into: &events)
            bytes.removeAll(keepingCapacity: true)
            encoder.buffer(events)
            encoder.flush(into: &bytes)
            blackHole(bytes.count)
        }
    }

    // Hit testing: trees of 10, 1,110 and 7,380 views (fanout 10, 10, 9); and near the layout
    // limit of 10,000 views (docs/limits.md; the root counts) a deep narrow tree (fanout 2)
    // and a flat wide one, to show that the cost follows the views visited (depth x
    // siblings), not the tree's size.
    for (name, fanout, depth) in [("10 views (10 x 1)", 10, 1), ("1,110 views (10 x 3)", 10, 3),
                                  ("7,380 views (9 x 4)", 9, 4), ("8,190 views (2 x 12)", 2, 12),
                                  ("9,999 views (9,999 x 1)", 9_999, 1)] {
        // Built once, outside the measured closure (which runs once per sample).
        let tree = BenchmarkLayouts.balanced(fanout: fanout, depth: depth)
        Benchmark("Hit test, \(name)", configuration: .init(scalingFactor: .kilo)) { benchmark in
            let point = Point(x: 1, y: 1)
            for _ in benchmark.scaledIterations {
                blackHole(HitTester.hitTest(tree, at: point))
            }
        }
    }

    // Replay throughput on the largest recordings: read, frames, engine, JSON Lines.
    for (file, config) in [("wacom-dth2242-finger.10f.evemu", "config/map.json5"),
                           ("hidrec-flatfrog-3200.12f.evemu", "config/lobby.json5")] {
        Benchmark("Replay \(file) through \(config)",
                  configuration: .init(metrics: [.wallClock, .throughput, .mallocCountTotal, .peakMemoryResident],
                                       warmupIterations: 2, maxDuration: .seconds(5), maxIterations: 200)) { benchmark in
            let recording = try RecordingReader.read(path: BenchmarkPaths.recordings + "/" + file)
            let configuration = try ConfigurationLoader.load(path: BenchmarkPaths.root + "/" + config)
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                var replayer = try Replayer(recording: recording, setup: configuration.pipelineSetup, options: ReplayOptions())
                var bytes = 0
                replayer.run { bytes += $0.count }
                blackHole(bytes)
            }
        }
        Benchmark("Parse \(file) (evemu reader only)",
                  configuration: .init(metrics: [.wallClock, .throughput], warmupIterations: 2,
                                       maxDuration: .seconds(5), maxIterations: 200)) { benchmark in
            let path = BenchmarkPaths.recordings + "/" + file
            benchmark.startMeasurement()
            for _ in benchmark.scaledIterations {
                blackHole(try RecordingReader.read(path: path).events.count)
            }
        }
    }

    // Serialising the events of one 10-finger frame to JSON Lines.
    let canvas = try! ViewTree(root: ViewSpec(id: "canvas", frame: Rect(x: 0, y: 0, width: 1920, height: 1080),
                                              multipleTouchEnabled: true))
    Benchmark("Encode a 10-finger delivery as JSON Lines", configuration: .init(scalingFactor: .kilo)) { benchmark in
        var engine = Engine(tree: canvas)
        var events: [EngineEvent] = []
        engine.process(TouchFrame(time: .zero, changes: (0..<10).map {
            .down(ContactID($0), Point(x: 50.25 + Double($0) * 101.5, y: 500.125 + Double($0) * 3.3))
        }), into: &events)
        var encoder = EventEncoder()
        var bytes: [UInt8] = []
        bytes.reserveCapacity(1 << 16)
        let event = OutputEvent.engine(events[0])
        precondition({ if case .touches(let e) = events[0] { e.touches.count == 10 } else { false } }())
        benchmark.startMeasurement()
        for _ in benchmark.scaledIterations {
            bytes.removeAll(keepingCapacity: true)
            encoder.encode(event, into: &bytes)
            blackHole(bytes.count)
        }
    }
}

/// Where the repository and the shared recordings are: `GESTURED_ROOT` (set by
/// scripts/bench.sh), else the working directory's parent (the plugin runs in Benchmarks/).
enum BenchmarkPaths {
    static let root: String = {
        if let root = getenv("GESTURED_ROOT") { return String(cString: root) }
        return ".."
    }()
    static let recordings: String = {
        if let path = getenv("GESTURED_RECORDINGS") { return String(cString: path) }
        return root + "/../shared/recordings"
    }()
}
