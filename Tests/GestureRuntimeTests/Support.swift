import Foundation
import GestureConfig
import GestureCore
import GestureRuntime
import Recordings
import TestSupport

/// Paths of the package and of the recordings, found from this file's location.
enum TestPaths {
    static let packageRoot: String = {
        var url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while !FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) {
            url = url.deletingLastPathComponent()
        }
        return url.path
    }()

    /// A file of the external recording corpus (`RecordingCorpus`).
    static func recording(_ name: String) -> String { RecordingCorpus.path(name) }
    /// A recording the project made from its gesture scripts.
    static func ownRecording(_ name: String) -> String { packageRoot + "/config/recordings/" + name }
    static func fixture(_ name: String) -> String { packageRoot + "/Tests/Fixtures/replay/" + name }
    /// A recording fixture the project made (`Tests/Fixtures/recordings`).
    static func recordingFixture(_ name: String) -> String { packageRoot + "/Tests/Fixtures/recordings/" + name }
    static func config(_ name: String) -> String { packageRoot + "/config/" + name }
}

/// A replay's output, parsed back from its JSON Lines.
struct ReplayOutput {
    let bytes: [UInt8]
    let events: [[String: Any]]
    /// With routing: the virtual panel's stream as `gestured replay --panel` writes it (the
    /// copy's evemu description, then its events); nil without routing.
    let panel: [UInt8]?

    init(recording: String, events eventsFile: String? = nil, config: String, tracing: Bool = false,
         allowNonTouchscreen: Bool = false, pacer: Pacer? = nil) throws {
        let configuration = try ConfigurationLoader.load(path: config)
        // Streamed, as `gestured replay` reads it.
        let stream = try RecordingReader.open(path: recording, eventsPath: eventsFile)
        var replayer = try Replayer(stream: stream, setup: configuration.pipelineSetup,
                                    options: ReplayOptions(tracing: tracing, allowNonTouchscreen: allowNonTouchscreen))
        var bytes: [UInt8] = []
        let udev = replayer.udevProperties
        var panel = replayer.pipeline.copySource.map {
            Array(EvemuWriter.descriptionText(PanelCopy.description(of: $0, udevProperties: udev)).utf8)
        }
        // `gestured replay --panel`'s composition: the JSON Lines, and the panel's evemu writer.
        let sinks: [any RecordSink] = panel == nil ? [] : [EvemuPanelSink { panel! += $0 }]
        replayer.run(pacer: pacer, sinks: sinks) { chunk in bytes += chunk }
        self.bytes = bytes
        self.panel = panel
        events = try String(decoding: bytes, as: UTF8.self).split(separator: "\n").map {
            try JSONSerialization.jsonObject(with: Data($0.utf8)) as! [String: Any]
        }
    }

    func of(type: String) -> [[String: Any]] { events.filter { $0["type"] as? String == type } }

    /// Every touch id that began at a view, in order.
    var beganTouches: [Int] {
        of(type: "touches").filter { $0["phase"] as? String == "began" }
            .flatMap { ($0["touches"] as! [[String: Any]]).map { $0["id"] as! Int } }
    }

    /// Checks SPEC 5.1 and the recognizer lifecycle on the output: every touch that begins at
    /// its view ends there exactly once with nothing after; every recognizer that begins ends
    /// or is cancelled exactly once; `seq` strictly increases from 1. Returns the violations.
    func violations() -> [String] {
        var problems: [String] = []
        var phases: [Int: String] = [:]
        var recognizers: [String: String] = [:]
        for (index, event) in events.enumerated() {
            if event["seq"] as? Int != index + 1 { problems.append("seq \(event["seq"] ?? "nil") at line \(index + 1)") }
            switch event["type"] as? String {
            case "touches":
                let phase = event["phase"] as! String
                for touch in event["touches"] as! [[String: Any]] {
                    let id = touch["id"] as! Int
                    let previous = phases[id]
                    let allowed: Bool = switch (previous, phase) {
                    case (nil, "began"), ("began", "moved"), ("moved", "moved"), ("began", "ended"), ("moved", "ended"),
                         ("began", "cancelled"), ("moved", "cancelled"): true
                    default: false
                    }
                    if !allowed { problems.append("touch \(id): \(phase) after \(previous ?? "nothing")") }
                    phases[id] = phase
                }
            case "gesture":
                let name = event["recognizer"] as! String
                let state = event["state"] as! String
                let previous = recognizers[name]
                let open = previous == "began" || previous == "changed"
                let allowed = open ? ["changed", "ended", "cancelled"].contains(state) : ["began", "recognized", "failed"].contains(state)
                if !allowed { problems.append("recognizer \(name): \(state) after \(previous ?? "nothing")") }
                recognizers[name] = state
            default:
                break
            }
        }
        for (id, phase) in phases where phase == "began" || phase == "moved" { problems.append("touch \(id) never ended") }
        for (name, state) in recognizers where state == "began" || state == "changed" {
            problems.append("recognizer \(name) never ended")
        }
        return problems
    }
}
